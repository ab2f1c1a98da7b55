// Table tests for berth's reading of Nova's HostState (nova/scheduler/host_manager.py
// _update_from_compute_node): every mapped attribute from a provider tree, the unmapped ones as
// None, Python's str(), and the conventions shared with ComputeFilter and HypervisorVersionWeigher.
import { buildHostView } from '../../src/scheduler/plugin-testing';
import { DISABLED_TRAIT as COMPUTE_FILTER_TRAIT } from '../compute-filter/index';
import { DEFAULT_TRAIT_PREFIX } from '../hypervisor-version-weigher/index';
import {
  cellOf,
  DISABLED_TRAIT,
  HYPERVISOR_VERSION_TRAIT_PREFIX,
  hostStateValue,
  isHostStateAttribute,
  MAPPED_ATTRIBUTES,
  pyStr,
  UNMAPPED_ATTRIBUTES,
} from './index';
import { hostIpTrait } from './ip';

const HOST = buildHostView({
  providers: [
    {
      uuid: 'cn1-uuid',
      name: 'cn1',
      inventories: {
        VCPU: { total: 16, reserved: 2, used: 5, allocationRatio: 4 },
        MEMORY_MB: { total: 8192, reserved: 512, used: 1024, allocationRatio: 1.5 },
        DISK_GB: { total: 500, reserved: 10, used: 90 },
      },
      traits: [
        DISABLED_TRAIT,
        hostIpTrait('192.0.2.10'),
        'CUSTOM_HYPERVISOR_VERSION_6002000',
        'CUSTOM_HYPERVISOR_VERSION_7000000',
      ],
    },
    // a NUMA child: its memory and CPUs are the host's too
    {
      uuid: 'numa0',
      parentUuid: 'cn1-uuid',
      inventories: { MEMORY_MB: { total: 1024, used: 256 }, VCPU: 4 },
    },
  ],
  aggregates: [{ uuid: 'a1', metadata: { cell: 'cell-a', other: 'x' } }],
  numInstances: 4,
  numIoOps: 2,
});

describe('host-state', () => {
  it.each<[string, unknown]>([
    ['host', 'cn1'],
    ['nodename', 'cn1'],
    ['hypervisor_hostname', 'cn1'],
    ['uuid', 'cn1-uuid'],
    ['total_usable_ram_mb', 8192 + 1024],
    ['free_ram_mb', 8192 - 512 - 1024 + 1024 - 256],
    ['total_usable_disk_gb', 500],
    ['disk_mb_used', 100 * 1024],
    ['free_disk_mb', 400 * 1024],
    ['vcpus_total', 20],
    ['vcpus_used', 7],
    ['ram_allocation_ratio', 1.5],
    ['cpu_allocation_ratio', 4],
    ['disk_allocation_ratio', 1],
    ['num_instances', 4],
    ['num_io_ops', 2],
    ['host_ip', '192.0.2.10'],
    ['hypervisor_version', 7000000],
    ['cell_uuid', 'cell-a'],
    ['service', { disabled: true }],
    ['stats', { num_instances: '4', io_workload: '2' }],
    ['cpu_info', null],
    ['no_such_attribute', null],
  ])('reads %s', (name, want) => {
    expect(hostStateValue(HOST, name)).toEqual(want);
  });

  it('gives every unmapped attribute as None and knows every Nova attribute', () => {
    for (const name of UNMAPPED_ATTRIBUTES) {
      expect([name, hostStateValue(HOST, name)]).toEqual([name, null]);
    }
    for (const name of [...Object.keys(MAPPED_ATTRIBUTES), ...UNMAPPED_ATTRIBUTES]) {
      expect(isHostStateAttribute(name)).toBe(true);
    }
    expect(isHostStateAttribute('capabilities')).toBe(false);
  });

  it('reads a bare host as a compute node that reported nothing', () => {
    const bare = buildHostView({ providers: [{ uuid: 'b', name: 'bare' }] });
    expect(hostStateValue(bare, 'free_ram_mb')).toBe(0);
    expect(hostStateValue(bare, 'ram_allocation_ratio')).toBeNull();
    expect(hostStateValue(bare, 'host_ip')).toBeNull();
    expect(hostStateValue(bare, 'hypervisor_version')).toBeNull();
    expect(hostStateValue(bare, 'service')).toEqual({ disabled: false });
  });

  it('reads one cell, or none when aggregates disagree', () => {
    const cells = (...values: string[]) =>
      cellOf(
        buildHostView({
          providers: [{ uuid: 'h' }],
          aggregates: values.map((cell, i) => ({ uuid: `a${i}`, metadata: { cell } })),
        }),
      );
    expect(cells()).toBeNull();
    expect(cells('c1', 'c1')).toBe('c1');
    expect(cells('c1', 'c2')).toBeNull();
    expect(cells('')).toBeNull();
  });

  it.each<[unknown, boolean, string]>([
    [null, false, 'None'],
    [true, false, 'True'],
    [3, false, '3'],
    [16, true, '16.0'],
    [1.5, true, '1.5'],
    ['x', false, 'x'],
    [{ a: '1', b: [1, "it's", `'"`] }, false, `{'a': '1', 'b': [1, "it's", '\\'"']}`],
  ])('writes %j (float: %p) as Python str() does: %s', (value, float, want) => {
    expect(pyStr(value as never, float)).toBe(want);
  });

  it('shares its trait conventions with ComputeFilter and HypervisorVersionWeigher', () => {
    expect(DISABLED_TRAIT).toBe(COMPUTE_FILTER_TRAIT);
    expect(HYPERVISOR_VERSION_TRAIT_PREFIX).toBe(DEFAULT_TRAIT_PREFIX);
  });
});
