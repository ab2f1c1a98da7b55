// Ports of placement's gabbits/allocation-candidates-mappings-sharing.yaml (GranularFixture) and
// allocation-candidates-mappings-numa.yaml (NUMANetworkFixture) to the engine.

import { loadFixture } from './fixture-builder';
import { GRANULAR } from './gabbit-fixtures';
import { NUMA_NETWORK } from './gabbit-fixtures-network';
import { get, resourcesOf } from './helpers';

describe('allocation-candidates-mappings-sharing.yaml', () => {
  const fx = loadFixture(GRANULAR);
  const E = fx.env;

  it('simple mapping non granular', () => {
    const r = get(fx, 'resources=VCPU:1&required=HW_CPU_X86_SSE');
    expect(r.allocationRequests).toHaveLength(1);
    expect(r.providerSummaries).toHaveLength(1);
    expect(resourcesOf(r, E['CN_MIDDLE']!)).toEqual([{ VCPU: 1 }]);
    expect(r.allocationRequests[0]!.mappings).toEqual({ '': [E['CN_MIDDLE']] });
  });

  it('simple mapping with shared', () => {
    const r = get(fx, 'resources=VCPU:1,DISK_GB:1&required=HW_CPU_X86_SSE');
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(3);
    for (const ar of r.allocationRequests) {
      expect(Object.keys(ar.mappings)).toEqual(['']);
      expect(ar.mappings['']).toHaveLength(2);
      expect(ar.allocations.find((a) => a.providerUuid === E['CN_MIDDLE'])!.resources).toEqual({
        VCPU: 1,
      });
    }
  });

  it('group mapping with shared', () => {
    const r = get(
      fx,
      'resources=VCPU:1&resources_DISK_A=DISK_GB:1&resources_DISK_B=DISK_GB:1&required=HW_CPU_X86_SSE&group_policy=isolate',
    );
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(3);
    const disks = [E['SHR_DISK_1'], E['SHR_DISK_2']];
    for (const ar of r.allocationRequests) {
      expect(Object.keys(ar.mappings)).toHaveLength(3);
      expect(ar.mappings['']).toEqual([E['CN_MIDDLE']]);
      expect(disks).toContain(ar.mappings['_DISK_A']![0]);
      expect(disks).toContain(ar.mappings['_DISK_B']![0]);
    }
  });
});

describe('allocation-candidates-mappings-numa.yaml', () => {
  const fx = loadFixture(NUMA_NETWORK);
  const E = fx.env;
  const numas = [E['NUMA0_UUID'], E['NUMA1_UUID']];

  it('simple mapping non granular', () => {
    const r = get(fx, 'resources=VCPU:1');
    expect(r.allocationRequests).toHaveLength(3);
    expect(r.providerSummaries).toHaveLength(23);
    expect(r.allocationRequests[0]!.mappings['']).toHaveLength(1);
    expect([E['CN2_UUID'], ...numas]).toContain(r.allocationRequests[0]!.mappings['']![0]);
  });

  it('simple isolated mapping', () => {
    const r = get(fx, 'resources_LEFT=VCPU:1&resources_RIGHT=VCPU:1&group_policy=isolate');
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(12);
    const m = r.allocationRequests[0]!.mappings;
    expect(Object.keys(m)).toHaveLength(2);
    expect(numas).toContain(m['_LEFT']![0]);
    expect(numas).toContain(m['_RIGHT']![0]);
  });

  it('granular plus not granular', () => {
    const r = get(
      fx,
      'required_NET1=CUSTOM_PHYSNET1&resources_NET1=NET_BW_EGR_KILOBIT_PER_SEC:10&required_NET2=CUSTOM_PHYSNET2' +
        '&resources_NET2=NET_BW_EGR_KILOBIT_PER_SEC:20&resources=VCPU:1&group_policy=isolate',
    );
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(12);
    const m = r.allocationRequests[0]!.mappings;
    expect(Object.keys(m)).toHaveLength(3);
    expect(m['']).toHaveLength(1);
    expect(numas).toContain(m['']![0]);
    expect(m['_NET1']).toEqual([E['ESN1_UUID']]);
    expect(m['_NET2']).toEqual([E['ESN2_UUID']]);
  });

  it('non isolated shows both request groups for the request that combines the resources', () => {
    const r = get(
      fx,
      'resources_BWA=NET_BW_EGR_KILOBIT_PER_SEC:10&required_BWA=CUSTOM_PHYSNET1' +
        '&resources_BWB=NET_BW_EGR_KILOBIT_PER_SEC:20&required_BWB=CUSTOM_PHYSNET1&group_policy=none',
    );
    expect(r.allocationRequests).toHaveLength(1);
    expect(r.providerSummaries).toHaveLength(12);
    expect(r.allocationRequests[0]!.mappings).toEqual({
      _BWA: [E['ESN1_UUID']],
      _BWB: [E['ESN1_UUID']],
    });
  });

  it('granular two resources on one suffix', () => {
    const r = get(
      fx,
      'required_NET1=CUSTOM_PHYSNET1&resources_NET1=NET_BW_EGR_KILOBIT_PER_SEC:10&required_NET2=CUSTOM_PHYSNET2' +
        '&resources_NET2=NET_BW_EGR_KILOBIT_PER_SEC:20&resources_COMPUTE=VCPU:1,MEMORY_MB:1024&group_policy=isolate',
    );
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(12);
    const m = r.allocationRequests[0]!.mappings;
    expect(Object.keys(m)).toHaveLength(3);
    expect(numas).toContain(m['_COMPUTE']![0]);
    expect(m['_NET1']).toEqual([E['ESN1_UUID']]);
    expect(m['_NET2']).toEqual([E['ESN2_UUID']]);
  });
});
