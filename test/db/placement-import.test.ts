// `berth import placement` against real Placement 8.0 databases (schema by placement-manage db
// sync; PostgreSQL always, MariaDB when reachable): a filled source compared row for row with
// berth, idempotent re-runs, conflicts refused and --replace, dry runs writing nothing.
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import {
  importPlacement,
  type PlacementImportSummary,
} from '../../src/import/placement/import-placement';
import { readPlacement } from '../../src/import/placement/read-placement';
import { openPlacementSource } from '../../src/import/placement/source';
import type { Change } from '../../src/placement/change-bus';
import { createTestDb, type TestDb } from '../support/db';
import {
  createMariadbPlacementSource,
  createPostgresPlacementSource,
  type PlacementSourceDb,
} from '../support/placement-source';
import { itFor } from './legacy-import-fixtures';
import { differencesFrom, richFixture } from './placement-import-fixture';

async function snapshotOf(url: string) {
  const src = await openPlacementSource(url);
  try {
    return await readPlacement(src);
  } finally {
    await src.close();
  }
}

async function count(t: TestDb, table: string): Promise<number> {
  const rows: { n: number }[] = await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]!.n;
}

const created = (s: PlacementImportSummary, k: keyof PlacementImportSummary['counts']) =>
  s.counts[k].created;

describe.each([
  { kind: 'postgres', create: createPostgresPlacementSource },
  { kind: 'mariadb', create: createMariadbPlacementSource },
])('berth import placement ($kind source)', ({ kind, create }) => {
  let berth: TestDb;
  let services: Services;
  let src: PlacementSourceDb | undefined;
  let fx: ReturnType<typeof richFixture>;
  const announced: Change[] = [];
  beforeAll(async () => {
    berth = await createTestDb();
    services = createServices(berth.dataSource);
    services.changes.subscribe((c) => announced.push(c));
  });
  afterAll(async () => {
    await src?.drop();
    await berth.drop();
  });

  itFor(kind)('imports a filled source: berth matches it row for row', async () => {
    fx = richFixture(`${kind}${randomUUID().slice(0, 6)}`);
    src = await create();
    await src.fill(fx.fixture);
    // One allocation of a consumer Placement has no consumers row for (pre-Rocky data).
    const orphan = randomUUID();
    await src.query(
      'INSERT INTO allocations (resource_provider_id, consumer_id, resource_class_id, used) SELECT id, ?, 2, 5 FROM resource_providers WHERE uuid = ?',
      [orphan, fx.p.shared],
    );
    const summary = await importPlacement(services, src.url, { batch: 2 });
    expect(summary.counts.providers).toEqual({
      created: 6,
      updated: 0,
      unchanged: 0,
      overCommitted: 0,
      skipped: 0,
    });
    expect(summary.skipped).toEqual([]);
    expect(created(summary, 'consumers')).toBe(5);
    expect(created(summary, 'allocations')).toBe(13);
    // Each batch's audit event counts what it wrote: together they make the summary.
    const events: { d: { import: Record<string, { created?: number }> } }[] =
      await berth.dataSource.query(
        "SELECT details AS d FROM audit_events WHERE details ? 'import' ORDER BY id",
      );
    const audited = (k: string) => events.reduce((n, e) => n + (e.d.import[k]?.created ?? 0), 0);
    expect(events.length).toBeGreaterThan(3);
    expect([audited('providers'), audited('consumers'), audited('allocations')]).toEqual([
      6, 5, 13,
    ]);
    expect(summary.incompleteConsumers).toBe(1);
    expect(summary.overCommitted).toEqual([
      expect.objectContaining({
        providerUuid: fx.p.cn2,
        resourceClass: 'VCPU',
        used: 6,
        capacity: 4,
      }),
    ]);
    expect(summary.counts.inventories.overCommitted).toBe(1);
    // Capacity indexes, caches and live feeds reload once the import is done.
    expect(announced.at(-1)).toEqual({ kind: 'all' });
    const snap = await snapshotOf(src.url);
    expect(await differencesFrom(berth.dataSource, snap)).toEqual([]);
    // A few facts checked directly, not through the importer's own comparison.
    const rows = await berth.dataSource.query(
      `SELECT rp.name, rp.generation, p.uuid::text AS parent, r.uuid::text AS root
         FROM resource_providers rp LEFT JOIN resource_providers p ON p.id = rp.parent_provider_id
         JOIN resource_providers r ON r.id = rp.root_provider_id WHERE rp.uuid = $1`,
      [fx.p.pf],
    );
    expect(rows[0]).toMatchObject({ generation: 3, parent: fx.p.numa0, root: fx.p.cn1 });
    const consumer = await berth.dataSource.query(
      `SELECT c.generation, ct.name AS type FROM consumers c
         LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id WHERE c.uuid = $1`,
      [fx.c.moved],
    );
    expect(consumer[0]).toEqual({ generation: 6, type: 'INSTANCE' });
    const custom = await berth.dataSource.query(
      `SELECT name FROM resource_classes WHERE name LIKE 'CUSTOM_%'
       UNION ALL SELECT name FROM traits WHERE name LIKE 'CUSTOM_%' ORDER BY name`,
    );
    expect(custom.map((r: { name: string }) => r.name)).toEqual(
      expect.arrayContaining([
        'CUSTOM_GPU',
        'CUSTOM_NET_BW_KBPS',
        'CUSTOM_PHYSNET_PUBLIC',
        'CUSTOM_RACK_A',
      ]),
    );
    const shares = await berth.dataSource.query(
      `SELECT count(*)::int AS n FROM resource_provider_aggregates a
         JOIN placement_aggregates pa ON pa.id = a.aggregate_id WHERE pa.uuid = $1`,
      [fx.agg],
    );
    expect(shares[0].n).toBe(3);
  });

  itFor(kind)('a second run changes nothing and says so', async () => {
    const before = await berth.dataSource.query(
      'SELECT uuid, generation, updated_at FROM resource_providers ORDER BY id',
    );
    const heard = announced.length;
    const again = await importPlacement(services, src!.url, { batch: 3 });
    expect(again.changed).toBe(false);
    expect(announced.length).toBe(heard);
    expect(again.counts.providers).toMatchObject({ created: 0, updated: 0, unchanged: 6 });
    expect(again.counts.consumers).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    expect(
      await berth.dataSource.query(
        'SELECT uuid, generation, updated_at FROM resource_providers ORDER BY id',
      ),
    ).toEqual(before);
  });

  itFor(kind)(
    'refuses conflicting berth data, naming the uuid; --replace overwrites it',
    async () => {
      await berth.dataSource.query(
        'UPDATE resource_providers SET generation = 99 WHERE uuid = $1',
        [fx.p.numa1],
      );
      await berth.dataSource.query('UPDATE consumers SET generation = 42 WHERE uuid = $1', [
        fx.c.mig,
      ]);
      // A new source provider whose name berth already gives another (unused) provider.
      const newcomer = randomUUID();
      const squatter = randomUUID();
      await berth.dataSource.query(
        `INSERT INTO resource_providers (id, uuid, name, root_provider_id)
       SELECT n, $1, $2, n FROM (SELECT nextval(pg_get_serial_sequence('resource_providers','id'))::int AS n) s`,
        [squatter, `${fx.fixture.providers[0]!.name}-new`],
      );
      await src!.query(
        'INSERT INTO resource_providers (uuid, name, generation, root_provider_id) VALUES (?, ?, 1, NULL)',
        [newcomer, `${fx.fixture.providers[0]!.name}-new`],
      );
      const providersBefore = await count(berth, 'resource_providers');
      await expect(importPlacement(services, src!.url)).rejects.toThrow(
        new RegExp(
          `berth already holds provider ${fx.p.numa1} with different content: generation 99→2.*3 conflicting objects.*--replace`,
        ),
      );
      expect(await count(berth, 'resource_providers')).toBe(providersBefore);
      const replaced = await importPlacement(services, src!.url, { replace: true });
      expect(replaced.counts.providers).toMatchObject({ created: 1, updated: 1, unchanged: 5 });
      expect(replaced.counts.consumers).toMatchObject({ updated: 1, unchanged: 4 });
      expect(replaced.replaced.map((r) => r.uuid).sort()).toEqual(
        [fx.p.numa1, fx.c.mig, newcomer].sort(),
      );
      expect(await differencesFrom(berth.dataSource, await snapshotOf(src!.url))).toEqual([]);
      const gone = await berth.dataSource.query(
        'SELECT 1 FROM resource_providers WHERE uuid = $1',
        [squatter],
      );
      expect(gone).toEqual([]);
    },
  );

  itFor(kind).each([
    { batches: 'one batch', batch: 500 },
    { batches: 'one provider per batch', batch: 1 },
  ])('--replace swaps two providers’ names in $batches', async ({ batch }) => {
    const [a, b] = [fx.p.cn1, fx.p.cn2];
    const names = async () =>
      Object.fromEntries(
        (
          await berth.dataSource.query(
            'SELECT uuid::text AS uuid, name FROM resource_providers WHERE uuid = ANY($1::uuid[])',
            [[a, b]],
          )
        ).map((r: { uuid: string; name: string }) => [r.uuid, r.name]),
      );
    const before = await names();
    // Swap in the source (through a third name: Placement's names are unique too).
    await src!.query('UPDATE resource_providers SET name = ? WHERE uuid = ?', ['swap-tmp', a]);
    await src!.query('UPDATE resource_providers SET name = ? WHERE uuid = ?', [before[a], b]);
    await src!.query('UPDATE resource_providers SET name = ? WHERE uuid = ?', [before[b], a]);
    const swapped = await importPlacement(services, src!.url, { replace: true, batch });
    expect(swapped.counts.providers).toMatchObject({ created: 0, updated: 2 });
    expect(await names()).toEqual({ [a]: before[b], [b]: before[a] });
    expect(await differencesFrom(berth.dataSource, await snapshotOf(src!.url))).toEqual([]);
    // Swap back, so the next case starts from the fixture's names.
    await src!.query('UPDATE resource_providers SET name = ? WHERE uuid = ?', ['swap-tmp', a]);
    await src!.query('UPDATE resource_providers SET name = ? WHERE uuid = ?', [before[b], b]);
    await src!.query('UPDATE resource_providers SET name = ? WHERE uuid = ?', [before[a], a]);
    await importPlacement(services, src!.url, { replace: true, batch });
    expect(await names()).toEqual(before);
  });

  itFor(kind)('a dry run reports the changes and writes nothing', async () => {
    const fresh = await createTestDb();
    try {
      const tables = [
        'resource_providers',
        'inventories',
        'consumers',
        'allocations',
        'traits',
        'resource_classes',
      ];
      const before = await Promise.all(tables.map((t) => count(fresh, t)));
      const dry = await importPlacement(createServices(fresh.dataSource), src!.url, {
        dryRun: true,
      });
      expect(dry.dryRun).toBe(true);
      expect(dry.counts.providers.created).toBe(7);
      expect(dry.counts.consumers.created).toBe(5);
      expect(dry.counts['resource classes'].created).toBe(2);
      expect(await Promise.all(tables.map((t) => count(fresh, t)))).toEqual(before);
    } finally {
      await fresh.drop();
    }
  });
});
