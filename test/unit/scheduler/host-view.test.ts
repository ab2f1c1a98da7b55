// Unit tests for src/scheduler/host-view.ts: grouping batched rows into one HostView per tree.
import { buildHostViews, type HostRows } from '../../../src/scheduler/state/host-view';

const inventory = (providerUuid: string, resourceClass: string, total: number) => ({
  providerUuid,
  resourceClass,
  total,
  reserved: 0,
  minUnit: 1,
  maxUnit: total,
  stepSize: 1,
  allocationRatio: 2,
});

const rows: HostRows = {
  // Deliberately out of order: a grandchild before its parent, two trees interleaved.
  providers: [
    { uuid: 'vf', name: 'cn1-vf', parentUuid: 'pf', rootUuid: 'cn1' },
    { uuid: 'cn2', name: 'cn2', parentUuid: null, rootUuid: 'cn2', generation: 7 },
    { uuid: 'cn1', name: 'cn1', parentUuid: null, rootUuid: 'cn1' },
    { uuid: 'pf', name: 'cn1-pf', parentUuid: 'cn1', rootUuid: 'cn1' },
  ],
  inventories: [
    inventory('cn1', 'VCPU', 8),
    inventory('vf', 'SRIOV_NET_VF', 4),
    inventory('cn2', 'VCPU', 16),
  ],
  usages: [
    { providerUuid: 'cn1', resourceClass: 'VCPU', used: 3 },
    { providerUuid: 'cn1', resourceClass: 'VCPU', used: 2 },
  ],
  traits: [
    { providerUuid: 'cn1', trait: 'HW_CPU_X86_AVX' },
    { providerUuid: 'vf', trait: 'CUSTOM_PHYSNET' },
  ],
  memberships: [
    { providerUuid: 'cn1', aggregateUuid: 'agg1' },
    { providerUuid: 'pf', aggregateUuid: 'agg2' },
    { providerUuid: 'cn2', aggregateUuid: 'agg1' },
  ],
  aggregates: [{ uuid: 'agg1', name: 'fast' }],
  aggregateMetadata: [
    { aggregateUuid: 'agg1', key: 'ssd', value: 'true' },
    { aggregateUuid: 'agg1', key: 'zone', value: 'a' },
    { aggregateUuid: 'agg2', key: 'numa', value: '0' },
  ],
  allocationRequests: [{ rootUuid: 'cn2', request: { allocations: { cn2: { VCPU: 1 } } } }],
};

describe('buildHostViews', () => {
  const [cn1, cn2] = buildHostViews(rows, ['cn1', 'cn2']);

  it('orders each tree root first, parents before children', () => {
    expect(cn1!.providers.map((p) => p.uuid)).toEqual(['cn1', 'pf', 'vf']);
    expect(cn2!.providers.map((p) => p.uuid)).toEqual(['cn2']);
    expect(cn2!.root.generation).toBe(7);
  });

  it('sums usages into the inventories and computes capacity', () => {
    expect(cn1!.root.inventories['VCPU']).toMatchObject({ used: 5, capacity: 16 });
    expect(cn1!.providers[2]!.inventories['SRIOV_NET_VF']).toMatchObject({ used: 0, capacity: 8 });
  });

  it("gives the host the root's aggregates with metadata, and each provider its own memberships", () => {
    expect(cn1!.aggregates).toEqual([
      { uuid: 'agg1', name: 'fast', metadata: { ssd: 'true', zone: 'a' } },
    ]);
    expect(cn1!.providers.map((p) => p.aggregateUuids)).toEqual([['agg1'], ['agg2'], []]);
    expect(cn1!.providers[2]!.traits).toEqual(['CUSTOM_PHYSNET']);
  });

  it('attaches the allocation requests of each tree', () => {
    expect(cn1!.allocationRequests).toEqual([]);
    expect(cn2!.allocationRequests).toEqual([{ allocations: { cn2: { VCPU: 1 } } }]);
  });

  it('defaults to the order in which roots first appear', () => {
    expect(buildHostViews(rows).map((h) => h.uuid)).toEqual(['cn1', 'cn2']);
  });

  it('throws for a tree without its root row or with a dangling parent', () => {
    expect(() =>
      buildHostViews({ ...rows, providers: rows.providers.filter((p) => p.uuid !== 'cn1') }, [
        'cn1',
      ]),
    ).toThrow('no root provider row for tree cn1');
    expect(() =>
      buildHostViews({ ...rows, providers: rows.providers.filter((p) => p.uuid !== 'pf') }, [
        'cn1',
      ]),
    ).toThrow('parent is not in the tree');
  });
});
