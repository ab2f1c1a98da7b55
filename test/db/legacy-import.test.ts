// The compute_nodes importer against real legacy-shaped tables on PostgreSQL and MariaDB
// (seed 001): NULL uuids written back, shared-storage disk, PCI and NUMA rows, a bad row, a
// soft-deleted row, idempotent re-runs, dry runs and per-node atomicity.
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { ComputeNodeImporter, type ImportOptions } from '../../src/import/import-service';
import { openLegacySource } from '../../src/import/open-source';
import { createTestDb, type TestDb } from '../support/db';
import { claim } from '../support/factories';
import {
  insertNode,
  insertPciDevices,
  itFor,
  type LegacyDb,
  NUMA_2X4X8,
  openMariadbLegacy,
  openPostgresLegacy,
} from './legacy-import-fixtures';

const OPTS = (prefix: string): ImportOptions => ({
  sharedStorageHosts: [`${prefix}-h3`],
  pciMaxUnit: { SRIOV_NET_VF: 8 },
});

/** The five rows every scenario starts from; returns their ids by role. */
async function seedNodes(db: LegacyDb, t: { table: string; pciTable: string }, prefix: string) {
  const cmp1 = await insertNode(db, t.table, {
    uuid: randomUUID(),
    host: `${prefix}-h1`,
    hypervisor_hostname: `${prefix}-cmp1`,
    vcpus: 32,
    memory_mb: 65536,
    local_gb: 500,
    disk_available_least: 400,
    cpu_allocation_ratio: 16,
    ram_allocation_ratio: 1.5,
    disk_allocation_ratio: 1,
    numa_topology: NUMA_2X4X8,
  });
  const bad = await insertNode(db, t.table, {
    host: `${prefix}-h2`,
    hypervisor_hostname: `${prefix}-bad`,
    vcpus: -4,
    memory_mb: 1024,
    local_gb: 10,
  });
  const shared = await insertNode(db, t.table, {
    host: `${prefix}-h3`,
    hypervisor_hostname: `${prefix}-cmp3`,
    vcpus: 16,
    memory_mb: 32768,
    local_gb: 1000,
  });
  const pci = await insertNode(db, t.table, {
    host: `${prefix}-h4`,
    hypervisor_hostname: `${prefix}-cmp4`,
    vcpus: 8,
    memory_mb: 16384,
    local_gb: 100,
    cpu_allocation_ratio: 4,
    ram_allocation_ratio: 1,
    disk_allocation_ratio: 1,
  });
  await insertPciDevices(db, t.pciTable, pci, 'type-VF', 255);
  await insertPciDevices(db, t.pciTable, pci, 'type-PF', 1);
  const gone = await insertNode(db, t.table, {
    host: `${prefix}-h5`,
    hypervisor_hostname: `${prefix}-gone`,
    vcpus: 4,
    memory_mb: 1024,
    local_gb: 10,
  });
  await db.query(`UPDATE ${t.table} SET deleted = id WHERE id = ?`, [gone]);
  return { cmp1, bad, shared, pci, gone };
}

/** [class, total, max_unit, ratio] of a provider's inventories, by class. */
async function inventoryOf(s: Services, uuid: string) {
  const { inventories } = await s.inventories.list(uuid);
  return inventories.map((i) => [i.resourceClass, i.total, i.maxUnit, i.allocationRatio]);
}

const sources = [
  { kind: 'postgres', open: openPostgresLegacy },
  { kind: 'mariadb', open: openMariadbLegacy },
] as const;

describe.each(sources)('import compute-nodes from $kind', ({ kind, open }) => {
  let berth: TestDb;
  let s: Services;
  let legacy: LegacyDb | string;
  beforeAll(async () => {
    berth = await createTestDb();
    s = createServices(berth.dataSource);
    legacy = await open();
  });
  afterAll(async () => {
    if (typeof legacy !== 'string') {
      await legacy.close();
    }
    await berth.drop();
  });

  /** The legacy database (its tests are skipped when it cannot be reached). */
  function legacyOrSkip(): LegacyDb {
    if (typeof legacy === 'string') {
      throw new Error(`${kind} legacy database unavailable: ${legacy}`);
    }
    return legacy;
  }

  async function importFrom(
    db: LegacyDb,
    t: { table: string; pciTable: string },
    o: ImportOptions,
  ) {
    const source = await openLegacySource(db.url, t);
    try {
      return await new ComputeNodeImporter(s).fromSource(source, { batchSize: 2, ...o });
    } finally {
      await source.close();
    }
  }

  const uuidOf = async (db: LegacyDb, table: string, id: number) =>
    (await db.query(`SELECT uuid FROM ${table} WHERE id = ?`, [id]))[0]!.uuid as string | null;

  itFor(kind)(
    'imports uuid, NULL-uuid, shared-storage, PCI and NUMA rows; reports the bad and deleted',
    async () => {
      const db = legacyOrSkip();
      const prefix = `a${randomUUID().slice(0, 6)}`;
      const t = await db.createTables();
      const ids = await seedNodes(db, t, prefix);
      const summary = await importFrom(db, t, OPTS(prefix));

      expect(summary.counts).toEqual({
        created: 3,
        updated: 0,
        unchanged: 0,
        skipped: 1,
        failed: 1,
      });
      const byId = new Map(summary.nodes.map((n) => [n.sourceId, n]));
      expect(byId.get(String(ids.bad))).toMatchObject({
        action: 'failed',
        reason: 'vcpus must be a non-negative integer (got -4)',
      });
      expect(byId.get(String(ids.gone))).toMatchObject({
        action: 'skipped',
        reason: `soft-deleted (deleted = ${ids.gone})`,
      });
      expect(byId.get(String(ids.shared))?.skippedInventories).toEqual([
        { resourceClass: 'DISK_GB', reason: expect.stringMatching(/^shared storage/) },
      ]);

      const cmp1 = byId.get(String(ids.cmp1))!;
      expect(cmp1.uuid).toBe(await uuidOf(db, t.table, ids.cmp1));
      expect(await inventoryOf(s, cmp1.uuid!)).toEqual([
        ['VCPU', 32, 32, 16],
        ['MEMORY_MB', 65536, 65536, 1.5],
        ['DISK_GB', 500, 400, 1],
        ['NUMA_SOCKET', 2, 1, 1],
        ['NUMA_CORE', 8, 4, 1],
        ['NUMA_THREAD', 16, 8, 1],
        ['NUMA_MEMORY_MB', 65536, 32768, 1],
      ]);
      // NULL uuids: generated, written back to the source, and the provider carries them.
      for (const id of [ids.shared, ids.pci]) {
        const written = await uuidOf(db, t.table, id);
        expect(written).toMatch(/^[0-9a-f-]{36}$/);
        expect(byId.get(String(id))?.uuid).toBe(written);
      }
      expect(await inventoryOf(s, (await uuidOf(db, t.table, ids.shared))!)).toEqual([
        ['VCPU', 16, 16, 16],
        ['MEMORY_MB', 32768, 32768, 1.5],
      ]);
      expect(await inventoryOf(s, (await uuidOf(db, t.table, ids.pci))!)).toEqual([
        ['VCPU', 8, 8, 4],
        ['MEMORY_MB', 16384, 16384, 1],
        ['DISK_GB', 100, 100, 1],
        ['SRIOV_NET_VF', 255, 8, 1],
        ['CUSTOM_SRIOV_NET_PF', 1, 1, 1],
      ]);
      expect(await uuidOf(db, t.table, ids.bad)).toBeNull();
      expect(await s.providers.find(`${prefix}-bad`)).toBeNull();
    },
  );

  itFor(kind)('changes nothing on a second run: same result, generations untouched', async () => {
    const db = legacyOrSkip();
    const prefix = `b${randomUUID().slice(0, 6)}`;
    const t = await db.createTables();
    await seedNodes(db, t, prefix);
    const first = await importFrom(db, t, OPTS(prefix));
    const created = first.nodes.filter((n) => n.action === 'created');
    const before = await Promise.all(created.map((n) => s.providers.get(n.uuid!)));
    const sourceBefore = await db.query(`SELECT id, uuid FROM ${t.table} ORDER BY id`);

    const second = await importFrom(db, t, OPTS(prefix));

    expect(second.counts).toEqual({ created: 0, updated: 0, unchanged: 3, skipped: 1, failed: 1 });
    expect(second.nodes.map((n) => [n.sourceId, n.uuid])).toEqual(
      first.nodes.map((n) => [n.sourceId, n.uuid]),
    );
    const after = await Promise.all(created.map((n) => s.providers.get(n.uuid!)));
    expect(after.map((p) => p.generation)).toEqual(before.map((p) => p.generation));
    expect(await db.query(`SELECT id, uuid FROM ${t.table} ORDER BY id`)).toEqual(sourceBefore);
  });

  itFor(kind)('writes nothing to berth or the source on a dry run', async () => {
    const db = legacyOrSkip();
    const prefix = `c${randomUUID().slice(0, 6)}`;
    const t = await db.createTables();
    const ids = await seedNodes(db, t, prefix);
    const summary = await importFrom(db, t, { ...OPTS(prefix), dryRun: true });

    expect(summary).toMatchObject({ dryRun: true });
    expect(summary.counts).toEqual({ created: 3, updated: 0, unchanged: 0, skipped: 1, failed: 1 });
    expect(summary.nodes.find((n) => n.sourceId === String(ids.pci))?.changes).toContain(
      '+SRIOV_NET_VF total=255 reserved=0 min_unit=1 max_unit=8 step_size=1 ratio=1',
    );
    for (const n of summary.nodes.filter((x) => x.uuid)) {
      expect(await s.providers.find(n.uuid!)).toBeNull();
    }
    expect(await uuidOf(db, t.table, ids.shared)).toBeNull();
  });

  itFor(kind)('updates only what changed in the source, bumping that generation once', async () => {
    const db = legacyOrSkip();
    const prefix = `d${randomUUID().slice(0, 6)}`;
    const t = await db.createTables();
    const ids = await seedNodes(db, t, prefix);
    const first = await importFrom(db, t, OPTS(prefix));
    const uuid = first.nodes.find((n) => n.sourceId === String(ids.cmp1))!.uuid!;
    const before = await s.providers.get(uuid);
    await db.query(`UPDATE ${t.table} SET vcpus = 48, numa_topology = NULL WHERE id = ?`, [
      ids.cmp1,
    ]);

    const second = await importFrom(db, t, OPTS(prefix));

    expect(second.counts).toMatchObject({ updated: 1, unchanged: 2 });
    expect(second.nodes.find((n) => n.sourceId === String(ids.cmp1))?.changes).toEqual([
      '~VCPU total 32→48, max_unit 32→48',
      '-NUMA_SOCKET',
      '-NUMA_CORE',
      '-NUMA_THREAD',
      '-NUMA_MEMORY_MB',
    ]);
    expect((await s.providers.get(uuid)).generation).toBe(before.generation + 1);
  });

  itFor(kind)('fails only the node whose imported class is in use, leaving it whole', async () => {
    const db = legacyOrSkip();
    const prefix = `e${randomUUID().slice(0, 6)}`;
    const t = await db.createTables();
    const ids = await seedNodes(db, t, prefix);
    const first = await importFrom(db, t, OPTS(prefix));
    const uuid = first.nodes.find((n) => n.sourceId === String(ids.cmp1))!.uuid!;
    await s.allocations.set([claim(uuid, { DISK_GB: 20, VCPU: 2 })]);
    const before = await s.providers.get(uuid);
    // The disk turns out to be shared, and the node also grows: neither may half-apply.
    await db.query(`UPDATE ${t.table} SET vcpus = 64 WHERE id = ?`, [ids.cmp1]);
    const opts = { ...OPTS(prefix), sharedStorageHosts: [`${prefix}-h1`, `${prefix}-h3`] };

    const second = await importFrom(db, t, opts);

    expect(second.nodes.find((n) => n.sourceId === String(ids.cmp1))).toMatchObject({
      action: 'failed',
      reason: expect.stringMatching(/DISK_GB.*in use/),
    });
    expect(second.counts).toMatchObject({ unchanged: 2, failed: 2 });
    expect(await s.providers.get(uuid)).toMatchObject({ generation: before.generation });
    expect((await inventoryOf(s, uuid))[0]).toEqual(['VCPU', 32, 32, 16]);
  });

  itFor(kind)(
    'leaves the source untouched with writeBack off, and a re-run adopts by name',
    async () => {
      const db = legacyOrSkip();
      const prefix = `f${randomUUID().slice(0, 6)}`;
      const t = await db.createTables();
      const ids = await seedNodes(db, t, prefix);
      const opts = { ...OPTS(prefix), writeBack: false };
      const first = await importFrom(db, t, opts);
      const second = await importFrom(db, t, opts);

      expect(await uuidOf(db, t.table, ids.shared)).toBeNull();
      const created = first.nodes.find((n) => n.sourceId === String(ids.shared))!;
      expect(created).toMatchObject({ action: 'created' });
      expect(second.nodes.find((n) => n.sourceId === String(ids.shared))).toMatchObject({
        action: 'unchanged',
        uuid: created.uuid,
        notes: expect.arrayContaining(['row has no uuid: adopting the provider of the same name']),
      });
    },
  );
});
