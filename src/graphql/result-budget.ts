// yoga plugin bounding what one GraphQL response can hold: a query's answer, a mutation's payload
// and each event of a subscription. The static cost estimate (armour-rules.ts) cannot know how
// many allocations a provider has, so nested lists can still fan out (provider → allocations →
// provider → allocations …) into millions of objects. Every list-returning field counts its items
// against a per-response budget as execution proceeds; once spent, every further list field
// yields an empty list (nothing left to descend into, no error objects to build) and the whole
// response is replaced by one `berth.result_too_large` error, so the work and memory stay bounded
// by the budget and no partial data is sent. A mutation's writes are done by then: its error says
// so (`extensions.applied`). A subscription gets a fresh budget for every event; an event over it
// is answered with the error and ends the subscription (every later event would be as large).
import {
  defaultFieldResolver,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  getNullableType,
  getOperationAST,
  isListType,
  isObjectType,
  type OperationTypeNode,
} from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** The error code of a response over budget. */
export const RESULT_TOO_LARGE = 'berth.result_too_large';

interface Budget {
  readonly limit: number;
  remaining: number;
}

/** What a list field yields once the budget is spent: nothing to descend into. */
const SPENT: readonly never[] = Object.freeze([]);

const budgets = new WeakMap<object, Budget>();
const instrumented = new WeakSet<GraphQLSchema>();

function tooLarge(limit: number, operation: `${OperationTypeNode}` | undefined): GraphQLError {
  const advice =
    operation === 'mutation'
      ? 'The write was applied; select fewer nested lists in its answer and read the rest with a query.'
      : operation === 'subscription'
        ? 'The subscription ends; subscribe again selecting fewer nested lists.'
        : 'Page with first/after, or select fewer nested lists.';
  return new GraphQLError(
    `The response would hold more than ${limit} list items (BERTH_GRAPHQL_MAX_RESULT_ITEMS). ${advice}`,
    {
      extensions: {
        code: RESULT_TOO_LARGE,
        ...(operation === 'mutation' ? { applied: true } : {}),
      },
    },
  );
}

function spend(value: unknown, budget: Budget): unknown {
  if (Array.isArray(value)) {
    budget.remaining -= value.length;
    if (budget.remaining < 0) {
      return SPENT;
    }
  }
  return value;
}

/**
 * Spends `items` of the request's budget for list items written without the executor (direct
 * answers); false, spending nothing, when they do not fit (the executor then runs and reports).
 */
export function spendWithin(context: object, items: number): boolean {
  const budget = budgets.get(context);
  if (!budget) {
    return true;
  }
  if (budget.remaining - items < 0) {
    return false;
  }
  budget.remaining -= items;
  return true;
}

/** Wraps every list-returning field of `schema` once (the budget is looked up per request). */
function instrument(schema: GraphQLSchema): void {
  if (instrumented.has(schema)) {
    return;
  }
  instrumented.add(schema);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) {
      continue;
    }
    for (const field of Object.values(type.getFields())) {
      if (!isListType(getNullableType(field.type))) {
        continue;
      }
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        const budget = budgets.get(context as object);
        if (!budget) {
          return resolve(source, args, context, info);
        }
        if (budget.remaining < 0) {
          return SPENT;
        }
        const out = resolve(source, args, context, info);
        return out instanceof Promise ? out.then((v) => spend(v, budget)) : spend(out, budget);
      };
    }
  }
}

/**
 * The events of `source` with the budget refilled before each is executed (the source executes an
 * event when asked for it); an event over budget is replaced by the error and ends the stream.
 */
function boundedEvents(
  source: AsyncIterableIterator<ExecutionResult>,
  budget: Budget,
): AsyncIterableIterator<ExecutionResult> {
  let ended = false;
  const end = async (): Promise<IteratorResult<ExecutionResult>> => {
    ended = true;
    await source.return?.();
    return { done: true, value: undefined };
  };
  const out: AsyncIterableIterator<ExecutionResult> = {
    async next() {
      if (ended) {
        return { done: true, value: undefined };
      }
      budget.remaining = budget.limit;
      const r = await source.next();
      if (r.done || budget.remaining >= 0) {
        return r;
      }
      await end();
      return { done: false, value: { errors: [tooLarge(budget.limit, 'subscription')] } };
    },
    return: end,
    throw: async (e?: unknown) => {
      await end();
      throw e;
    },
    [Symbol.asyncIterator]: () => out,
  };
  return out;
}

/** Builds the plugin: every response holds at most `maxItems` list items. */
export function useResultBudget(o: { schema: GraphQLSchema; maxItems: number }): Plugin {
  instrument(o.schema);
  return {
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName)?.operation;
      const budget: Budget = { limit: o.maxItems, remaining: o.maxItems };
      budgets.set(args.contextValue as object, budget);
      return {
        onExecuteDone({ setResult }) {
          if (budget.remaining < 0) {
            setResult({ data: null, errors: [tooLarge(budget.limit, operation)] });
          }
        },
      };
    },
    onSubscribe({ args }) {
      const budget: Budget = { limit: o.maxItems, remaining: o.maxItems };
      budgets.set(args.contextValue as object, budget);
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result)) {
            setResult(boundedEvents(result as AsyncIterableIterator<ExecutionResult>, budget));
          }
        },
      };
    },
  };
}
