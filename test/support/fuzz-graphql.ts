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

function scalarFor(scalar: string, name: string, pool: FuzzPool): fc.Arbitrary<unknown> {
  const n = name.toLowerCase();
  if (scalar === 'Int' || scalar === 'Float') {
    const plausible = n.includes('generation')
      ? fc.integer({ min: 0, max: 6 })
      : fc.integer({ min: 0, max: 2048 });
    return fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 3, arbitrary: badNumber() });
  }
  if (scalar === 'Boolean') {
    return fc.oneof({ weight: 3, arbitrary: fc.boolean() }, { weight: 1, arbitrary: anyJson() });
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
    return fromPool(p, fc.oneof(badUuid(), badNumber()));
  }
  if (n.includes('resourceclass') || n === 'resource') {
    return fromPool(() => pool.classes, badString());
  }
  if (n.includes('trait') || n === 'name') {
    return fromPool(() => [...pool.traits, ...pool.classes], badString());
  }
  if (n.includes('project') || n.includes('user')) {
    return fromPool(() => pool.projects, badString());
  }
  return fc.oneof(badString(), badNumber());
}

/** An arbitrary for a value of `type`, named `name`, usually wrong in some way. */
export function valueFor(
  type: GraphQLInputType,
  name: string,
  pool: FuzzPool,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (depth > 6) {
    return anyJson();
  }
  if (isNonNullType(type)) {
    return fc.oneof(
      { weight: 12, arbitrary: valueFor(type.ofType, name, pool, depth + 1) },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: anyJson() },
    );
  }
  let inner: fc.Arbitrary<unknown>;
  if (isListType(type)) {
    const item = valueFor(type.ofType, name, pool, depth + 1);
    inner = fc.oneof(
      { weight: 6, arbitrary: fc.array(item, { maxLength: 4 }) },
      { weight: 1, arbitrary: item },
      {
        weight: 1,
        arbitrary: item.chain((v) =>
          fc.integer({ min: 100, max: 2000 }).map((k) => Array(k).fill(v)),
        ),
      },
    );
  } else if (isInputObjectType(type)) {
    const fields = type.getFields();
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, f] of Object.entries(fields)) {
      model[k] = valueFor(f.type, k, pool, depth + 1);
    }
    const required = Object.entries(fields)
      .filter(([, f]) => isNonNullType(f.type))
      .map(([k]) => k);
    inner = fc.oneof(
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
    inner = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) },
      { weight: 1, arbitrary: badString() },
    );
  } else {
    inner = scalarFor(type.name, name, pool);
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
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  field.args.forEach((a, i) => {
    model[`a${i}`] = valueFor(a.type, a.name, pool);
  });
  return fc
    .record(model, { requiredKeys: [] })
    .map((variables) => ({ field: field.name, query, variables }));
}

/** Arbitrary requests spread evenly over every Mutation field of `schema`. */
export function mutationCases(schema: GraphQLSchema, pool: FuzzPool): fc.Arbitrary<MutationCase> {
  const fields = Object.values(schema.getMutationType()?.getFields() ?? {});
  return fc.oneof(...fields.map((f) => mutationCaseFor(f, pool)));
}
