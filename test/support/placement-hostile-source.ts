// Placement 8.0 databases for the import fuzzer (test/db/placement-import-fuzz.test.ts): a
// fast-check arbitrary of small sources, half of them hostile (every table may hold what the API
// would refuse: NaN / ±Infinity, negative and 32-bit-edge numbers, one uuid in several spellings,
// malformed uuids, parent cycles, roots off their chain, empty names, unknown and malformed class
// and trait names, dangling ids), half repaired into sources the API would accept whole, with the
// awkward values it does accept (control characters and 150 emoji in names, uuids in capitals,
// 2147483647, a ratio of 3.40282e38, over-commit). Everything stays within what the real schema
// (placement-manage db sync) lets a row hold: column types and lengths, unique keys, the few
// foreign keys. The shape and `insertHostile`: placement-hostile-model.ts.
import fc from 'fast-check';
import {
  CLASSES,
  type HostileSource,
  MAX_INT,
  MAX_RATIO,
  TRAITS,
  TYPES,
  uniqueBy,
} from './placement-hostile-model';
import { repaired } from './placement-hostile-repair';

/** Mostly `usual`, sometimes `edge`. */
const mostly = <T>(usual: fc.Arbitrary<T>, edge: fc.Arbitrary<T>, odds = 8) =>
  fc.oneof({ weight: odds, arbitrary: usual }, { weight: 1, arbitrary: edge });

const int = mostly(
  fc.integer({ min: 1, max: 12 }),
  fc.constantFrom(-(MAX_INT + 1), -1, 0, MAX_INT),
);
const small = (value: number) => mostly(fc.constant(value), int, 4);
const ratio = mostly(
  fc.constantFrom(1, 1.5, 16),
  fc.oneof(
    fc.constantFrom(
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -1,
      0,
      MAX_RATIO,
      3.5e38,
      1e300,
    ),
    fc.double(),
  ),
  6,
);

/** Spellings of one uuid value: as written, capitals, no dashes, both. */
const spelling = (base: string) =>
  mostly(
    fc.constant(base),
    fc.constantFrom(
      base.toUpperCase(),
      base.replace(/-/g, ''),
      base.replace(/-/g, '').toUpperCase(),
    ),
    3,
  );

/** Spellings of a few values (so variants of one value meet), or no uuid at all. */
const uuidFrom = (bases: readonly string[]) =>
  mostly(
    fc.constantFrom(...bases).chain(spelling),
    fc.constantFrom('', 'not-a-uuid', 'z'.repeat(36), ' '.repeat(36)),
    10,
  );

/** Text within a column of `max` characters: plausible, empty, long, control characters. */
const text = (plausible: readonly string[], max: number) =>
  mostly(
    fc.constantFrom(...plausible),
    fc.oneof(
      fc.constantFrom(
        '',
        ' ',
        'tab\there',
        'esc\u001b[2Jgone',
        'rtl\u202eevil',
        'x'.repeat(max),
        '💥'.repeat(Math.min(max, 150)),
      ),
      fc.string({ maxLength: 20 }).map((s) => s.split('\u0000').join('')),
    ),
    4,
  );

/** Hostile values as generated: the schema's keys apply, nothing else. */
function raw(hostile: boolean): fc.Arbitrary<HostileSource> {
  return fc
    .tuple(fc.uniqueArray(fc.uuid({ version: 4 }), { minLength: 9, maxLength: 9 }), fc.nat(4))
    .chain(([bases, extra]) => {
      const n = extra + 1;
      const idx = fc.nat({ max: n - 1 });
      const ref = mostly(idx, fc.constant(99), 12);
      const classId = mostly(
        fc.constantFrom(0, 0, 1, 2, 10000),
        fc.constantFrom(10001, 10002, 99999),
      );
      const catalog = <T extends { valid: boolean }>(rows: readonly T[]) =>
        fc
          .subarray(rows.filter((r) => r.valid))
          .chain((good) => mostly(fc.constant(good), fc.subarray([...rows]), 3));
      return fc.record({
        hostile: fc.constant(hostile),
        classes: catalog(CLASSES),
        traits: catalog(TRAITS),
        types: catalog(TYPES),
        aggregates: fc
          .array(uuidFrom(bases.slice(5, 6)), { maxLength: 2 })
          .map((us) => uniqueBy(us, (u) => u).map((uuid, i) => ({ id: i + 1, uuid }))),
        projects: fc
          .array(text(['proj-a', 'proj-b'], 255), { minLength: 1, maxLength: 2 })
          .map((ns) => uniqueBy(ns, (x) => x).map((name, i) => ({ id: i + 1, name }))),
        users: fc
          .array(text(['user-a'], 255), { minLength: 1, maxLength: 2 })
          .map((ns) => uniqueBy(ns, (x) => x).map((name, i) => ({ id: i + 1, name }))),
        providers: fc.array(
          fc.record({
            uuid: uuidFrom(bases.slice(0, 5)),
            name: fc.option(text(['host-a', 'host-b', 'host-c', 'numa0', 'numa1'], 200), {
              freq: 20,
            }),
            generation: fc.option(int, { freq: 20 }),
            parent: fc.option(idx, { freq: 2 }),
            root: fc.option(idx, { freq: 10 }),
          }),
          { minLength: n, maxLength: n },
        ),
        inventories: fc.array(
          fc.record({
            provider: ref,
            classId,
            total: int,
            reserved: small(0),
            minUnit: small(1),
            maxUnit: int,
            stepSize: small(1),
            ratio,
          }),
          { maxLength: 8 },
        ),
        providerTraits: fc.array(
          fc.record({ provider: idx, trait: fc.integer({ min: 1, max: 5 }) }),
          {
            maxLength: 3,
          },
        ),
        providerAggregates: fc.array(
          fc.record({ provider: idx, aggregate: mostly(fc.constantFrom(1, 2), fc.constant(3)) }),
          { maxLength: 3 },
        ),
        consumers: fc.array(
          fc.record({
            uuid: uuidFrom(bases.slice(6, 9)),
            project: mostly(fc.constantFrom(1, 2), fc.constant(3)),
            user: mostly(fc.constantFrom(1, 2), fc.constant(3)),
            type: fc.option(fc.constantFrom(1, 2), { freq: 3 }),
            generation: mostly(fc.nat(9), int),
          }),
          { maxLength: 3 },
        ),
        allocations: fc.array(
          fc.record({
            provider: ref,
            consumer: uuidFrom(bases.slice(6, 9)),
            classId,
            used: int,
          }),
          { maxLength: 6 },
        ),
      });
    })
    .map(keys);
}

/** The real schema's unique and foreign keys. */
function keys(s: HostileSource): HostileSource {
  const providers = uniqueBy(
    uniqueBy(s.providers, (p) => p.uuid),
    (p) => p.name,
  );
  const n = providers.length;
  const traitIds = new Set(s.traits.map((t) => t.id));
  const typeIds = new Set(s.types.map((t) => t.id));
  return {
    ...s,
    providers: providers.map((p) => ({
      ...p,
      parent: p.parent !== null && p.parent < n ? p.parent : null,
      root: p.root !== null && p.root < n ? p.root : null,
    })),
    inventories: uniqueBy(s.inventories, (i) => `${i.provider} ${i.classId}`),
    providerTraits: uniqueBy(
      s.providerTraits.filter((l) => l.provider < n && traitIds.has(l.trait)),
      (l) => `${l.provider} ${l.trait}`,
    ),
    providerAggregates: uniqueBy(s.providerAggregates, (l) => `${l.provider} ${l.aggregate}`),
    consumers: uniqueBy(s.consumers, (c) => c.uuid).map((c) => ({
      ...c,
      type: c.type !== null && typeIds.has(c.type) ? c.type : null,
    })),
  };
}

/** A small source (up to 5 providers, 3 consumers): hostile, or repaired to be valid. */
export function placementSource(): fc.Arbitrary<HostileSource> {
  return fc.boolean().chain((hostile) => raw(hostile).map((s) => (hostile ? s : repaired(s))));
}
