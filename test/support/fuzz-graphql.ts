// Generates bad input for every Mutation field by walking the schema: each argument's type is
// followed down through lists and input objects, and every leaf gets a wrong type, a hostile
// value, null, or (sometimes) a plausible value from the fuzzed world's pool.
import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
} from 'graphql';
import { anyJson, badNumber, badString, badUuid, type FuzzPool, fromPool } from './fuzz-values';

/** One generated mutation request. */
export interface MutationCase {
  readonly field: string;
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** Hostile Ints that still pass GraphQL's Int coercion (32-bit): the domain must refuse them. */
const int32 = () =>
  fc.oneof(
    fc.constantFrom(-1, 0, 1, 2 ** 31 - 1, -(2 ** 31), 2 ** 30),
    fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  );

function scalarFor(
  scalar: string,
  name: string,
  pool: FuzzPool,
  typed: boolean,
): fc.Arbitrary<unknown> {
  const n = name.toLowerCase();
  if (scalar === 'Int' || scalar === 'Float') {
    const plausible = n.includes('generation')
      ? fc.integer({ min: 0, max: 6 })
      : fc.integer({ min: 0, max: 2048 });
    return fc.oneof(
      { weight: 2, arbitrary: plausible },
      { weight: 3, arbitrary: typed ? int32() : badNumber() },
    );
  }
  if (scalar === 'Boolean') {
    return typed
      ? fc.boolean()
      : fc.oneof({ weight: 3, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyJson() });
  }
  if (scalar === 'JSON') {
    return fc.oneof(
      anyJson(),
      fc.array(
        fc.dictionary(
          fc.constantFrom('uuid', 'hypervisor_hostname', 'vcpus', 'memory_mb', 'local_gb', 'x'),
          anyJson(),
          { maxKeys: 5 },
        ),
        { maxLength: 3 },
      ),
    );
  }
  if (scalar === 'ID' || n.includes('uuid')) {
    const ids = () => [...pool.providers, ...pool.consumers, ...pool.aggregates];
    const p = n.includes('consumer')
      ? () => pool.consumers
      : n.includes('aggregate')
        ? () => pool.aggregates
        : n.includes('provider') || n === 'uuid' || n === 'parentuuid'
          ? () => pool.providers
          : ids;
    return fromPool(p, typed ? badUuid() : fc.oneof(badUuid(), badNumber()));
  }
  const str = typed ? typedString() : badString();
  if (n.includes('resourceclass') || n === 'resource') {
    return fromPool(() => pool.classes, str);
  }
  if (n.includes('trait') || n === 'name') {
    return fromPool(() => [...pool.traits, ...pool.classes], str);
  }
  if (n.includes('project') || n.includes('user')) {
    return fromPool(() => pool.projects, str);
  }
  return typed ? typedString() : fc.oneof(badString(), badNumber());
}

/** Type-correct hostile strings; NUL (refused up front) only rarely, so deeper rules are hit. */
const typedString = () =>
  fc.oneof(
    { weight: 15, arbitrary: badString().filter((v) => !v.includes('\u0000')) },
    { weight: 1, arbitrary: badString() },
  );

/** Largest serialized size of the long lists valueFor makes (a request stays sendable). */
const LONG_LIST_BYTES = 100_000;

/**
 * An arbitrary for a value of `type`, named `name`, usually wrong in some way. `typed` values
 * pass GraphQL's own type checks (hostile content only), so they reach the domain rules; the
 * others also break types, nullability and shapes.
 */
export function valueFor(
  type: GraphQLInputType,
  name: string,
  pool: FuzzPool,
  typed: boolean,
  depth = 0,
  nullable = true,
): fc.Arbitrary<unknown> {
  if (depth > 6) {
    return typed ? fc.constant(null) : anyJson();
  }
  if (isNonNullType(type)) {
    const inner = valueFor(type.ofType, name, pool, typed, depth + 1, !typed);
    return typed
      ? inner
      : fc.oneof(
          { weight: 12, arbitrary: inner },
          { weight: 1, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: anyJson() },
        );
  }
  let inner: fc.Arbitrary<unknown>;
  if (isListType(type)) {
    const item = valueFor(type.ofType, name, pool, typed, depth + 1);
    inner = fc.oneof(
      { weight: 6, arbitrary: fc.array(item, { maxLength: 4 }) },
      { weight: 1, arbitrary: item },
      {
        weight: 1,
        // A long list of one value, at most LONG_LIST_BYTES serialized: nested lists each
        // multiplying by up to 2000 once built documents too large to send at all.
        arbitrary: item.chain((v) => {
          const size = Math.max(1, JSON.stringify(v)?.length ?? 1);
          const most = Math.max(1, Math.min(2000, Math.floor(LONG_LIST_BYTES / size)));
          return fc.integer({ min: Math.min(100, most), max: most }).map((k) => Array(k).fill(v));
        }),
      },
    );
  } else if (isInputObjectType(type)) {
    const fields = type.getFields();
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, f] of Object.entries(fields)) {
      model[k] = valueFor(f.type, k, pool, typed, depth + 1);
    }
    const required = Object.entries(fields)
      .filter(([, f]) => isNonNullType(f.type))
      .map(([k]) => k);
    inner = typed
      ? fc.record(model, { requiredKeys: required })
      : fc.oneof(
          { weight: 8, arbitrary: fc.record(model, { requiredKeys: required }) },
          { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
          {
            weight: 1,
            arbitrary: fc
              .record(model, { requiredKeys: required })
              .map((o) => ({ ...o, unexpectedField: 1 })),
          },
        );
  } else if (isEnumType(type)) {
    const values = fc.constantFrom(...type.getValues().map((v) => v.name));
    inner = typed
      ? values
      : fc.oneof({ weight: 3, arbitrary: values }, { weight: 1, arbitrary: badString() });
  } else {
    inner = scalarFor(type.name, name, pool, typed);
  }
  if (typed) {
    return nullable
      ? fc.oneof({ weight: 6, arbitrary: inner }, { weight: 1, arbitrary: fc.constant(null) })
      : inner;
  }
  return fc.oneof(
    { weight: 10, arbitrary: inner },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: anyJson() },
  );
}

function selection(field: GraphQLField<unknown, unknown>): string {
  const t = getNamedType(field.type);
  return isObjectType(t) || isInterfaceType(t) || isUnionType(t) ? ' { __typename }' : '';
}

/** An arbitrary request for `field` with every argument passed as a variable. */
export function mutationCaseFor(
  field: GraphQLField<unknown, unknown>,
  pool: FuzzPool,
): fc.Arbitrary<MutationCase> {
  const defs = field.args.map((a, i) => `$a${i}: ${String(a.type)}`);
  const uses = field.args.map((a, i) => `${a.name}: $a${i}`);
  const query = `mutation${defs.length ? `(${defs.join(', ')})` : ''} { ${field.name}${
    uses.length ? `(${uses.join(', ')})` : ''
  }${selection(field)} }`;
  const record = (typed: boolean) => {
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    field.args.forEach((a, i) => {
      model[`a${i}`] = valueFor(a.type, a.name, pool, typed);
    });
    const required = field.args.flatMap((a, i) => (isNonNullType(a.type) ? [`a${i}`] : []));
    return fc.record(model, { requiredKeys: typed ? required : [] });
  };
  // Half type-correct (reaches the domain rules), half type-breaking.
  return fc
    .oneof(record(true), record(false))
    .map((variables) => ({ field: field.name, query, variables }));
}

/** Arbitrary requests spread evenly over every Mutation field of `schema`. */
export function mutationCases(schema: GraphQLSchema, pool: FuzzPool): fc.Arbitrary<MutationCase> {
  const fields = Object.values(schema.getMutationType()?.getFields() ?? {});
  return fc.oneof(...fields.map((f) => mutationCaseFor(f, pool)));
}
