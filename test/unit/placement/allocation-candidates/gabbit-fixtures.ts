// Provider data of upstream gabbi fixtures used by the ported allocation-candidate gabbits
// (generated from shared/conformance/placement-gabbits/fixtures-data.json, which describes
// placement/tests/functional/fixtures/gabbits.py). Row: name, env key, parent, aggregates, traits,
// inventories as class -> [total, reserved, min_unit, max_unit, step_size, allocation_ratio].
import type { FixtureSpec } from './fixture-builder';

/** SharedStorageFixture */
export const SHARED_STORAGE: FixtureSpec = {
  customClasses: [],
  customTraits: [],
  providers: [
    [
      'cn1',
      'CN1_UUID',
      null,
      ['AGG_UUID'],
      ['HW_CPU_X86_SSE', 'HW_CPU_X86_SSE2'],
      { VCPU: [24, 0, 1, 24, 1, 16.0], MEMORY_MB: [131072, 0, 1, 131072, 1, 1.5] },
    ],
    [
      'cn2',
      'CN2_UUID',
      null,
      ['AGG_UUID'],
      [],
      {
        VCPU: [24, 0, 1, 24, 1, 16.0],
        MEMORY_MB: [131072, 0, 1, 131072, 1, 1.5],
        DISK_GB: [2000, 100, 1, 2000, 1, 1.0],
      },
    ],
    [
      'ss',
      'SS_UUID',
      null,
      ['AGG_UUID'],
      ['MISC_SHARES_VIA_AGGREGATE'],
      { DISK_GB: [2000, 100, 1, 2000, 1, 1.0] },
    ],
    [
      'ss2',
      'SS2_UUID',
      null,
      ['AGG_UUID'],
      ['MISC_SHARES_VIA_AGGREGATE'],
      { DISK_GB: [2000, 100, 1, 2000, 1, 1.0] },
    ],
    ['numa1_1', 'NUMA1_1_UUID', 'cn1', [], [], {}],
    ['numa1_2', 'NUMA1_2_UUID', 'cn1', [], [], {}],
    ['numa2_1', 'NUMA2_1_UUID', 'cn2', [], [], {}],
    ['numa2_2', 'NUMA2_2_UUID', 'cn2', [], [], {}],
    ['pf1_1', 'PF1_1_UUID', 'numa1_1', [], [], { SRIOV_NET_VF: [8, 0, 1, 8, 1, 1.0] }],
    ['pf1_2', 'PF1_2_UUID', 'numa1_2', [], [], { SRIOV_NET_VF: [8, 0, 1, 8, 1, 1.0] }],
    ['pf2_1', 'PF2_1_UUID', 'numa2_1', [], [], { SRIOV_NET_VF: [8, 0, 1, 8, 1, 1.0] }],
    ['pf2_2', 'PF2_2_UUID', 'numa2_2', [], [], { SRIOV_NET_VF: [8, 0, 1, 8, 1, 1.0] }],
  ],
  usage: [],
};

/** GranularFixture */
export const GRANULAR: FixtureSpec = {
  customClasses: ['CUSTOM_NET_MBPS'],
  customTraits: ['CUSTOM_FOO', 'CUSTOM_DISK_SSD'],
  providers: [
    [
      'cn_left',
      'CN_LEFT',
      null,
      ['AGGA'],
      ['HW_CPU_X86_AVX', 'HW_CPU_X86_AVX2', 'HW_GPU_API_DXVA', 'HW_NIC_DCB_PFC', 'CUSTOM_FOO'],
      {
        VCPU: [8, 0, 1, 8, 1, 1.0],
        MEMORY_MB: [4096, 0, 1, 4096, 1, 1.0],
        DISK_GB: [500, 0, 1, 500, 1, 1.0],
        VGPU: [8, 0, 1, 8, 1, 1.0],
        SRIOV_NET_VF: [8, 0, 1, 8, 1, 1.0],
        CUSTOM_NET_MBPS: [4000, 0, 1, 4000, 1, 1.0],
      },
    ],
    [
      'cn_middle',
      'CN_MIDDLE',
      null,
      ['AGGA', 'AGGB'],
      ['HW_CPU_X86_AVX', 'HW_CPU_X86_AVX2', 'HW_CPU_X86_SSE', 'HW_NIC_ACCEL_TLS'],
      {
        VCPU: [8, 0, 1, 8, 1, 1.0],
        MEMORY_MB: [4096, 0, 1, 4096, 1, 1.0],
        SRIOV_NET_VF: [8, 0, 1, 8, 1, 1.0],
        CUSTOM_NET_MBPS: [4000, 0, 1, 4000, 1, 1.0],
      },
    ],
    [
      'cn_right',
      'CN_RIGHT',
      null,
      ['AGGB', 'AGGC'],
      ['HW_CPU_X86_MMX', 'HW_GPU_API_DXVA', 'CUSTOM_DISK_SSD'],
      {
        VCPU: [8, 0, 1, 8, 1, 1.0],
        MEMORY_MB: [4096, 0, 1, 4096, 1, 1.0],
        DISK_GB: [500, 0, 1, 500, 1, 1.0],
        VGPU: [8, 0, 1, 2, 1, 1.0],
      },
    ],
    [
      'shr_disk_1',
      'SHR_DISK_1',
      null,
      ['AGGA'],
      ['MISC_SHARES_VIA_AGGREGATE', 'CUSTOM_DISK_SSD'],
      { DISK_GB: [1000, 0, 1, 1000, 1, 1.0] },
    ],
    [
      'shr_disk_2',
      'SHR_DISK_2',
      null,
      ['AGGA', 'AGGB'],
      ['MISC_SHARES_VIA_AGGREGATE'],
      { DISK_GB: [1000, 0, 1, 1000, 1, 1.0] },
    ],
    [
      'shr_net',
      'SHR_NET',
      null,
      ['AGGC'],
      ['MISC_SHARES_VIA_AGGREGATE'],
      { SRIOV_NET_VF: [16, 0, 1, 16, 1, 1.0], CUSTOM_NET_MBPS: [40000, 0, 1, 40000, 1, 1.0] },
    ],
  ],
  usage: [],
};

/** NonSharedStorageFixture */
export const NON_SHARED_STORAGE: FixtureSpec = {
  customClasses: [],
  customTraits: [],
  providers: [
    [
      'cn1',
      'CN1_UUID',
      null,
      [],
      [],
      {
        VCPU: [24, 0, 1, 24, 1, 1.0],
        MEMORY_MB: [131072, 0, 1, 131072, 1, 1.0],
        DISK_GB: [2000, 0, 1, 2000, 1, 1.0],
      },
    ],
    [
      'cn2',
      'CN2_UUID',
      null,
      [],
      [],
      {
        VCPU: [24, 0, 1, 24, 1, 1.0],
        MEMORY_MB: [131072, 0, 1, 131072, 1, 1.0],
        DISK_GB: [2000, 0, 1, 2000, 1, 1.0],
      },
    ],
    [
      'cn3',
      'CN3_UUID',
      null,
      [],
      [],
      {
        VCPU: [24, 0, 1, 24, 1, 1.0],
        MEMORY_MB: [131072, 0, 1, 131072, 1, 1.0],
        DISK_GB: [2000, 0, 1, 2000, 1, 1.0],
      },
    ],
  ],
  usage: [],
};
