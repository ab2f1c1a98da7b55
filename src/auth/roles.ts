// Roles and the one central authorisation policy (berth extension; Placement delegates roles to
// Keystone + oslo.policy). Every GraphQL Mutation field and REST policy action not listed here
// needs `admin`, so a newly added mutation is admin-only until someone classifies it.

/** Token roles, weakest first. */
export const ROLES = ['reader', 'scheduler', 'admin'] as const;
/** A token role. */
export type Role = (typeof ROLES)[number];

/** True when `v` names a role. */
export function isRole(v: string): v is Role {
  return (ROLES as readonly string[]).includes(v);
}

/** True when a caller with `have` may do what needs `need` (roles are ordered). */
export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/**
 * GraphQL Mutation fields open to a role below admin, keyed by field name. Queries need `reader`.
 * Anything absent needs `admin`.
 */
export const MUTATION_ROLES: Readonly<Record<string, Role>> = {
  setAllocations: 'scheduler',
  deleteAllocations: 'scheduler',
  schedule: 'scheduler',
  confirmMove: 'scheduler',
  revertMove: 'scheduler',
  createServerGroup: 'scheduler',
  deleteServerGroup: 'scheduler',
  addServerGroupMembers: 'scheduler',
  removeServerGroupMembers: 'scheduler',
};

/**
 * Mutation fields whose consumers must belong to a project-scoped caller's project (checked by
 * the GraphQL layer against the arguments and the consumers' current projects).
 */
export const PROJECT_SCOPED_MUTATIONS: ReadonlySet<string> = new Set([
  'setAllocations',
  'deleteAllocations',
  'schedule',
  'confirmMove',
  'revertMove',
  'createServerGroup',
  'addServerGroupMembers',
  'removeServerGroupMembers',
]);

/**
 * Query fields that read one project's data: a project-scoped caller may read only its own
 * project's (src/auth/project-scope.ts readScopeViolation), and may not list every project.
 */
export const PROJECT_SCOPED_QUERIES: ReadonlySet<string> = new Set([
  'quota',
  'usages',
  'consumers',
  'consumer',
  'projects',
  'explainPlacement',
  'serverGroups',
]);

/**
 * Arguments (paths into a root field's coerced arguments) that override the operator's scheduler
 * configuration for one request: only `admin` may set them, on any root field listed.
 */
export const ADMIN_ONLY_ARGUMENTS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  schedule: [['input', 'filters']],
  explainPlacement: [['input', 'filters']],
};

/** The first admin-only argument `field`'s coerced `args` set (as `a.b`), or null. */
export function adminOnlyArgument(field: string, args: Readonly<Record<string, unknown>>) {
  for (const path of ADMIN_ONLY_ARGUMENTS[field] ?? []) {
    let v: unknown = args;
    for (const k of path) {
      v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
    }
    if (v !== undefined && v !== null) {
      return path.join('.');
    }
  }
  return null;
}

/** The role a GraphQL root field needs. */
export function roleForOperation(operation: 'query' | 'mutation' | 'subscription', field: string) {
  if (operation === 'query') {
    return 'reader' satisfies Role;
  }
  if (operation === 'mutation') {
    return MUTATION_ROLES[field] ?? 'admin';
  }
  return 'reader' satisfies Role; // subscriptions are live queries
}

/** REST policy actions (src/rest handlers' authorizeOrThrow names) writable below admin. */
const REST_SCHEDULER_ACTIONS: ReadonlySet<string> = new Set([
  'placement:allocations:update',
  'placement:allocations:manage',
  'placement:allocations:delete',
]);

/**
 * The role a REST policy action needs: reads (`…:list`, `…:show`, usages, candidates) need
 * `reader`, allocation writes `scheduler`, everything else `admin`.
 */
export function roleForRestAction(action: string): Role {
  if (REST_SCHEDULER_ACTIONS.has(action)) {
    return 'scheduler';
  }
  if (/:(list|show|usages)$/.test(action) || action === 'placement:usages') {
    return 'reader';
  }
  return 'admin';
}
