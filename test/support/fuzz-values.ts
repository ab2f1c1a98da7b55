// fast-check arbitraries of bad (and some plausible) values for fuzzing: wrong types, huge /
// negative / non-finite numbers, malformed uuids, unknown classes and traits, oversized strings,
// NUL bytes, nulls. Plausible values come from a pool of names that exist in the fuzzed world, so
// generated inputs also reach the deeper checks (capacity, generations, in-use rules).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';

/** Names that exist in the fuzzed world (filled in by the test's seed step). */
export interface FuzzPool {
  providers: string[];
  consumers: string[];
  aggregates: string[];
  classes: string[];
  traits: string[];
  projects: string[];
}

const hugeNumbers = [
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
];

/** Numbers that break naive code: huge, negative, fractional, and their string forms. */
export const badNumber = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(...hugeNumbers, -1, 0, 0.5, -0.0, 1.5e-7),
    fc.integer({ min: -5, max: 5 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom('NaN', 'Infinity', '-1', '1e9', '0x10', ''),
  );

/** Strings that break naive code: empty, huge, NUL bytes, unicode, SQL/regex metacharacters. */
export const badString = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '\u0000',
      'a\u0000b',
      "'; DROP TABLE traits; --",
      '%',
      '_',
      '.*',
      '\\',
      '💥',
      'CUSTOM_',
      'custom_lower',
      'CUSTOM_ÄÖ',
      'VCPU ',
      'null',
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.integer({ min: 256, max: 70000 }).map((n) => 'X'.repeat(n)),
  );

/** Malformed, unknown or oddly formatted uuids. */
export const badUuid = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      'not-a-uuid',
      '',
      '00000000-0000-0000-0000-000000000000',
      'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
      '{12345678-1234-1234-1234-123456789012}',
      '12345678123412341234123456789012',
      '12345678-1234-1234-1234-1234567890123',
    ),
    fc.uuid().map((u) => u.toUpperCase()),
    fc.constant(null).map(() => randomUUID()),
    badString(),
  );

/** Any JSON value at all (the wrong type for almost every field). */
export const anyJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    badNumber(),
    badString(),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
  );

/** Picks from a pool (or a bad value when the pool is empty). */
export function fromPool(
  values: () => string[],
  bad: fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.nat().map((i) => values()[i % Math.max(1, values().length)] ?? null),
    },
    { weight: 2, arbitrary: bad },
  );
}
