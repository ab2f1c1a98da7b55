// Table tests for ComputeCapabilitiesFilter (after nova/tests/unit/scheduler/filters/
// test_compute_capabilities_filters.py): `capabilities:` specs and unscoped host attributes
// against berth's host state, with Nova's extra-spec operators on Python's str() of the value.

import type { HostView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { hostIpTrait } from '../host-state/ip';
import {
  CODE_NO_MATCH,
  CODE_UNAVAILABLE,
  capabilitySpecs,
  create,
  NAME,
  REASON_NO_MATCH,
  REASON_UNAVAILABLE,
} from './index';

/** A host with 1024 MiB free (Nova's host_state {'free_ram_mb': 1024}), 20 VCPUs, 3 used. */
const HOST: HostView = buildHostView({
  providers: [
    {
      uuid: 'h1',
      name: 'host1',
      inventories: {
        MEMORY_MB: { total: 2048, used: 1024, allocationRatio: 1.5 },
        VCPU: { total: 20, used: 3, allocationRatio: 16 },
        DISK_GB: { total: 10, used: 10 },
      },
      traits: [hostIpTrait('10.0.0.5'), 'CUSTOM_HYPERVISOR_VERSION_6002000'],
    },
  ],
  aggregates: [{ uuid: 'a1', metadata: { cell: 'cell1' } }],
  numInstances: 2,
  numIoOps: 1,
});

function verdict(extraSpecs: Record<string, string>, host: HostView = HOST) {
  return verdictOf(buildPlugin(create, NAME), host, buildRequestSpec({ extraSpecs }));
}

describe(NAME, () => {
  it.each<[string, Record<string, string>, boolean]>([
    // Nova's cases that berth's host state can express
    ['passes without extra specs', {}, true],
    ['pass ram with backward compatibility', { free_ram_mb: '>= 300' }, true],
    ['fail ram with backward compatibility', { free_ram_mb: '<= 300' }, false],
    ['pass cpu with backward compatibility', { vcpus_used: '<= 20' }, true],
    ['fail cpu with backward compatibility', { vcpus_used: '>= 20' }, false],
    ['pass disk with backward compatibility', { free_disk_mb: '0' }, true],
    ['fail disk with backward compatibility', { free_disk_mb: '1' }, false],
    ['self-defined specs are not read', { XXYY: '1' }, true],
    ['a wrong scope is not read', { 'wrong_scope:free_ram_mb': '1' }, true],
    ['a key named like the scope is not a host attribute', { capabilities: '1' }, true],
    ['cpu_info (none in berth) fails', { 'capabilities:cpu_info:vendor': 'Intel' }, false],
    ['cpu_info unscoped fails', { cpu_info: '' }, false],
    // stats, simple and with scope (Nova's stats cases, with the stats berth has)
    ['stats simple', { num_instances: '2', io_workload: '1' }, true],
    ['stats simple, one wrong', { num_instances: '2', io_workload: '222' }, false],
    ['stats with scope', { 'capabilities:io_workload': '1' }, true],
    ['stats multi-level with scope', { 'capabilities:stats:num_instances': '2' }, true],
    ['an unknown stat with scope fails', { 'capabilities:num_vm_active': '1' }, false],
    ['an unknown stat unscoped is not read', { num_vm_active: '1' }, true],
    // berth's other mapped attributes
    ['host ip', { 'capabilities:host_ip': 's== 10.0.0.5' }, true],
    ['hypervisor version', { 'capabilities:hypervisor_version': '>= 6000000' }, true],
    ['cell', { 'capabilities:cell_uuid': 'cell1' }, true],
    ['allocation ratios are floats', { 'capabilities:cpu_allocation_ratio': '16.0' }, true],
    ['allocation ratio, numeric', { cpu_allocation_ratio: '= 16' }, true],
    ['num_io_ops', { num_io_ops: '<= 0' }, false],
    ['host name with <in>', { 'capabilities:host': '<in> host' }, true],
    ['an empty path element', { 'capabilities:': '1' }, false],
    ['no key below a number', { 'capabilities:free_ram_mb:x': '1' }, false],
    [
      'service cannot be read below (a ReadOnlyDict in Nova)',
      { 'capabilities:service:disabled': 'False' },
      false,
    ],
    ['every spec must hold', { free_ram_mb: '>= 300', 'capabilities:vcpus_total': '< 4' }, false],
  ])('%s -> %p', (_name, specs, want) => {
    const v = verdict(specs);
    expect(v.fits).toBe(want);
    if (!v.fits) {
      expect([CODE_NO_MATCH, CODE_UNAVAILABLE]).toContain(v.code);
    }
  });

  it('names what was wanted and found', () => {
    expect(verdict({ 'capabilities:vcpus_used': '>= 20' })).toEqual({
      fits: false,
      reason: `${REASON_NO_MATCH}: capabilities:vcpus_used wanted ">= 20", the host has "3"`,
      code: 'compute_capabilities.no_match',
    });
    expect(verdict({ 'capabilities:cpu_info:vendor': 'Intel' })).toEqual({
      fits: false,
      reason: `${REASON_UNAVAILABLE}: capabilities:cpu_info:vendor (berth holds no cpu_info)`,
      code: 'compute_capabilities.unavailable',
    });
    expect(verdict({ 'capabilities:num_vm_active': '1' })).toEqual({
      fits: false,
      reason: `${REASON_UNAVAILABLE}: capabilities:num_vm_active (no value at num_vm_active)`,
      code: 'compute_capabilities.unavailable',
    });
  });

  it('reads a host without a cell, IP or version as lacking them', () => {
    const bare = buildHostView({ providers: [{ uuid: 'h2', name: 'bare' }] });
    for (const key of ['host_ip', 'hypervisor_version', 'cell_uuid']) {
      expect(verdict({ [`capabilities:${key}`]: '<in> ' }, bare).fits).toBe(false);
    }
  });

  it('keeps the specs it reads, in order, with their paths', () => {
    expect(
      capabilitySpecs({
        'capabilities:cpu_info:vendor': 'Intel',
        free_ram_mb: '1',
        'hw:cpu_policy': 'dedicated',
        'aggregate_instance_extra_specs:x': '1',
        io_workload: '0',
      }),
    ).toEqual([
      { key: 'capabilities:cpu_info:vendor', path: ['cpu_info', 'vendor'], wanted: 'Intel' },
      { key: 'free_ram_mb', path: ['free_ram_mb'], wanted: '1' },
      { key: 'io_workload', path: ['io_workload'], wanted: '0' },
    ]);
  });

  it('reads the stats with a move that arrived counted unless countMovesOn is source (Nova)', () => {
    const host = buildHostView({
      providers: [{ uuid: 'h1', name: 'cn1' }],
      numInstances: 3,
      numIoOps: 1,
      numMovesIn: 1,
    });
    const extraSpecs = { 'capabilities:stats:io_workload': 's== 0', num_instances: '== 2' };
    const run = (config: Record<string, unknown>) =>
      verdictOf(buildPlugin(create, NAME, config), host, buildRequestSpec({ extraSpecs })).fits;
    expect(run({})).toBe(false);
    expect(run({ countMovesOn: 'source' })).toBe(true);
  });
});
