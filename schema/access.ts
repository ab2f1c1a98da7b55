// Who may read what, decided where the data is: every GraphQL object type declares its access
// rule here, next to nothing else, and the rule runs on every path that reaches one of its
// objects (nested fields, aliases, fragments, connections, mutation payloads, subscription
// events). Root fields keep their role checks (src/auth/roles.ts, src/graphql/authorize-plugin.ts);
// these rules decide what a caller who got in sees below the root.
//
// - `owned(projectOf)`: the object belongs to one project (a consumer, an allocation, a server
//   group, a project's usage or quota). A caller scoped to another project gets
//   `berth.forbidden` on its fields (Pothos scope-auth, type-level `authScopes`); list fields
//   that mix projects drop other projects' objects before they are resolved (`visibleTo`).
// - `cloud`: infrastructure every caller that reaches it may see (providers, inventories,
//   capacity, traits, aggregates, scheduling outcomes of the caller's own request).
// - `part`: a piece of its parent (an edge, a usage line, a member list): visible exactly when
//   the parent is, so it carries no rule of its own.
// - `admin`: only admin callers (the audit trail).
// A schema with an object type that declares none of these does not build (assertAccessDeclared).
import { type GraphQLSchema, isObjectType } from 'graphql';
import { type Role, roleAllows } from '../src/auth/roles';
import { ErrorCode, ForbiddenError } from '../src/placement/errors';
import type { Context } from './context';

/** The access class of a GraphQL object type (its `extensions.access`). */
export type AccessClass = 'owned' | 'cloud' | 'part' | 'admin';

/** The scopes rules are written in (Pothos scope-auth `AuthScopes`). */
export interface AccessScopes {
  /** The caller may see data of this project (unscoped callers see every project). */
  project: string;
  /** The caller has at least this role. */
  role: Role;
}

/** The scope-auth initializer: what the request's caller holds. */
export function callerScopes(ctx: Context) {
  const caller = ctx.caller;
  return {
    project: (projectId: string) => visibleProject(ctx, projectId),
    role: (need: Role) => caller === null || roleAllows(caller.role, need),
  };
}

/** True when the caller may see data of `projectId` (auth off, or an unscoped token, sees all). */
export function visibleProject(ctx: Pick<Context, 'caller'>, projectId: string): boolean {
  const own = ctx.caller?.project;
  return own === null || own === undefined || own === projectId;
}

/** The items of `list` the caller may see (each item's project given by `projectOf`). */
export function visibleTo<T>(
  ctx: Pick<Context, 'caller'>,
  list: readonly T[],
  projectOf: (item: T) => string,
): T[] {
  const own = ctx.caller?.project;
  return own === null || own === undefined
    ? (list as T[])
    : list.filter((item) => projectOf(item) === own);
}

/** The error a field of an object the caller may not see answers (no foreign ids in it). */
export function forbiddenObject(typeName: string, ctx: Pick<Context, 'caller'>): ForbiddenError {
  const project = ctx.caller?.project;
  return new ForbiddenError(
    project
      ? `This token is scoped to project '${project}' and may not read a ${typeName} of another project.`
      : `This token may not read ${typeName} objects.`,
    ErrorCode.FORBIDDEN,
  );
}

function declared(access: AccessClass) {
  return { extensions: { access } };
}

/** Object options of a type that belongs to the project `projectOf` returns. */
export function owned<T>(projectOf: (source: T) => string) {
  return {
    ...declared('owned'),
    authScopes: (source: T) => ({ project: projectOf(source) }),
  };
}

/** Object options of infrastructure visible to every caller that reaches it. */
export const cloud = declared('cloud');

/** Object options of a piece of its parent object (visible exactly when the parent is). */
export const part = declared('part');

/** Object options of a type only admin callers may read. */
export const adminOnly = { ...declared('admin'), authScopes: { role: 'admin' as Role } };

/**
 * Throws when an object type of `schema` declares no access class, so a new type cannot be
 * added without deciding who may read it (root types are decided by src/auth/roles.ts).
 */
export function assertAccessDeclared(schema: GraphQLSchema): GraphQLSchema {
  const roots = new Set(
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].map(
      (t) => t?.name,
    ),
  );
  const missing = Object.values(schema.getTypeMap())
    .filter((t) => isObjectType(t) && !t.name.startsWith('__') && !roots.has(t.name))
    .filter((t) => !accessOf(t.extensions as Record<string, unknown>))
    .map((t) => t.name);
  if (missing.length > 0) {
    throw new Error(
      `GraphQL object types without an access rule (schema/access.ts): ${missing.join(', ')}.`,
    );
  }
  return schema;
}

/** The access class declared in a type's extensions, or undefined. */
export function accessOf(extensions: Readonly<Record<string, unknown>>): AccessClass | undefined {
  const a = extensions.access;
  return a === 'owned' || a === 'cloud' || a === 'part' || a === 'admin' ? a : undefined;
}
