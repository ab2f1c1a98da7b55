// yoga plugin bounding what one GraphQL query response can hold. The static cost estimate
// (armour-rules.ts) cannot know how many allocations a provider has, so nested lists can still
// fan out (provider → allocations → provider → allocations …) into millions of objects. Every
// list-returning field counts its items against a per-request budget as execution proceeds;
// once spent, every further list field yields an empty list (nothing left to descend into, no
// error objects to build) and the whole response is replaced by one `berth.result_too_large`
// error, so the work and memory stay bounded by the budget and no partial data is sent.
import {
  defaultFieldResolver,
  GraphQLError,
  type GraphQLSchema,
  getNullableType,
  getOperationAST,
  isListType,
  isObjectType,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';

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

function tooLarge(limit: number): GraphQLError {
  return new GraphQLError(
    `The response would hold more than ${limit} list items (BERTH_GRAPHQL_MAX_RESULT_ITEMS): page with first/after, or select fewer nested lists.`,
    { extensions: { code: RESULT_TOO_LARGE } },
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

/** Builds the plugin: queries may produce at most `maxItems` list items in one response. */
export function useResultBudget(o: { schema: GraphQLSchema; maxItems: number }): Plugin {
  instrument(o.schema);
  return {
    onExecute({ args }) {
      // Mutations return what they wrote; their writes must not be reported as failures.
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') {
        return;
      }
      const budget: Budget = { limit: o.maxItems, remaining: o.maxItems };
      budgets.set(args.contextValue as object, budget);
      return {
        onExecuteDone({ setResult }) {
          if (budget.remaining < 0) {
            setResult({ errors: [tooLarge(budget.limit)] });
          }
        },
      };
    },
  };
}
