// Table tests for the pure compute_nodes row -> provider + inventories mapping (seed 001 steps 4a-4d).
import {
  type ComputeNodeMapping,
  type ComputeNodeMappingOptions,
  mapComputeNode,
} from '../../../src/import/legacy-compute-node';
import type { LegacyPciDevice } from '../../../src/import/legacy-pci';

const base = {
  id: 7,
  uuid: null,
  host: 'cmp7',
  hypervisor_hostname: 'cmp7.example.org',
  vcpus: 32,
  vcpus_used: 4,
  cpu_allocation_ratio: 16,
  memory_mb: 65536,
  memory_mb_used: 2048,
  ram_allocation_ratio: 1.5,
  local_gb: 500,
  local_gb_used: 40,
  disk_available_least: 400,
  disk_allocation_ratio: 1,
  pci_stats: null,
  numa_topology: null,
  deleted: 0,
};

const inv = (resourceClass: string, total: number, o: Record<string, number> = {}) => ({
  resourceClass,
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 1,
  ...o,
});

const VCPU = inv('VCPU', 32, { allocationRatio: 16 });
const MEM = inv('MEMORY_MB', 65536, { allocationRatio: 1.5 });
const DISK = inv('DISK_GB', 500, { maxUnit: 400 });

function plan(m: ComputeNodeMapping) {
  if (m.kind !== 'plan') {
    throw new Error(`expected a plan, got ${m.kind}: ${m.reason}`);
  }
  return m.plan;
}

const devices = (devType: string, n: number, status = 'available'): LegacyPciDevice[] =>
  Array.from({ length: n }, () => ({ dev_type: devType, status, deleted: 0 }));

const numa2x4x8 = JSON.stringify({
  'nova_object.name': 'NUMATopology',
  'nova_object.data': {
    cells: [0, 1].map((id) => ({
      'nova_object.name': 'NUMACell',
      'nova_object.data': {
        id,
        cpuset: [0, 1, 2, 3, 4, 5, 6, 7].map((c) => c + id * 8),
        memory: 32768,
        siblings: [0, 1, 2, 3].map((c) => [c + id * 8, c + id * 8 + 4]),
      },
    })),
  },
});

describe('mapComputeNode', () => {
  it.each<{
    name: string;
    row?: Record<string, unknown>;
    devices?: LegacyPciDevice[];
    opts?: ComputeNodeMappingOptions;
    want: unknown[];
  }>([
    {
      name: 'VCPU, MEMORY_MB and DISK_GB from the basic columns (seed 4a, 4b)',
      want: [DISK, MEM, VCPU],
    },
    {
      name: 'shared-storage host: no DISK_GB',
      opts: { sharedStorageHosts: ['cmp7'] },
      want: [MEM, VCPU],
    },
    {
      name: 'shared storage for every host with *',
      opts: { sharedStorageHosts: ['*'] },
      want: [MEM, VCPU],
    },
    {
      name: 'unknown disk_available_least: max_unit is local_gb',
      row: { disk_available_least: null },
      want: [inv('DISK_GB', 500), MEM, VCPU],
    },
    {
      name: 'disk_available_least above local_gb is capped at local_gb',
      row: { disk_available_least: 900 },
      want: [inv('DISK_GB', 500), MEM, VCPU],
    },
    {
      name: 'nova.conf reserved values; disk MB rounded up to GB',
      opts: { reservedHostCpus: 2, reservedHostMemoryMb: 512, reservedHostDiskMb: 1025 },
      want: [
        { ...DISK, reserved: 2 },
        { ...MEM, reserved: 512 },
        { ...VCPU, reserved: 2 },
      ],
    },
    {
      name: 'ratios NULL or 0.0 use Nova initial defaults',
      row: { cpu_allocation_ratio: null, ram_allocation_ratio: 0, disk_allocation_ratio: null },
      want: [DISK, MEM, VCPU],
    },
    {
      name: '255 VFs capped at 8 per instance (seed 4c), one PF as a custom class',
      devices: [
        ...devices('type-VF', 255),
        ...devices('type-PF', 1, 'unavailable'),
        ...devices('type-PF', 1),
      ],
      opts: { pciMaxUnit: { SRIOV_NET_VF: 8 } },
      want: [
        inv('CUSTOM_SRIOV_NET_PF', 1),
        DISK,
        MEM,
        inv('SRIOV_NET_VF', 255, { maxUnit: 8 }),
        VCPU,
      ],
    },
    {
      name: 'pci_devices wins over pci_stats; removed and deleted devices are not counted',
      row: { pci_stats: JSON.stringify([{ count: 99, dev_type: 'type-PCI' }]) },
      devices: [
        ...devices('type-PCI', 3, 'allocated'),
        ...devices('type-PCI', 2, 'removed'),
        { dev_type: 'type-PCI', status: 'available', deleted: 12 },
      ],
      want: [DISK, MEM, inv('PCI_DEVICE', 3), VCPU],
    },
    {
      name: 'pci_stats PciDevicePoolList when there is no device table',
      row: {
        pci_stats: JSON.stringify({
          'nova_object.name': 'PciDevicePoolList',
          'nova_object.data': {
            objects: [
              { 'nova_object.data': { count: 4, tags: { dev_type: 'type-VF' }, numa_node: 0 } },
              { 'nova_object.data': { count: 3, tags: { dev_type: 'type-VF' }, numa_node: 1 } },
              { 'nova_object.data': { count: 2, tags: { dev_type: 'type-PCI' } } },
            ],
          },
        }),
      },
      want: [DISK, MEM, inv('PCI_DEVICE', 2), inv('SRIOV_NET_VF', 7), VCPU],
    },
    {
      name: 'NUMA: 2 cells of 4 cores / 8 threads: total combined, max_unit one cell (seed 4d)',
      row: { numa_topology: numa2x4x8 },
      want: [
        DISK,
        MEM,
        inv('NUMA_CORE', 8, { maxUnit: 4 }),
        inv('NUMA_MEMORY_MB', 65536, { maxUnit: 32768 }),
        inv('NUMA_SOCKET', 2, { maxUnit: 1 }),
        inv('NUMA_THREAD', 16, { maxUnit: 8 }),
        VCPU,
      ],
    },
  ])('$name', ({ row, devices: devs, opts, want }) => {
    expect(plan(mapComputeNode({ ...base, ...row }, devs, opts)).inventories).toEqual(want);
  });

  it.each([
    { name: 'vcpus is 0', row: { vcpus: 0 }, resourceClass: 'VCPU', reason: 'vcpus is 0' },
    {
      name: 'memory_mb is 0',
      row: { memory_mb: 0 },
      resourceClass: 'MEMORY_MB',
      reason: 'memory_mb is 0',
    },
    {
      name: 'local_gb is 0',
      row: { local_gb: 0 },
      resourceClass: 'DISK_GB',
      reason: 'local_gb is 0',
    },
  ])('skips one class with its reason when $name', ({ row, resourceClass, reason }) => {
    const p = plan(mapComputeNode({ ...base, ...row }, undefined));
    expect(p.skipped).toEqual([{ resourceClass, reason }]);
    expect(p.inventories.map((i) => i.resourceClass)).not.toContain(resourceClass);
  });

  it('names the shared-storage reason for the skipped DISK_GB', () => {
    const p = plan(mapComputeNode(base, undefined, { sharedStorageHosts: ['cmp7.example.org'] }));
    expect(p.skipped).toEqual([
      { resourceClass: 'DISK_GB', reason: expect.stringMatching(/^shared storage/) },
    ]);
  });

  it('notes defaults, ignored disk_available_least and over-used capacity', () => {
    const p = plan(
      mapComputeNode(
        { ...base, cpu_allocation_ratio: 0, disk_available_least: -20, vcpus: 2, vcpus_used: 40 },
        undefined,
      ),
    );
    expect(p.notes).toEqual([
      "cpu_allocation_ratio unset: using 16 (Nova's initial default)",
      'vcpus_used 40 is above the VCPU capacity 32: instance allocations will not all fit',
      'disk_available_least -20 ignored: max_unit must be at least 1',
    ]);
  });

  it('keeps the row uuid in canonical form, uses hypervisor_hostname as the name', () => {
    const p = plan(
      mapComputeNode({ ...base, uuid: 'A0B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5' }, undefined),
    );
    expect(p).toMatchObject({
      sourceId: '7',
      uuid: 'a0b1c2d3-e4f5-a6b7-c8d9-e0f1a2b3c4d5',
      name: 'cmp7.example.org',
    });
    expect(plan(mapComputeNode({ ...base, hypervisor_hostname: null }, undefined)).name).toBe(
      'cmp7',
    );
  });

  it('accepts numbers as strings and bigints (DECIMAL/BIGINT drivers)', () => {
    const p = plan(
      mapComputeNode({ ...base, vcpus: BigInt(32), cpu_allocation_ratio: '16.0' }, undefined),
    );
    expect(p.inventories).toContainEqual(VCPU);
  });

  it('skips soft-deleted rows', () => {
    expect(mapComputeNode({ ...base, deleted: 7 }, undefined)).toEqual({
      kind: 'skip',
      sourceId: '7',
      name: 'cmp7.example.org',
      reason: 'soft-deleted (deleted = 7)',
    });
  });

  it.each([
    {
      name: 'vcpus NULL',
      row: { vcpus: null },
      reason: 'vcpus must be a non-negative integer (got NULL)',
    },
    {
      name: 'negative memory',
      row: { memory_mb: -1 },
      reason: 'memory_mb must be a non-negative integer (got -1)',
    },
    {
      name: 'a malformed uuid',
      row: { uuid: 'not-a-uuid' },
      reason: "uuid 'not-a-uuid' is not a UUID",
    },
    {
      name: 'a negative ratio',
      row: { ram_allocation_ratio: -1 },
      reason: 'ram_allocation_ratio must be positive (got -1)',
    },
    { name: 'a text vcpus', row: { vcpus: 'many' }, reason: 'vcpus is not a number (many)' },
    {
      name: 'unparsable numa_topology',
      row: { numa_topology: '{cells' },
      reason: 'numa_topology is not valid JSON',
    },
    {
      name: 'pci_stats not a pool list',
      row: { pci_stats: '{"a": 1}' },
      reason: 'pci_stats is neither a PciDevicePoolList nor a list of pools',
    },
  ])('reports a bad row with the reason for $name', ({ row, reason }) => {
    expect(mapComputeNode({ ...base, ...row }, undefined)).toEqual({
      kind: 'bad',
      sourceId: '7',
      name: 'cmp7.example.org',
      reason,
    });
  });

  it('reports reserved above total as a bad row, with the inventory rule', () => {
    const m = mapComputeNode({ ...base, memory_mb: 256 }, undefined, { reservedHostMemoryMb: 512 });
    expect(m).toMatchObject({ kind: 'bad', reason: expect.stringMatching(/MEMORY_MB.*reserved/) });
  });
});
