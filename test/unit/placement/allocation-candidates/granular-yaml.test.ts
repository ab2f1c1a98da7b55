// Port of placement's gabbits/granular.yaml (GranularFixture) to the engine: same data, queries
// and expectations (schema/microversion-only error tests omitted; they belong to the REST layer).

import { loadFixture } from './fixture-builder';
import { GRANULAR } from './gabbit-fixtures';
import { amountsOf, get, resourcesOf, summaryResources } from './helpers';

const fx = loadFixture(GRANULAR);
const E = fx.env;
const LEFT = E['CN_LEFT']!;
const MIDDLE = E['CN_MIDDLE']!;
const RIGHT = E['CN_RIGHT']!;
const DISK1 = E['SHR_DISK_1']!;
const DISK2 = E['SHR_DISK_2']!;
const NET = E['SHR_NET']!;

describe('granular.yaml', () => {
  it('different groups hit with group_policy=none', () => {
    const r = get(fx, 'resources1=VCPU:1&resources2=MEMORY_MB:1024&group_policy=none');
    expect(r.allocationRequests).toHaveLength(3);
    expect(r.providerSummaries).toHaveLength(3);
    for (const cn of [LEFT, MIDDLE, RIGHT]) {
      expect(resourcesOf(r, cn)).toEqual([{ VCPU: 1, MEMORY_MB: 1024 }]);
      expect(summaryResources(r, cn)['VCPU']).toEqual({ capacity: 8, used: 0 });
      expect(summaryResources(r, cn)['MEMORY_MB']).toEqual({ capacity: 4096, used: 0 });
    }
  });

  it('different groups miss with group_policy=isolate', () => {
    const r = get(fx, 'resources1=VCPU:1&resources2=MEMORY_MB:1024&group_policy=isolate');
    expect(r.allocationRequests).toHaveLength(0);
    expect(r.providerSummaries).toHaveLength(0);
  });

  it('multiple group_policy picks the first one', () => {
    const r = get(
      fx,
      'resources1=VCPU:1&resources2=MEMORY_MB:1024&group_policy=isolate&group_policy=none',
    );
    expect(r.allocationRequests).toHaveLength(0);
  });

  it('resources combine', () => {
    const r = get(
      fx,
      'resources=VCPU:3,MEMORY_MB:512&resources1=VCPU:1,MEMORY_MB:1024&resources2=VCPU:2&group_policy=none',
    );
    expect(r.allocationRequests).toHaveLength(3);
    expect(r.providerSummaries).toHaveLength(3);
    for (const cn of [LEFT, MIDDLE, RIGHT]) {
      expect(resourcesOf(r, cn)).toEqual([{ VCPU: 6, MEMORY_MB: 1536 }]);
    }
  });

  it('group policy not required with only one numbered group', () => {
    const r = get(fx, 'resources=VCPU:1&resources1=MEMORY_MB:2048');
    expect(r.allocationRequests).toHaveLength(3);
    expect(r.providerSummaries).toHaveLength(3);
  });

  it('disk sharing isolated', () => {
    const r = get(
      fx,
      'resources1=VCPU:1,MEMORY_MB:1024&resources2=DISK_GB:100&group_policy=isolate',
    );
    expect(r.allocationRequests).toHaveLength(5);
    expect(r.providerSummaries).toHaveLength(5);
  });

  it('disk sharing non-isolated', () => {
    const r = get(fx, 'resources1=VCPU:1,MEMORY_MB:1024&resources2=DISK_GB:100&group_policy=none');
    expect(r.allocationRequests).toHaveLength(7);
    expect(r.providerSummaries).toHaveLength(5);
  });

  it('disk alone', () => {
    const r = get(fx, 'resources1=DISK_GB:800');
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(2);
    expect(amountsOf(r, DISK1, 'DISK_GB')).toEqual([800]);
    expect(amountsOf(r, DISK2, 'DISK_GB')).toEqual([800]);
  });

  it('disk alone non-granular', () => {
    const r = get(fx, 'resources=DISK_GB:800');
    expect(r.allocationRequests).toHaveLength(2);
    expect(r.providerSummaries).toHaveLength(2);
    expect(amountsOf(r, DISK1, 'DISK_GB')).toEqual([800]);
    expect(amountsOf(r, DISK2, 'DISK_GB')).toEqual([800]);
  });

  it('isolated ssd', () => {
    const r = get(
      fx,
      'resources1=VCPU:1,MEMORY_MB:1024&resources2=DISK_GB:100&required2=CUSTOM_DISK_SSD&group_policy=isolate',
    );
    expect(r.allocationRequests).toHaveLength(2);
    expect(resourcesOf(r, LEFT)).toEqual([{ VCPU: 1, MEMORY_MB: 1024 }]);
    expect(resourcesOf(r, MIDDLE)).toEqual([{ VCPU: 1, MEMORY_MB: 1024 }]);
    expect(amountsOf(r, DISK1, 'DISK_GB')).toEqual([100, 100]);
    expect(r.providerSummaries).toHaveLength(3);
    expect(summaryResources(r, LEFT)).toEqual({
      VCPU: { capacity: 8, used: 0 },
      MEMORY_MB: { capacity: 4096, used: 0 },
      DISK_GB: { capacity: 500, used: 0 },
      VGPU: { capacity: 8, used: 0 },
      SRIOV_NET_VF: { capacity: 8, used: 0 },
      CUSTOM_NET_MBPS: { capacity: 4000, used: 0 },
    });
    expect(summaryResources(r, DISK1)).toEqual({ DISK_GB: { capacity: 1000, used: 0 } });
  });

  it('no isolation, forbid ssd', () => {
    const r = get(
      fx,
      'resources1=VCPU:1&resources2=DISK_GB:100&required2=!CUSTOM_DISK_SSD&group_policy=none',
    );
    expect(r.allocationRequests).toHaveLength(4);
    expect(amountsOf(r, LEFT, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, MIDDLE, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, RIGHT, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, DISK2, 'DISK_GB')).toEqual([100, 100, 100]);
    expect(r.providerSummaries).toHaveLength(4);
  });

  it('member_of filters', () => {
    const r = get(
      fx,
      "resources1=VCPU:1&resources2=DISK_GB:100&member_of2=$ENVIRON['AGGC']&group_policy=none",
    );
    expect(r.allocationRequests).toHaveLength(1);
    expect(r.allocationRequests[0]!.allocations).toEqual([
      { providerUuid: RIGHT, resources: { VCPU: 1, DISK_GB: 100 } },
    ]);
    expect(r.providerSummaries).toHaveLength(1);
    expect(summaryResources(r, RIGHT)['DISK_GB']).toEqual({ capacity: 500, used: 0 });
  });

  it('required, forbidden, member_of in', () => {
    const r = get(
      fx,
      "resources1=VCPU:1&required1=!HW_CPU_X86_SSE&resources2=DISK_GB:100&required2=CUSTOM_DISK_SSD&member_of2=in:$ENVIRON['AGGA'],$ENVIRON['AGGC']&group_policy=none",
    );
    expect(r.allocationRequests).toHaveLength(2);
    expect(amountsOf(r, LEFT, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, RIGHT, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, DISK1, 'DISK_GB')).toEqual([100]);
    expect(r.providerSummaries).toHaveLength(3);
  });

  it('required, forbidden, member_of in long suffix', () => {
    const r = get(
      fx,
      "resources_compute=VCPU:1&required_compute=!HW_CPU_X86_SSE&resources_disk=DISK_GB:100&required_disk=CUSTOM_DISK_SSD&member_of_disk=in:$ENVIRON['AGGA'],$ENVIRON['AGGC']&group_policy=none",
    );
    expect(r.allocationRequests).toHaveLength(2);
    expect(amountsOf(r, DISK1, 'DISK_GB')).toEqual([100]);
    expect(r.providerSummaries).toHaveLength(3);
  });

  it('multiple member_of', () => {
    const r = get(
      fx,
      "resources1=VCPU:1&resources2=DISK_GB:100&member_of2=in:$ENVIRON['AGGB'],$ENVIRON['AGGC']&member_of2=$ENVIRON['AGGA']&group_policy=isolate",
    );
    expect(r.allocationRequests).toHaveLength(3);
    for (const cn of [LEFT, MIDDLE, RIGHT]) {
      expect(amountsOf(r, cn, 'VCPU')).toEqual([1]);
    }
    expect(amountsOf(r, DISK2, 'DISK_GB')).toEqual([100, 100, 100]);
    expect(r.providerSummaries).toHaveLength(4);
  });

  it('multiple disks, multiple networks', () => {
    const r = get(
      fx,
      'resources1=VCPU:1&resources2=VGPU:1&required2=HW_GPU_API_DXVA&resources3=MEMORY_MB:1024' +
        '&resources4=DISK_GB:100&required4=CUSTOM_DISK_SSD&resources5=DISK_GB:50&required5=!CUSTOM_DISK_SSD' +
        '&resources6=SRIOV_NET_VF:1,CUSTOM_NET_MBPS:1000&resources7=SRIOV_NET_VF:2,CUSTOM_NET_MBPS:2000' +
        '&group_policy=none',
    );
    expect(r.allocationRequests).toHaveLength(3);
    expect(amountsOf(r, LEFT, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, LEFT, 'SRIOV_NET_VF')).toEqual([3, 3]);
    expect(amountsOf(r, LEFT, 'CUSTOM_NET_MBPS')).toEqual([3000, 3000]);
    expect(amountsOf(r, LEFT, 'DISK_GB')).toEqual([50]);
    expect(amountsOf(r, DISK1, 'DISK_GB')).toEqual([100, 100]);
    expect(amountsOf(r, DISK2, 'DISK_GB')).toEqual([50, 50]);
    expect(resourcesOf(r, RIGHT)).toEqual([{ VCPU: 1, VGPU: 1, MEMORY_MB: 1024, DISK_GB: 100 }]);
    expect(resourcesOf(r, NET)).toEqual([{ SRIOV_NET_VF: 3, CUSTOM_NET_MBPS: 3000 }]);
    expect(r.providerSummaries).toHaveLength(5);
  });

  it('combining request groups exceeds capacity', () => {
    const r = get(
      fx,
      'resources=VCPU:2,MEMORY_MB:2048,SRIOV_NET_VF:1,CUSTOM_NET_MBPS:2000&resources1=SRIOV_NET_VF:1,CUSTOM_NET_MBPS:3000',
    );
    expect(r.allocationRequests).toHaveLength(1);
    expect(resourcesOf(r, RIGHT)).toEqual([{ VCPU: 2, MEMORY_MB: 2048 }]);
    expect(resourcesOf(r, NET)).toEqual([{ SRIOV_NET_VF: 2, CUSTOM_NET_MBPS: 5000 }]);
    expect(r.providerSummaries).toHaveLength(2);
  });

  it('combining request groups exceeds max_unit', () => {
    const r = get(fx, 'resources=VGPU:1&resources1=VGPU:1&resources2=VGPU:1&group_policy=none');
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, LEFT, 'VGPU')).toEqual([3]);
    expect(r.providerSummaries).toHaveLength(1);
  });

  it('group_policy required when more than one numbered group', () => {
    expect(() => get(fx, 'resources1=VCPU:1&resources2=VCPU:1')).toThrow(
      'The "group_policy" parameter is required when specifying more than one "resources{N}" parameter.',
    );
  });
});
