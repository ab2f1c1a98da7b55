// The import fuzzer: Placement 8.0 databases (test/support/placement-hostile-source.ts), half of
// them hostile (NaN / ±Infinity, negative and 32-bit-edge numbers, one uuid in several spellings,
// malformed uuids, parent cycles and roots off their chain, empty, long and control-character
// names, unknown and malformed class and trait names, dangling ids), half valid with the awkward
// values the API accepts, imported into an empty berth, twice:
// - without skipInvalid: refused whole (berth.import.invalid_source) with berth's database
//   fingerprint unchanged, or imported; a valid source is always imported, whole;
// - with skipInvalid: always imported, and every row berth then holds passes the API's own
//   validators, no two source spellings of one uuid became one object, and `berth check` finds no
//   problem. The first run refuses exactly when the second lists a row breaking a rule.
// BERTH_IMPORT_FUZZ_RUNS sets the cases (default 24: about 25 s on 2 busy cores);
// BERTH_FUZZ_SEED replays a run.
import fc from 'fast-check';
import { createServices, type Services } from '../../src/app/services';
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '../../src/db/seed';
import { importPlacement } from '../../src/import/placement/import-placement';
import { PlacementImportInvalidError } from '../../src/import/placement/invalid-source-error';
import { runConsistencyChecks } from '../../src/placement/consistency/run-checks';
import { assertConsumerTypeOrThrow } from '../../src/placement/consumer';
import {
  assertAllocationAmountOrThrow,
  assertExternalIdOrThrow,
} from '../../src/placement/consumer-rules';
import { isPlacementError } from '../../src/placement/errors';
import { normalizeInventory } from '../../src/placement/inventory-rules';
import { assertStandardOrCustomNameOrThrow } from '../../src/placement/names';
import {
  assertGenerationOrThrow,
  assertProviderNameOrThrow,
} from '../../src/placement/provider-rules';
import { isUuid, normalizeUuidOrThrow } from '../../src/placement/uuid';
import { createTestDb, type TestDb } from '../support/db';
import { fingerprint } from '../support/fingerprint';
import { fuzzSeed } from '../support/fuzz-stats';
import { type HostileSource, insertHostile } from '../support/placement-hostile-model';
import { placementSource } from '../support/placement-hostile-source';
import {
  clearPlacement,
  createPostgresPlacementSource,
  type PlacementSourceDb,
} from '../support/placement-source';

const RUNS = Math.max(1, Number(process.env.BERTH_IMPORT_FUZZ_RUNS ?? 24) || 24);
jest.setTimeout(60_000 + RUNS * 5_000);

/** Why the API would refuse what berth now holds: one line per row (empty: all accepted). */
async function refusedByTheApi(ds: TestDb['dataSource']): Promise<string[]> {
  const out: string[] = [];
  const rule = (what: string, check: () => unknown) => {
    try {
      check();
    } catch (err) {
      if (!isPlacementError(err)) {
        throw err;
      }
      out.push(`${what}: ${err.message}`);
    }
  };
  const classes = new Set(STANDARD_RESOURCE_CLASSES);
  const traits = new Set(STANDARD_TRAITS);
  for (const p of await ds.query(
    'SELECT uuid::text AS uuid, name, generation FROM resource_providers',
  )) {
    rule(`provider ${p.uuid}`, () => assertProviderNameOrThrow(p.name));
    rule(`provider ${p.uuid}`, () => assertGenerationOrThrow('generation', p.generation));
  }
  for (const i of await ds.query(
    `SELECT rc.name, i.total, i.reserved, i.min_unit, i.max_unit, i.step_size, i.allocation_ratio
       FROM inventories i JOIN resource_classes rc ON rc.id = i.resource_class_id`,
  )) {
    rule(`inventory ${i.name}`, () =>
      assertStandardOrCustomNameOrThrow('resource class', i.name, classes),
    );
    rule(`inventory ${i.name}`, () =>
      normalizeInventory({
        resourceClass: i.name,
        total: i.total,
        reserved: i.reserved,
        minUnit: i.min_unit,
        maxUnit: i.max_unit,
        stepSize: i.step_size,
        allocationRatio: Number(i.allocation_ratio),
      }),
    );
  }
  for (const t of await ds.query(
    'SELECT DISTINCT t.name FROM resource_provider_traits x JOIN traits t ON t.id = x.trait_id',
  )) {
    rule(`trait ${t.name}`, () => assertStandardOrCustomNameOrThrow('trait', t.name, traits));
  }
  for (const c of await ds.query(
    `SELECT c.uuid::text AS uuid, p.external_id AS project, u.external_id AS "user",
            ct.name AS type, c.generation
       FROM consumers c JOIN projects p ON p.id = c.project_id JOIN users u ON u.id = c.user_id
       LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id`,
  )) {
    rule(`consumer ${c.uuid}`, () => assertExternalIdOrThrow('project_id', c.project));
    rule(`consumer ${c.uuid}`, () => assertExternalIdOrThrow('user_id', c.user));
    rule(`consumer ${c.uuid}`, () => assertGenerationOrThrow('generation', c.generation));
    if (c.type !== null) {
      rule(`consumer ${c.uuid}`, () => assertConsumerTypeOrThrow(c.type));
    }
  }
  for (const a of await ds.query(
    `SELECT c.uuid::text AS uuid, rc.name, a.used,
            EXISTS (SELECT 1 FROM inventories i WHERE i.resource_provider_id = a.resource_provider_id
                      AND i.resource_class_id = a.resource_class_id) AS inventory
       FROM allocations a JOIN consumers c ON c.id = a.consumer_id
       JOIN resource_classes rc ON rc.id = a.resource_class_id`,
  )) {
    rule(`allocation of ${a.uuid}`, () => assertAllocationAmountOrThrow(a.uuid, a.name, a.used));
    if (!a.inventory) {
      out.push(`allocation of ${a.uuid}: no inventory of ${a.name}`);
    }
  }
  return out;
}

/** Canonical uuids that berth holds but more than one source spelling normalises to. */
async function merged(ds: TestDb['dataSource'], h: HostileSource): Promise<string[]> {
  const spellings = (raw: readonly string[]) => {
    const by = new Map<string, Set<string>>();
    for (const r of raw.filter(isUuid)) {
      const c = normalizeUuidOrThrow(r);
      by.set(c, (by.get(c) ?? new Set()).add(r));
    }
    return by;
  };
  const providerRows = spellings(h.providers.map((p) => p.uuid));
  // Provider rows are unique by spelling: a second row with the same canonical uuid shows as a
  // second spelling. Consumers: rows and the spellings allocations use.
  const consumerRows = spellings([
    ...h.consumers.map((c) => c.uuid),
    ...h.allocations.map((a) => a.consumer),
  ]);
  const held = async (table: string): Promise<string[]> =>
    (await ds.query(`SELECT uuid::text AS uuid FROM ${table}`)).map(
      (r: { uuid: string }) => r.uuid,
    );
  return [
    ...(await held('resource_providers')).filter((u) => (providerRows.get(u)?.size ?? 0) !== 1),
    ...(await held('consumers')).filter((u) => (consumerRows.get(u)?.size ?? 0) !== 1),
  ];
}

describe('berth import placement fuzzer (hostile PostgreSQL sources)', () => {
  let berth: TestDb;
  let services: Services;
  let src: PlacementSourceDb;
  let empty: string;
  // Everything an import writes, deleted (DELETE: far cheaper than TRUNCATE for a few rows).
  const reset = () =>
    berth.dataSource.query(
      `${[
        'consumer_moves',
        'allocations',
        'consumers',
        'inventories',
        'resource_provider_traits',
        'resource_provider_aggregates',
        'placement_aggregates',
        'resource_providers',
        'projects',
        'users',
        'consumer_types',
      ]
        .map((t) => `DELETE FROM ${t};`)
        .join(' ')} DELETE FROM resource_classes WHERE name LIKE 'CUSTOM%';
      DELETE FROM traits WHERE name LIKE 'CUSTOM%';`,
    );
  beforeAll(async () => {
    berth = await createTestDb();
    services = createServices(berth.dataSource);
    src = await createPostgresPlacementSource();
    await reset();
    empty = await fingerprint(berth.dataSource);
  });
  afterAll(async () => {
    await src?.drop();
    await berth?.drop();
  });

  it('refuses a hostile source whole, or with skipInvalid writes only what the API accepts', async () => {
    const seed = fuzzSeed();
    const stats = {
      hostile: 0,
      refused: 0,
      valid: 0,
      skippedRows: 0,
      providers: 0,
      consumers: 0,
    };
    await fc.assert(
      fc.asyncProperty(placementSource(), async (h) => {
        stats[h.hostile ? 'hostile' : 'valid'] += 1;
        // Reset first too: a failed case leaves its rows, and shrinking re-runs cases.
        await reset();
        await clearPlacement(src.query);
        await insertHostile(src, h);

        const strict = await importPlacement(services, src.url).then(
          (summary) => ({ summary, error: undefined }),
          (error: unknown) => ({ summary: undefined, error }),
        );
        if (strict.error !== undefined) {
          expect(strict.error).toBeInstanceOf(PlacementImportInvalidError);
          expect(h.hostile).toBe(true);
          expect(await fingerprint(berth.dataSource)).toBe(empty);
          stats.refused += 1;
        } else if (!h.hostile) {
          expect(strict.summary!.counts.providers.created).toBe(h.providers.length);
          expect(strict.summary!.skipped ?? []).toEqual([]);
        }
        await reset();

        const skipping = await importPlacement(services, src.url, { skipInvalid: true });
        const skipped = skipping.skipped ?? [];
        const breaking = skipped.filter((f) => f.rule !== 'depends-on-skipped');
        expect(breaking.length > 0).toBe(strict.error !== undefined);
        expect(await refusedByTheApi(berth.dataSource)).toEqual([]);
        expect(await merged(berth.dataSource, h)).toEqual([]);
        const report = await runConsistencyChecks(berth.dataSource);
        expect(
          report.checks.filter((c) => !c.ok && c.severity === 'problem').map((c) => c.check),
        ).toEqual([]);
        stats.skippedRows += skipped.length;
        stats.providers += skipping.counts.providers.created;
        stats.consumers += skipping.counts.consumers.created;
      }),
      { numRuns: RUNS, seed },
    );
    process.stdout.write(
      `\n[import fuzz] seed ${seed}: ${stats.valid} valid sources imported whole; ${stats.hostile} hostile ones, ${stats.refused} refused whole; with skipInvalid ${stats.skippedRows} rows skipped, ${stats.providers} providers and ${stats.consumers} consumers imported\n`,
    );
    // The generator reaches both outcomes (else the property proves little).
    if (RUNS >= 20) {
      expect(stats.refused).toBeGreaterThan(0);
      expect(stats.valid).toBeGreaterThan(0);
    }
  });
});
