// Capturing what a root field resolved to: the direct answer executes only the root field (with its
// selection cut to `__typename`) and writes the rest from the value captured here.
import { defaultFieldResolver, type GraphQLSchema } from 'graphql';
import type { DirectRoot } from './direct-answer-spec';

/** Contexts whose root field value is being captured, and the values captured. */
const capturing = new WeakSet<object>();
const captured = new WeakMap<object, unknown>();
const instrumented = new WeakSet<GraphQLSchema>();

/**
 * Wraps the resolvers of `roots` in `schema` (once) so that an execution started by
 * captureRootValue can read what the root field resolved to.
 */
export function instrumentRoots(schema: GraphQLSchema, roots: readonly DirectRoot[]): void {
  if (instrumented.has(schema)) {
    return;
  }
  instrumented.add(schema);
  const fields = schema.getQueryType()?.getFields() ?? {};
  for (const root of roots) {
    const field = fields[root.field];
    if (!field) {
      continue;
    }
    const resolve = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context, info) => {
      const out = resolve(source, args, context, info);
      if (!capturing.has(context as object)) {
        return out;
      }
      const keep = (v: unknown) => {
        captured.set(context as object, v);
        return v;
      };
      return out instanceof Promise ? out.then(keep) : keep(out);
    };
  }
}

/** Runs `execute` and returns its result with the value the instrumented root field resolved to. */
export async function captureRootValue<R>(
  context: object,
  execute: () => R | Promise<R>,
): Promise<{ result: R; value: unknown }> {
  capturing.add(context);
  try {
    const result = await execute();
    return { result, value: captured.get(context) };
  } finally {
    capturing.delete(context);
    captured.delete(context);
  }
}
