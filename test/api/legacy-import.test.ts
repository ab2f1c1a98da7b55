// GraphQL importComputeNodes: legacy Nova compute_nodes rows as a JSON payload (seed 001).
// Registers schema/legacy-import.ts before the app builds the schema (a no-op once
// schema/index.ts imports it).
import '../../schema/legacy-import';
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { gql } from '../support/graphql';

const IMPORT = `mutation I($rows: JSON!, $dryRun: Boolean, $options: ImportComputeNodesOptions) {
  importComputeNodes(rows: $rows, dryRun: $dryRun, options: $options) {
    dryRun
    counts { created updated unchanged skipped failed }
    nodes { sourceId name uuid action changes skippedInventories { resourceClass reason } reason }
  }
}`;

const rowsFor = (prefix: string) => [
  {
    id: 1,
    uuid: null,
    host: `${prefix}-h1`,
    hypervisor_hostname: `${prefix}-cmp1`,
    vcpus: 16,
    memory_mb: 32768,
    local_gb: 200,
    cpu_allocation_ratio: 4,
    ram_allocation_ratio: 1,
    disk_allocation_ratio: 1,
    pci_stats: { objects: [{ count: 255, tags: { dev_type: 'type-VF' } }] },
    numa_topology: {
      cells: [
        { id: 0, cpuset: [0, 1, 2, 3], memory: 16384, siblings: [] },
        { id: 1, cpuset: [4, 5, 6, 7], memory: 16384, siblings: [] },
      ],
    },
  },
  {
    id: 2,
    uuid: randomUUID(),
    host: `${prefix}-h2`,
    hypervisor_hostname: `${prefix}-cmp2`,
    vcpus: 8,
    memory_mb: 8192,
    local_gb: 100,
    cpu_allocation_ratio: 2,
    ram_allocation_ratio: 1,
    pci_devices: [
      { dev_type: 'type-PCI', status: 'allocated' },
      { dev_type: 'type-PCI', status: 'available' },
    ],
  },
  { id: 3, hypervisor_hostname: `${prefix}-bad`, vcpus: 4, memory_mb: null, local_gb: 10 },
];

describe('importComputeNodes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates providers, reports the bad row, and is idempotent on a second call', async () => {
    const prefix = `g${randomUUID().slice(0, 6)}`;
    const options = {
      sharedStorageHosts: [`${prefix}-h2`],
      pciMaxUnit: [{ resourceClass: 'SRIOV_NET_VF', maxUnit: 8 }],
    };
    const rows = rowsFor(prefix);
    const first = await gql(t.app, IMPORT, { rows, options });
    expect(first.errors).toBeUndefined();
    const { counts, nodes } = first.data.importComputeNodes;
    expect(counts).toEqual({ created: 2, updated: 0, unchanged: 0, skipped: 0, failed: 1 });
    expect(nodes[2]).toEqual({
      sourceId: '3',
      name: `${prefix}-bad`,
      uuid: null,
      action: 'FAILED',
      changes: [],
      skippedInventories: [],
      reason: 'memory_mb must be a non-negative integer (got NULL)',
    });
    expect(nodes[0].changes).toEqual(
      [
        '+MEMORY_MB total=32768 reserved=0 min_unit=1 max_unit=32768 step_size=1 ratio=1',
        '+NUMA_CORE total=8 reserved=0 min_unit=1 max_unit=4 step_size=1 ratio=1',
        '+NUMA_MEMORY_MB total=32768 reserved=0 min_unit=1 max_unit=16384 step_size=1 ratio=1',
        '+NUMA_SOCKET total=2 reserved=0 min_unit=1 max_unit=1 step_size=1 ratio=1',
        '+NUMA_THREAD total=8 reserved=0 min_unit=1 max_unit=4 step_size=1 ratio=1',
        '+SRIOV_NET_VF total=255 reserved=0 min_unit=1 max_unit=8 step_size=1 ratio=1',
        '+VCPU total=16 reserved=0 min_unit=1 max_unit=16 step_size=1 ratio=4',
        '+DISK_GB total=200 reserved=0 min_unit=1 max_unit=200 step_size=1 ratio=1',
      ].sort((a, b) => a.slice(1).localeCompare(b.slice(1))),
    );
    expect(nodes[1]).toMatchObject({
      action: 'CREATED',
      skippedInventories: [
        { resourceClass: 'DISK_GB', reason: expect.stringMatching(/^shared storage/) },
      ],
    });
    const pci = await t.app.services.inventories.list(nodes[1].uuid);
    expect(pci.inventories.find((i) => i.resourceClass === 'PCI_DEVICE')).toMatchObject({
      total: 2,
    });

    const again = await gql(t.app, IMPORT, { rows, options });
    expect(again.data.importComputeNodes.counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 2,
      skipped: 0,
      failed: 1,
    });
    // The row without a uuid finds its provider again by name (the caller never saved the uuid).
    expect(again.data.importComputeNodes.nodes[0].uuid).toBe(nodes[0].uuid);
  });

  it('fails a row whose name belongs to another provider', async () => {
    const prefix = `n${randomUUID().slice(0, 6)}`;
    const [row] = rowsFor(prefix).slice(1, 2);
    const first = await gql(t.app, IMPORT, { rows: [row] });
    const clash = await gql(t.app, IMPORT, { rows: [{ ...row, uuid: randomUUID() }] });
    expect(clash.data.importComputeNodes.nodes[0]).toMatchObject({
      action: 'FAILED',
      reason: `provider name '${prefix}-cmp2' is already used by provider ${first.data.importComputeNodes.nodes[0].uuid}`,
    });
  });

  it('writes nothing on a dry run', async () => {
    const prefix = `h${randomUUID().slice(0, 6)}`;
    const r = await gql(t.app, IMPORT, { rows: rowsFor(prefix).slice(1, 2), dryRun: true });
    expect(r.data.importComputeNodes).toMatchObject({ dryRun: true, counts: { created: 1 } });
    expect(await t.app.services.providers.find(r.data.importComputeNodes.nodes[0].uuid)).toBeNull();
  });

  it.each([
    {
      name: 'rows is not a list',
      rows: { id: 1 },
      options: null,
      msg: /array of compute_nodes row objects/,
    },
    {
      name: 'a row is not an object',
      rows: [1],
      options: null,
      msg: /array of compute_nodes row objects/,
    },
    {
      name: 'a negative reserved amount',
      rows: [],
      options: { reservedHostCpus: -1 },
      msg: /reservedHostCpus/,
    },
  ])('returns a 400 when $name', async ({ rows, options, msg }) => {
    const r = await gql(t.app, IMPORT, { rows, options });
    expect(r.data).toBeNull();
    expect(r.errors?.[0]?.extensions).toEqual({ code: 'berth.invalid_input', status: 400 });
    expect(r.errors?.[0]?.message).toMatch(msg);
  });
});
