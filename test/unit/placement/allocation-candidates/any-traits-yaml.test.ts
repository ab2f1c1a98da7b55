// Ports of placement's gabbits/allocation-candidates-any-traits.yaml (GranularFixture) and
// allocation-candidates-any-traits-groups.yaml (NeutronQoSMultiSegmentFixture) at 1.39.

import { loadFixture } from './fixture-builder';
import { GRANULAR } from './gabbit-fixtures';
import { NEUTRON_QOS_MULTI_SEGMENT } from './gabbit-fixtures-network';
import { amountsOf, get } from './helpers';

describe('allocation-candidates-any-traits.yaml', () => {
  const fx = loadFixture(GRANULAR);
  const E = fx.env;

  it('get candidates with both OR, AND, and NOT trait queries', () => {
    const r = get(
      fx,
      'required=in:HW_GPU_API_DXVA,HW_NIC_ACCEL_TLS&required=HW_CPU_X86_AVX,!CUSTOM_FOO&resources=VCPU:1,DISK_GB:1',
    );
    expect(r.allocationRequests).toHaveLength(2);
    expect(amountsOf(r, E['CN_MIDDLE']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['SHR_DISK_1']!, 'DISK_GB')).toEqual([1]);
    expect(amountsOf(r, E['SHR_DISK_2']!, 'DISK_GB')).toEqual([1]);
  });

  it('get candidates with multiple OR queries', () => {
    const r = get(
      fx,
      'required=in:HW_CPU_X86_MMX,HW_NIC_ACCEL_TLS&required=in:CUSTOM_DISK_SSD,CUSTOM_FOO&resources=VCPU:1,DISK_GB:1',
    );
    expect(r.allocationRequests).toHaveLength(3);
    expect(amountsOf(r, E['CN_MIDDLE']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['SHR_DISK_1']!, 'DISK_GB')).toEqual([1]);
    expect(amountsOf(r, E['CN_RIGHT']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['CN_RIGHT']!, 'DISK_GB')).toEqual([1]);
    expect(amountsOf(r, E['SHR_DISK_2']!, 'DISK_GB')).toEqual([1]);
  });
});

describe('allocation-candidates-any-traits-groups.yaml', () => {
  const fx = loadFixture(NEUTRON_QOS_MULTI_SEGMENT);
  const E = fx.env;
  const base = 'resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10';
  const port = (p: string, bw: number, pps: number, physnet: string) =>
    `&resources-${p}-pps=NET_PACKET_RATE_KILOPACKET_PER_SEC:${pps}&required-${p}-pps=CUSTOM_VNIC_TYPE_NORMAL` +
    `&resources-${p}-bw=NET_BW_EGR_KILOBIT_PER_SEC:${bw},NET_BW_IGR_KILOBIT_PER_SEC:${bw}` +
    `&required-${p}-bw=CUSTOM_VNIC_TYPE_NORMAL&required-${p}-bw=${physnet}` +
    `&same_subtree=-${p}-pps,-${p}-bw`;
  const msn = 'in:CUSTOM_PHYSNET_MSN_S1,CUSTOM_PHYSNET_MSN_S2';

  it('a VM with single port on a non multisegment network', () => {
    const r = get(
      fx,
      `${base}${port('port-normal', 1000, 1000, 'CUSTOM_PHYSNET_OTHER')}&group_policy=none`,
    );
    expect(r.allocationRequests).toHaveLength(1);
    expect(amountsOf(r, E['compute0']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['compute0:ovs_agent']!, 'NET_PACKET_RATE_KILOPACKET_PER_SEC')).toEqual([
      1000,
    ]);
    expect(amountsOf(r, E['compute0:br_ex']!, 'NET_BW_IGR_KILOBIT_PER_SEC')).toEqual([1000]);
    expect(amountsOf(r, E['compute0:br_ex']!, 'NET_BW_EGR_KILOBIT_PER_SEC')).toEqual([1000]);
  });

  it('a VM with single port on the multi-segment network', () => {
    const r = get(fx, `${base}${port('port-msn', 1000, 1000, msn)}&group_policy=none`);
    expect(r.allocationRequests).toHaveLength(4);
    expect(amountsOf(r, E['compute1']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['compute2']!, 'VCPU')).toEqual([1]);
    expect(amountsOf(r, E['compute3']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['compute3:br_ex']!, 'NET_BW_IGR_KILOBIT_PER_SEC')).toEqual([1000]);
    expect(amountsOf(r, E['compute3:br_ex2']!, 'NET_BW_EGR_KILOBIT_PER_SEC')).toEqual([1000]);
  });

  it('a VM with two ports on the multi-segment network limited bandwidth', () => {
    const r = get(
      fx,
      `${base}${port('port1-msn', 1000, 100, msn)}${port('port2-msn', 1000, 100, msn)}&group_policy=none`,
    );
    expect(r.allocationRequests).toHaveLength(4);
    expect(amountsOf(r, E['compute1:ovs_agent']!, 'NET_PACKET_RATE_KILOPACKET_PER_SEC')).toEqual([
      200,
    ]);
    expect(amountsOf(r, E['compute1:br_ex']!, 'NET_BW_IGR_KILOBIT_PER_SEC')).toEqual([2000]);
    expect(amountsOf(r, E['compute3']!, 'VCPU')).toEqual([1, 1]);
    expect(amountsOf(r, E['compute3:br_ex']!, 'NET_BW_IGR_KILOBIT_PER_SEC')).toEqual([1000, 1000]);
    expect(amountsOf(r, E['compute3:br_ex2']!, 'NET_BW_IGR_KILOBIT_PER_SEC')).toEqual([1000, 1000]);
  });

  it('a VM with two ports on the multi-segment network', () => {
    const r = get(
      fx,
      `${base}${port('port1-msn', 100, 100, msn)}${port('port2-msn', 100, 100, msn)}&group_policy=none`,
    );
    expect(r.allocationRequests).toHaveLength(6);
    expect(amountsOf(r, E['compute3']!, 'VCPU')).toEqual([1, 1, 1, 1]);
    expect(amountsOf(r, E['compute3:ovs_agent']!, 'NET_PACKET_RATE_KILOPACKET_PER_SEC')).toEqual([
      200, 200, 200, 200,
    ]);
    expect(amountsOf(r, E['compute3:br_ex']!, 'NET_BW_IGR_KILOBIT_PER_SEC').sort()).toEqual([
      100, 100, 200,
    ]);
    expect(amountsOf(r, E['compute3:br_ex2']!, 'NET_BW_EGR_KILOBIT_PER_SEC').sort()).toEqual([
      100, 100, 200,
    ]);
  });
});
