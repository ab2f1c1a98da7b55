// yoga plugin: authorises each operation's root fields against the central role map in
// src/auth/roles.ts before anything executes (403). Project-scoped tokens may only write
// allocations for consumers of their project.
import {
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLObjectType,
  getArgumentValues,
  getOperationAST,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/authenticator';
import { collectWriteTargets, projectScopeViolation } from '../auth/project-scope';
import { PROJECT_SCOPED_MUTATIONS, roleAllows, roleForOperation } from '../auth/roles';
import type { Services } from '../services';
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

/** Builds the plugin. */
export function useAuthorization(o: AuthorizePluginOptions): Plugin<{ caller?: Principal | null }> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const caller = (args.contextValue as { caller?: Principal | null }).caller;
      if (!caller) {
        return;
      }
      const op = getOperationAST(args.document, args.operationName);
      if (!op) {
        return;
      }
      const rootType: GraphQLObjectType | null | undefined =
        op.operation === 'mutation' ? args.schema.getMutationType() : undefined;
      const forbid = (message: string) =>
        setResultAndStopExecution({
          errors: [
            new GraphQLError(message, {
              extensions: { code: AUTH_CODES.forbidden, http: { status: 403 } },
            }),
          ],
        });
      const fields = rootFields(args.document, op.selectionSet);
      for (const f of fields) {
        const need = roleForOperation(op.operation, f.name.value);
        if (!roleAllows(caller.role, need)) {
          forbid(
            `Role '${caller.role}' may not run ${op.operation} field '${f.name.value}' (needs '${need}').`,
          );
          return;
        }
      }
      if (!caller.project || !rootType) {
        return;
      }
      for (const f of fields) {
        const def = rootType.getFields()[f.name.value];
        if (!def || !PROJECT_SCOPED_MUTATIONS.has(f.name.value)) {
          continue;
        }
        let values: Record<string, unknown>;
        try {
          values = getArgumentValues(def, f, args.variableValues ?? {});
        } catch {
          // Bad arguments: execution reports the coercion error and writes nothing.
          continue;
        }
        const reason = await projectScopeViolation(
          o.services.dataSource,
          caller.project,
          collectWriteTargets(values),
        );
        if (reason) {
          forbid(reason);
          return;
        }
      }
    },
  };
}
