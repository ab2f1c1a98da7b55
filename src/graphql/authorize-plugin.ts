// yoga plugin: authorises each operation's root fields (queries, mutations and subscriptions)
// against the central role map in src/auth/roles.ts before anything executes (403); what the
// caller sees below the root is decided by each object type's rule (schema/access.ts). Project-scoped tokens may only write
// allocations for consumers of their project, and only admins may override the operator's
// scheduler configuration. Both are decided on the arguments as execution will coerce them
// (variable defaults, list coercion); an operation whose arguments cannot be decided is refused.
import {
  type DocumentNode,
  type ExecutionArgs,
  type FieldNode,
  GraphQLError,
  type GraphQLObjectType,
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Services } from '../app/services';
import type { Principal } from '../auth/authenticator';
import {
  collectWriteTargets,
  projectScopeViolation,
  readScopeViolation,
} from '../auth/project-scope';
import {
  ADMIN_ONLY_ARGUMENTS,
  adminOnlyArgument,
  PROJECT_SCOPED_MUTATIONS,
  PROJECT_SCOPED_QUERIES,
  roleAllows,
  roleForOperation,
} from '../auth/roles';
import { AUTH_CODES } from './authenticate-plugin';

/** Root fields of `set`, through fragments (cycles cut). @skip/@include are ignored: all count. */
export function rootFields(doc: DocumentNode, set: SelectionSetNode): FieldNode[] {
  const frags = new Map(
    doc.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [],
    ),
  );
  const out: FieldNode[] = [];
  const walk = (s: SelectionSetNode, seen: ReadonlySet<string>) => {
    for (const sel of s.selections) {
      if (sel.kind === Kind.FIELD) {
        out.push(sel);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet, seen);
      } else {
        const f = frags.get(sel.name.value);
        if (f && !seen.has(sel.name.value)) {
          walk(f.selectionSet, new Set([...seen, sel.name.value]));
        }
      }
    }
  };
  walk(set, new Set());
  return out;
}

/** Options of {@link useAuthorization}. */
export interface AuthorizePluginOptions {
  readonly services: Services;
}

/**
 * The arguments of each root field of the operation exactly as execution will see them:
 * variables coerced against their definitions (defaults applied, a single value coerced to a
 * list), then each field's arguments coerced. `null` when the variables do not coerce, in which
 * case execution reports that and runs nothing.
 * @throws GraphQLError when a field's arguments do not coerce (the caller refuses the operation).
 */
function coercedRootArguments(
  args: ExecutionArgs,
  op: OperationDefinitionNode,
  rootType: GraphQLObjectType,
  fields: readonly FieldNode[],
): { field: string; values: Record<string, unknown> }[] | null {
  const vars = getVariableValues(
    args.schema,
    op.variableDefinitions ?? [],
    (args.variableValues ?? {}) as Record<string, unknown>,
  );
  if (vars.errors) {
    return null;
  }
  return fields.flatMap((f) => {
    const def = rootType.getFields()[f.name.value];
    return def ? [{ field: f.name.value, values: getArgumentValues(def, f, vars.coerced) }] : [];
  });
}

/**
 * Why the caller may not run the operation in `args`, or null when it may: each root field's
 * role (queries, mutations and subscriptions alike), then the arguments that depend on the
 * caller's project or role.
 */
async function refusal(
  args: ExecutionArgs,
  caller: Principal,
  services: Services,
): Promise<string | null> {
  const op = getOperationAST(args.document, args.operationName);
  if (!op) {
    return null; // execution reports the missing operation and runs nothing
  }
  const fields = rootFields(args.document, op.selectionSet);
  for (const f of fields) {
    const need = roleForOperation(op.operation, f.name.value);
    if (!roleAllows(caller.role, need)) {
      return `Role '${caller.role}' may not run ${op.operation} field '${f.name.value}' (needs '${need}').`;
    }
  }
  const rootType =
    op.operation === 'mutation'
      ? args.schema.getMutationType()
      : op.operation === 'subscription'
        ? args.schema.getSubscriptionType()
        : args.schema.getQueryType();
  const scopedRead = (field: string) =>
    caller.project !== null && op.operation === 'query' && PROJECT_SCOPED_QUERIES.has(field);
  const scopedWrite = (field: string) =>
    caller.project !== null && op.operation === 'mutation' && PROJECT_SCOPED_MUTATIONS.has(field);
  const argumentChecked = fields.some(
    (f) =>
      ADMIN_ONLY_ARGUMENTS[f.name.value] || scopedRead(f.name.value) || scopedWrite(f.name.value),
  );
  if (!rootType || !argumentChecked) {
    return null;
  }
  let coerced: ReturnType<typeof coercedRootArguments>;
  try {
    coerced = coercedRootArguments(args, op, rootType, fields);
  } catch {
    // Never skip a check that cannot be decided: the arguments do not coerce, so refuse.
    return "The arguments could not be checked against this token's permissions.";
  }
  if (!coerced) {
    return null; // execution refuses the variables and runs no field
  }
  for (const { field, values } of coerced) {
    const override = adminOnlyArgument(field, values);
    if (override && caller.role !== 'admin') {
      return `Only an admin token may set ${override} on '${field}' (it overrides the operator's configuration).`;
    }
    const reason =
      caller.project === null
        ? null
        : scopedRead(field)
          ? await readScopeViolation(services.dataSource, caller.project, field, values)
          : scopedWrite(field)
            ? await projectScopeViolation(
                services.dataSource,
                caller.project,
                collectWriteTargets(values),
              )
            : null;
    if (reason) {
      return reason;
    }
  }
  return null;
}

function forbidden(message: string) {
  return {
    errors: [
      new GraphQLError(message, {
        extensions: { code: AUTH_CODES.forbidden, http: { status: 403 } },
      }),
    ],
  };
}

/**
 * Builds the plugin: every operation type passes the same checks before anything runs
 * (subscriptions before their source stream opens).
 */
export function useAuthorization(o: AuthorizePluginOptions): Plugin<{ caller?: Principal | null }> {
  const check = async (
    args: ExecutionArgs,
    stop: (result: ReturnType<typeof forbidden>) => void,
  ): Promise<void> => {
    const caller = (args.contextValue as { caller?: Principal | null }).caller;
    if (!caller) {
      return;
    }
    const reason = await refusal(args, caller, o.services);
    if (reason) {
      stop(forbidden(reason));
    }
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
  };
}
