// yoga plugin running queries compiled (graphql-jit). An allocation-candidates answer for 1,000
// hosts is ~25,000 fields; the interpreting executor pays a resolver call, a path object and a
// promise check for each, ~10× the compiled code's cost. Queries of one large root field the
// schema declares a direct writer for (DIRECT_ROOTS) go further: only the root field is executed
// and its value is written straight to JSON (direct-answer.ts). Mutations and subscriptions keep
// the standard executor (small answers; their error paths are the ones clients script against).
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
import type { Logger } from '../observability/logger';
import {
  type DirectPlan,
  directAnswerStats,
  planDirectAnswer,
  writeDirectAnswer,
} from './direct-answer';
import type { DirectRoot } from './direct-answer-spec';
import { spendWithin } from './result-budget';
import { captureRootValue, instrumentRoots } from './root-capture';

interface Compiled {
  readonly op: OperationDefinitionNode;
  readonly query: CompiledQuery;
  /** Set when the answer is written directly: the plan and its cut-down query. */
  readonly direct?: { readonly plan: DirectPlan; readonly query: CompiledQuery };
}

/**
 * The plugin; compiled queries are cached per parsed document (yoga caches those by text).
 * `direct` lists the root fields answered directly (none = every query through graphql-jit).
 */
export function useCompiledQueries(o: {
  schema: GraphQLSchema;
  log: Logger;
  direct?: readonly DirectRoot[];
}): Plugin {
  const cache = new WeakMap<DocumentNode, Map<string, Compiled | null>>();
  const roots = o.direct ?? [];
  instrumentRoots(o.schema, roots);

  function compile(document: DocumentNode, operationName: string | undefined) {
    const query = compileQuery(o.schema, document, operationName);
    if (isCompiledQuery(query)) {
      return query;
    }
    o.log.warn({ errors: query.errors }, 'GraphQL query not compiled; interpreting it');
    return undefined;
  }

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
      const query = op?.operation === 'query' ? compile(document, operationName) : undefined;
      if (op && query) {
        const plan = planDirectAnswer(document, op, roots);
        const pruned = plan && compile(plan.pruned, operationName);
        entry = { op, query, ...(plan && pruned ? { direct: { plan, query: pruned } } : {}) };
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
      setExecuteFn(async (a) => {
        const vars = getVariableValues(
          o.schema,
          compiled.op.variableDefinitions ?? [],
          (a.variableValues ?? {}) as Record<string, unknown>,
          { maxErrors: 50 },
        );
        if (vars.errors) {
          return { errors: vars.errors };
        }
        if (compiled.direct) {
          const answer = await directAnswer(
            compiled.direct,
            a.rootValue,
            a.contextValue,
            vars.coerced,
          );
          if (answer) {
            return answer;
          }
        }
        const out = await compiled.query.query(a.rootValue, a.contextValue, vars.coerced);
        return Object.assign(out, { stringify: compiled.query.stringify });
      });
    },
  };
}

/**
 * The answer written directly, or undefined when the normal path must answer: errors, a value
 * the writer cannot reproduce exactly, or more list items than the result budget has left.
 */
async function directAnswer(
  direct: NonNullable<Compiled['direct']>,
  root: unknown,
  context: unknown,
  variables: Record<string, unknown>,
): Promise<ExecutionResult | undefined> {
  const ctx = context as object;
  const { result, value } = await captureRootValue(ctx, () =>
    direct.query.query(root, context, variables),
  );
  if (result.errors?.length || result.extensions || value === null || value === undefined) {
    return undefined;
  }
  const written = writeDirectAnswer(direct.plan, value);
  if (!written || !spendWithin(ctx, written.items)) {
    return undefined;
  }
  directAnswerStats.written++;
  const bytes = written.bytes;
  return {
    // What the executor would have returned, for any plugin that reads it (none on this path).
    get data() {
      return (JSON.parse(bytes.toString('utf8')) as ExecutionResult).data;
    },
    // yoga sends what stringify returns; a Buffer is sent as it is.
    stringify: () => bytes as unknown as string,
  } as ExecutionResult;
}
