// yoga plugin running queries compiled (graphql-jit). An allocation-candidates answer for 1,000
// hosts is ~25,000 fields; the interpreting executor pays a resolver call, a path object and a
// promise check for each, ~10× the compiled code's cost. Mutations and subscriptions keep the
// standard executor (small answers; their error paths are the ones clients script against).
//
// Variables are coerced by graphql-js first (graphql-jit 0.8 does not fill input-object field
// defaults in variables, e.g. a request group's `suffix: ''`), so errors about variables read as
// they always have; the compiled query then sees values that are already complete.
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from '../logger';

interface Compiled {
  readonly op: OperationDefinitionNode;
  readonly query: CompiledQuery;
}

/** The plugin; compiled queries are cached per parsed document (yoga caches those by text). */
export function useCompiledQueries(o: { schema: GraphQLSchema; log: Logger }): Plugin {
  const cache = new WeakMap<DocumentNode, Map<string, Compiled | null>>();

  function compiledFor(document: DocumentNode, operationName: string | undefined) {
    let byName = cache.get(document);
    if (!byName) {
      byName = new Map();
      cache.set(document, byName);
    }
    const key = operationName ?? '';
    if (!byName.has(key)) {
      const op = getOperationAST(document, operationName);
      let entry: Compiled | null = null;
      if (op?.operation === 'query') {
        const query = compileQuery(o.schema, document, operationName);
        if (isCompiledQuery(query)) {
          entry = { op, query };
        } else {
          o.log.warn({ errors: query.errors }, 'GraphQL query not compiled; interpreting it');
        }
      }
      byName.set(key, entry);
    }
    return byName.get(key) ?? null;
  }

  return {
    onExecute({ args, setExecuteFn }) {
      const compiled = compiledFor(args.document, args.operationName ?? undefined);
      if (!compiled) {
        return;
      }
      setExecuteFn((a) => {
        const vars = getVariableValues(
          o.schema,
          compiled.op.variableDefinitions ?? [],
          (a.variableValues ?? {}) as Record<string, unknown>,
          { maxErrors: 50 },
        );
        if (vars.errors) {
          return { errors: vars.errors };
        }
        const run = (r: ExecutionResult) =>
          Object.assign(r, { stringify: compiled.query.stringify });
        const out = compiled.query.query(a.rootValue, a.contextValue, vars.coerced);
        return out instanceof Promise ? out.then(run) : run(out);
      });
    },
  };
}
