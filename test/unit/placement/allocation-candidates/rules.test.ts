// Table tests, one block per Placement 1.39 rule the engine implements (upstream semantics from
// research_context.py and allocation_candidate.py; data built with the fixture builder).
import { type FixtureSpec, type InvSpec, loadFixture, type ProviderSpec } from './fixture-builder';
import { canonical, get } from './helpers';

const inv = (
  total: number,
  o: Partial<{ reserved: number; min: number; max: number; step: number; ratio: number }> = {},
): InvSpec => [total, o.reserved ?? 0, o.min ?? 1, o.max ?? total, o.step ?? 1, o.ratio ?? 1];
const world = (providers: ProviderSpec[], usage: FixtureSpec['usage'] = []) =>
  loadFixture({
    customClasses: [],
    customTraits: ['CUSTOM_A', 'CUSTOM_B', 'CUSTOM_C'],
    providers,
    usage,
  });
const count = (fx: ReturnType<typeof world>, qs: string) => get(fx, qs).allocationRequests.length;
/** Provider names used by each allocation request, as 'a+b' strings. */
const shapes = (fx: ReturnType<typeof world>, qs: string) =>
  get(fx, qs).allocationRequests.map((ar) =>
    ar.allocations
      .map((a) => a.providerUuid.replace('rp-', ''))
      .sort()
      .join('+'),
  );

describe('capacity, min_unit, max_unit, step_size', () => {
  const fx = world(
    [
      ['cap', 'cap', null, [], [], { VCPU: inv(4, { reserved: 1, ratio: 2 }) }],
      ['unit', 'unit', null, [], [], { DISK_GB: inv(100, { min: 10, max: 40, step: 5 }) }],
    ],
    [['cap', 'VCPU', 2]],
  );
  it.each([
    ['fits when used + amount <= floor((total - reserved) * ratio)', 'resources=VCPU:4', 1],
    ['misses when used + amount > capacity', 'resources=VCPU:5', 0],
    ['misses below min_unit', 'resources=DISK_GB:5', 0],
    ['misses above max_unit', 'resources=DISK_GB:45', 0],
    ['misses off the step', 'resources=DISK_GB:12', 0],
    ['fits on the step within limits', 'resources=DISK_GB:15', 1],
    ['sums groups landing on one provider', 'resources=VCPU:2&resources1=VCPU:2', 1],
    ['misses when the sum exceeds capacity', 'resources=VCPU:2&resources1=VCPU:3', 0],
    ['misses when the sum exceeds max_unit', 'resources=DISK_GB:25&resources1=DISK_GB:20', 0],
  ])('%s', (_name, qs, want) => {
    expect(count(fx, qs)).toBe(want);
  });
});

describe('traits', () => {
  const fx = world([
    ['root', 'root', null, [], ['CUSTOM_A'], { VCPU: inv(8) }],
    ['child', 'child', 'root', [], ['CUSTOM_B'], { SRIOV_NET_VF: inv(8) }],
  ]);
  it.each([
    [
      'unsuffixed traits are met by the providers used, collectively',
      'resources=VCPU:1,SRIOV_NET_VF:1&required=CUSTOM_A,CUSTOM_B',
      1,
    ],
    [
      'a trait of an unused provider does not count',
      'resources=SRIOV_NET_VF:1&required=CUSTOM_A',
      0,
    ],
    [
      'a forbidden trait on a used provider excludes',
      'resources=VCPU:1,SRIOV_NET_VF:1&required=!CUSTOM_B',
      0,
    ],
    [
      'a forbidden trait on an unused provider does not',
      'resources=SRIOV_NET_VF:1&required=!CUSTOM_A',
      1,
    ],
    [
      'any-of is met by one of its traits',
      'resources=SRIOV_NET_VF:1&required=in:CUSTOM_C,CUSTOM_B',
      1,
    ],
    [
      'repeated required are ANDed',
      'resources=SRIOV_NET_VF:1&required=in:CUSTOM_C,CUSTOM_B&required=CUSTOM_C',
      0,
    ],
    [
      'a suffixed group needs the traits on its own provider',
      'resources1=SRIOV_NET_VF:1&required1=CUSTOM_A',
      0,
    ],
    [
      'root_required looks at the root even when it gives nothing',
      'resources=SRIOV_NET_VF:1&root_required=CUSTOM_A',
      1,
    ],
    ['root_required=! excludes the tree', 'resources=SRIOV_NET_VF:1&root_required=!CUSTOM_A', 0],
    [
      'root_required ignores traits of non-roots',
      'resources=SRIOV_NET_VF:1&root_required=CUSTOM_B',
      0,
    ],
  ])('%s', (_name, qs, want) => {
    expect(count(fx, qs)).toBe(want);
  });
});

describe('member_of', () => {
  const fx = world([
    ['root', 'root', null, ['A'], [], { VCPU: inv(8) }],
    ['child', 'child', 'root', ['B'], [], { SRIOV_NET_VF: inv(8) }],
    ['flat', 'flat', null, ['B'], [], { SRIOV_NET_VF: inv(8) }],
  ]);
  it.each([
    [
      'the root aggregate spans the tree for the unsuffixed group',
      'resources=SRIOV_NET_VF:1&member_of=agg-A',
      ['child'],
    ],
    ['suffixed groups use their own aggregates', 'resources1=SRIOV_NET_VF:1&member_of1=agg-A', []],
    ['own aggregate', 'resources=SRIOV_NET_VF:1&member_of=agg-B', ['child', 'flat']],
    [
      'every term must hold on one provider (own or root)',
      'resources=SRIOV_NET_VF:1&member_of=agg-A&member_of=agg-B',
      [],
    ],
    ['in: is any-of', 'resources1=SRIOV_NET_VF:1&member_of1=in:agg-A,agg-B', ['child', 'flat']],
    [
      'a forbidden aggregate on the root excludes the tree',
      'resources=SRIOV_NET_VF:1&member_of=!agg-A',
      ['flat'],
    ],
    [
      'a suffixed group is excluded by its own aggregates only',
      'resources1=SRIOV_NET_VF:1&member_of1=!agg-A',
      ['child', 'flat'],
    ],
  ])('%s', (_name, qs, want) => {
    expect(shapes(fx, qs)).toEqual(want);
  });
});

describe('group_policy, same_subtree and resourceless groups', () => {
  const fx = world([
    ['cn', 'cn', null, [], [], { VCPU: inv(8) }],
    ['numa0', 'numa0', 'cn', [], ['HW_NUMA_ROOT'], { MEMORY_MB: inv(8) }],
    ['pf0', 'pf0', 'numa0', [], [], { SRIOV_NET_VF: inv(4) }],
    ['numa1', 'numa1', 'cn', [], ['HW_NUMA_ROOT'], { MEMORY_MB: inv(8) }],
    ['pf1', 'pf1', 'numa1', [], [], { SRIOV_NET_VF: inv(4) }],
  ]);
  it.each([
    [
      'none lets groups share a provider',
      'resources1=SRIOV_NET_VF:1&resources2=SRIOV_NET_VF:1&group_policy=none',
      4,
    ],
    [
      'isolate needs distinct providers',
      'resources1=SRIOV_NET_VF:1&resources2=SRIOV_NET_VF:1&group_policy=isolate',
      2,
    ],
    [
      'isolate does not involve the unsuffixed group',
      'resources=SRIOV_NET_VF:1&resources1=SRIOV_NET_VF:1',
      4,
    ],
    [
      'same_subtree keeps providers under one of them',
      'resources_M=MEMORY_MB:1&resources_N=SRIOV_NET_VF:1&same_subtree=_M,_N&group_policy=none',
      2,
    ],
    [
      'without same_subtree every pairing counts',
      'resources_M=MEMORY_MB:1&resources_N=SRIOV_NET_VF:1&group_policy=none',
      4,
    ],
    [
      'a resourceless group anchors a subtree',
      'required_NUMA=HW_NUMA_ROOT&resources_N=SRIOV_NET_VF:1&same_subtree=_NUMA,_N&group_policy=none',
      2,
    ],
    [
      'a resourceless group with only forbidden traits matches nothing (upstream quirk)',
      'required_X=!CUSTOM_A&resources_N=SRIOV_NET_VF:1&same_subtree=_X,_N&group_policy=none',
      0,
    ],
  ])('%s', (_name, qs, want) => {
    expect(count(fx, qs)).toBe(want);
  });

  it('maps a resourceless group to its provider without allocating from it', () => {
    const r = get(
      fx,
      'required_NUMA=HW_NUMA_ROOT&resources_N=SRIOV_NET_VF:1&same_subtree=_NUMA,_N&group_policy=none',
    );
    expect(r.allocationRequests[0]).toEqual({
      allocations: [{ providerUuid: fx.uuid('pf0'), resources: { SRIOV_NET_VF: 1 } }],
      mappings: { _NUMA: [fx.uuid('numa0')], _N: [fx.uuid('pf0')] },
    });
  });
});

describe('sharing providers', () => {
  const fx = world([
    ['cn1', 'cn1', null, ['S'], [], { VCPU: inv(8) }],
    ['cn2', 'cn2', null, ['S'], [], { VCPU: inv(8) }],
    ['ss', 'ss', null, ['S'], ['MISC_SHARES_VIA_AGGREGATE'], { DISK_GB: inv(100) }],
    ['lone', 'lone', null, [], ['MISC_SHARES_VIA_AGGREGATE'], { DISK_GB: inv(100) }],
  ]);
  it('serve every tree of their aggregates', () => {
    expect(shapes(fx, 'resources=VCPU:1,DISK_GB:1')).toEqual(['cn1+ss', 'cn2+ss']);
  });
  it('return a sharing-only candidate once although several trees anchor it', () => {
    expect(shapes(fx, 'resources=DISK_GB:1')).toEqual(['ss', 'lone']);
  });
  it('serve suffixed groups of every anchored tree', () => {
    expect(shapes(fx, 'resources1=VCPU:1&resources2=DISK_GB:1&group_policy=isolate')).toEqual([
      'cn1+ss',
      'cn2+ss',
    ]);
  });
  it('anchor an unsuffixed sharing-only part at every tree (upstream keeps one arbitrary anchor)', () => {
    expect(shapes(fx, 'resources=DISK_GB:1&resources1=VCPU:1')).toEqual(['cn1+ss', 'cn2+ss']);
  });
  it('without an aggregate serve only their own tree', () => {
    expect(shapes(fx, 'resources=VCPU:1,DISK_GB:1&member_of=!agg-S')).toEqual([]);
  });
});

describe('limit, order and randomize', () => {
  const hosts: ProviderSpec[] = [5, 3, 9, 1, 7].map((n) => [
    `h${n}`,
    `h${n}`,
    null,
    [],
    [],
    { VCPU: inv(4) },
  ]);
  const fx = world(hosts);
  it('orders candidates by anchor root provider id', () => {
    // Provider ids follow spec order: h5=1, h3=2, h9=3, h1=4, h7=5.
    expect(shapes(fx, 'resources=VCPU:1')).toEqual(['h5', 'h3', 'h9', 'h1', 'h7']);
  });
  it('limit keeps the first candidates', () => {
    expect(shapes(fx, 'resources=VCPU:1&limit=2')).toEqual(['h5', 'h3']);
  });
  it('randomize returns a uniform sample of the same set, in random order', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const all = get(fx, 'resources=VCPU:1').allocationRequests.map(canonical);
    const picks = new Map<string, number>();
    const orders = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const r = get(fx, 'resources=VCPU:1&limit=2&randomize=true', { random }).allocationRequests;
      expect(r).toHaveLength(2);
      for (const ar of r) {
        picks.set(canonical(ar), (picks.get(canonical(ar)) ?? 0) + 1);
      }
      orders.add(
        get(fx, 'resources=VCPU:1&randomize=true', { random })
          .allocationRequests.map(canonical)
          .join(),
      );
    }
    expect(new Set(picks.keys())).toEqual(new Set(all));
    // Each of 5 hosts is picked 2/5 of the time: 80 of 200, far from 0 or 200.
    for (const n of picks.values()) {
      expect(n).toBeGreaterThan(40);
      expect(n).toBeLessThan(120);
    }
    expect(orders.size).toBeGreaterThan(10);
  });
});
