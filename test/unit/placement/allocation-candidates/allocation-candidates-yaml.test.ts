// Port of placement's gabbits/allocation-candidates.yaml (SharedStorageFixture) to the engine:
// same data, same queries, same expectations (format-only and microversion-only tests omitted).

import { loadFixture } from './fixture-builder';
import { SHARED_STORAGE } from './gabbit-fixtures';
import { amountsOf, get, resourcesOf, summaryOf, summaryResources } from './helpers';

const fx = loadFixture(SHARED_STORAGE);
const E = fx.env;

describe('allocation-candidates.yaml', () => {
  it('get bad resource class', () => {
    expect(() => get(fx, 'resources=MCPU:99')).toThrow(
      'Invalid resource class in resources parameter: No such resource class MCPU.',
    );
  });

  it('get allocation candidates no allocations yet', () => {
    const r = get(fx, 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100');
    expect(r.allocationRequests).toHaveLength(5);
    expect(resourcesOf(r, E['CN1_UUID']!)).toEqual([
      { VCPU: 1, MEMORY_MB: 1024 },
      { VCPU: 1, MEMORY_MB: 1024 },
    ]);
    expect(amountsOf(r, E['CN2_UUID']!, 'VCPU')).toEqual([1, 1, 1]);
    expect(amountsOf(r, E['CN2_UUID']!, 'MEMORY_MB')).toEqual([1024, 1024, 1024]);
    expect(amountsOf(r, E['CN2_UUID']!, 'DISK_GB')).toEqual([100]);
    expect(amountsOf(r, E['SS_UUID']!, 'DISK_GB')).toEqual([100, 100]);
    expect(amountsOf(r, E['SS2_UUID']!, 'DISK_GB')).toEqual([100, 100]);
    // At 1.29+ summaries cover whole trees: cn1 (5 providers) + cn2 (5) + ss + ss2.
    expect(r.providerSummaries).toHaveLength(12);
    expect(summaryResources(r, E['CN1_UUID']!)).toEqual({
      VCPU: { capacity: 384, used: 0 },
      MEMORY_MB: { capacity: 196608, used: 0 },
    });
    expect(summaryResources(r, E['CN2_UUID']!)['DISK_GB']).toEqual({ capacity: 1900, used: 0 });
    expect(summaryResources(r, E['SS_UUID']!)).toEqual({ DISK_GB: { capacity: 1900, used: 0 } });
    expect(summaryResources(r, E['SS2_UUID']!)).toEqual({ DISK_GB: { capacity: 1900, used: 0 } });
  });

  it('get allocation candidates with limit', () => {
    const r = get(fx, 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100&limit=1');
    expect(r.allocationRequests).toHaveLength(1);
  });

  it('get allocation candidates with multiple limits picks the first one', () => {
    const r = get(fx, 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100&limit=10&limit=1');
    expect(r.allocationRequests).toHaveLength(5);
  });

  it('get allocation candidates with invalid trait', () => {
    expect(() =>
      get(fx, 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100&required=INVALID_TRAIT'),
    ).toThrow('No such trait(s)');
  });

  it('get allocation candidates with required trait', () => {
    const r = get(fx, 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100&required=HW_CPU_X86_SSE');
    expect(r.allocationRequests).toHaveLength(2);
    // 1.17 counted 3 summaries (cn1, ss, ss2); whole trees at 1.29+: cn1 has 5 providers.
    expect(new Set(r.providerSummaries.map((s) => s.rootProviderUuid))).toEqual(
      new Set([E['CN1_UUID'], E['SS_UUID'], E['SS2_UUID']]),
    );
    expect(summaryOf(r, E['CN1_UUID']!)!.traits).toEqual(['HW_CPU_X86_SSE', 'HW_CPU_X86_SSE2']);
  });

  it('get allocation candidates with forbidden trait', () => {
    const r = get(fx, 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100&required=!HW_CPU_X86_SSE');
    expect(r.allocationRequests).toHaveLength(3);
    expect(amountsOf(r, E['CN2_UUID']!, 'VCPU')).toEqual([1, 1, 1]);
    expect(amountsOf(r, E['CN2_UUID']!, 'DISK_GB')).toEqual([100]);
    expect(amountsOf(r, E['SS_UUID']!, 'DISK_GB')).toEqual([100]);
    expect(amountsOf(r, E['SS2_UUID']!, 'DISK_GB')).toEqual([100]);
  });

  it('get allocation candidates with multiple required traits', () => {
    const r = get(
      fx,
      'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100&required=HW_CPU_X86_SSE,HW_CPU_X86_SSE2',
    );
    expect(r.allocationRequests).toHaveLength(2);
  });

  it('get allocation candidates with required trait and no matching', () => {
    const r = get(fx, 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:100&required=HW_CPU_X86_SSE3');
    expect(r.allocationRequests).toHaveLength(0);
    expect(r.providerSummaries).toHaveLength(0);
  });

  it('get allocation candidates with root and parent uuid', () => {
    const r = get(fx, 'resources=VCPU:1');
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(10);
    expect(summaryOf(r, E['CN1_UUID']!)!.parentProviderUuid).toBeNull();
    expect(summaryOf(r, E['CN1_UUID']!)!.rootProviderUuid).toBe(E['CN1_UUID']);
    expect(summaryOf(r, E['NUMA1_1_UUID']!)!.parentProviderUuid).toBe(E['CN1_UUID']);
    expect(summaryOf(r, E['PF1_1_UUID']!)!.parentProviderUuid).toBe(E['NUMA1_1_UUID']);
    expect(summaryOf(r, E['PF1_2_UUID']!)!.rootProviderUuid).toBe(E['CN1_UUID']);
  });

  it('get allocation candidates only nested provider old microversion', () => {
    const r = get(fx, 'resources=SRIOV_NET_VF:4', { nestedAware: false });
    expect(r.allocationRequests).toHaveLength(4);
    expect(r.providerSummaries).toHaveLength(4);
  });

  it('get allocation candidates only nested provider new microversion', () => {
    const r = get(fx, 'resources=SRIOV_NET_VF:4');
    expect(r.allocationRequests).toHaveLength(4);
    expect(r.providerSummaries).toHaveLength(10);
  });

  it('get allocation candidates root and nested old microversion', () => {
    const r = get(fx, 'resources=VCPU:1,SRIOV_NET_VF:4', { nestedAware: false });
    expect(r.allocationRequests).toHaveLength(0);
    expect(r.providerSummaries).toHaveLength(0);
  });

  it('get allocation candidates root and nested new microversion', () => {
    const r = get(fx, 'resources=VCPU:1,SRIOV_NET_VF:4');
    expect(r.allocationRequests).toHaveLength(4);
    expect(r.providerSummaries).toHaveLength(10);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['PF1_1_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
    expect(amountsOf(r, E['PF1_2_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
    expect(amountsOf(r, E['CN2_UUID']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['PF2_1_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
    expect(amountsOf(r, E['PF2_2_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
  });

  it('get allocation candidates nested limit', () => {
    const r = get(fx, 'resources=VCPU:1,SRIOV_NET_VF:4&limit=1');
    expect(r.allocationRequests).toHaveLength(1);
    expect(r.allocationRequests[0]!.allocations).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(5);
  });

  it('get allocation candidates shared and nested old microversion', () => {
    const r = get(fx, 'resources=DISK_GB:10,SRIOV_NET_VF:4', { nestedAware: false });
    expect(r.allocationRequests).toHaveLength(8);
    expect(r.providerSummaries).toHaveLength(6);
  });

  it('get allocation candidates in tree with root', () => {
    const r = get(fx, "resources=VCPU:1,SRIOV_NET_VF:4&in_tree=$ENVIRON['CN1_UUID']");
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(5);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['PF1_1_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
    expect(amountsOf(r, E['PF1_2_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
  });

  it('get allocation candidates in tree with child', () => {
    const r = get(fx, "resources=VCPU:1,SRIOV_NET_VF:4&in_tree=$ENVIRON['PF1_2_UUID']");
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(5);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1, 1]);
  });

  it('get allocation candidates in tree with shared 1', () => {
    const r = get(fx, "resources=VCPU:1,DISK_GB:10&in_tree=$ENVIRON['CN1_UUID']");
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('get allocation candidates in tree with shared 2', () => {
    const r = get(fx, "resources=VCPU:1,DISK_GB:10&in_tree=$ENVIRON['CN2_UUID']");
    expect(r.allocationRequests).toHaveLength(1);
    expect(resourcesOf(r, E['CN2_UUID']!)).toEqual([{ VCPU: 1, DISK_GB: 10 }]);
  });

  it('get allocation candidates in tree with shared 3', () => {
    const r = get(fx, "resources=VCPU:1,DISK_GB:10&in_tree=$ENVIRON['SS_UUID']");
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('get allocation candidates in_tree root granular root resource', () => {
    const r = get(fx, "resources1=VCPU:1&in_tree1=$ENVIRON['CN1_UUID']");
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1]);
  });

  it('get allocation candidates in_tree child granular root resource', () => {
    const r = get(fx, "resources1=VCPU:1&in_tree1=$ENVIRON['PF1_1_UUID']");
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1]);
  });

  it('get allocation candidates in_tree root granular child resource', () => {
    const r = get(fx, "resources1=SRIOV_NET_VF:4&in_tree1=$ENVIRON['CN1_UUID']");
    expect(r.allocationRequests).toHaveLength(2);
    expect(amountsOf(r, E['PF1_1_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
    expect(amountsOf(r, E['PF1_2_UUID']!, 'SRIOV_NET_VF')).toEqual([4]);
  });

  it('get allocation candidates in_tree child granular child resource', () => {
    const r = get(fx, "resources1=SRIOV_NET_VF:4&in_tree1=$ENVIRON['PF1_1_UUID']");
    expect(r.allocationRequests).toHaveLength(2);
  });

  it('get allocation candidates in tree granular local storage nonexistent', () => {
    const r = get(fx, "resources=VCPU:1&resources1=DISK_GB:10&in_tree1=$ENVIRON['CN1_UUID']");
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('get allocation candidates in tree granular local storage exists', () => {
    const r = get(fx, "resources=VCPU:1&resources1=DISK_GB:10&in_tree1=$ENVIRON['CN2_UUID']");
    expect(r.allocationRequests).toHaveLength(1);
    expect(resourcesOf(r, E['CN2_UUID']!)).toEqual([{ VCPU: 1, DISK_GB: 10 }]);
  });

  it('get allocation candidates in tree granular shared storage', () => {
    const r = get(fx, "resources=VCPU:1&resources1=DISK_GB:10&in_tree1=$ENVIRON['SS_UUID']");
    expect(r.allocationRequests).toHaveLength(2);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['CN2_UUID']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['SS_UUID']!, 'DISK_GB')).toEqual([10, 10]);
  });

  it('get allocation candidates in tree unnumbered compute granular disk from shared storage only', () => {
    const r = get(fx, "resources=VCPU:1&in_tree=$ENVIRON['CN1_UUID']&resources1=DISK_GB:10");
    expect(r.allocationRequests).toHaveLength(2);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['SS_UUID']!, 'DISK_GB')).toEqual([10]);
    expect(amountsOf(r, E['SS2_UUID']!, 'DISK_GB')).toEqual([10]);
  });

  it('get allocation candidates in tree unnumbered compute granular disk from shared or local', () => {
    const r = get(fx, "resources=VCPU:1&in_tree=$ENVIRON['CN2_UUID']&resources1=DISK_GB:10");
    expect(r.allocationRequests).toHaveLength(3);
    expect(amountsOf(r, E['CN2_UUID']!, 'VCPU')).toEqual([1, 1, 1]);
    expect(amountsOf(r, E['CN2_UUID']!, 'DISK_GB')).toEqual([10]);
    expect(amountsOf(r, E['SS_UUID']!, 'DISK_GB')).toEqual([10]);
    expect(amountsOf(r, E['SS2_UUID']!, 'DISK_GB')).toEqual([10]);
  });

  it('get allocation candidates in tree granular compute and granular shared storage', () => {
    const r = get(
      fx,
      "resources1=VCPU:1&in_tree1=$ENVIRON['CN1_UUID']&resources2=DISK_GB:10&in_tree2=$ENVIRON['SS_UUID']&group_policy=none",
    );
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, E['CN1_UUID']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['SS_UUID']!, 'DISK_GB')).toEqual([10]);
  });
});
