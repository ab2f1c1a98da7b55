// Table tests for NUMATopologyFilter (after nova/tests/unit/scheduler/filters/
// test_numa_topology_filters.py; Nova's host NUMA cells are HW_NUMA_ROOT child providers here).
import {
  buildHostView,
  buildRequestSpec,
  type ProviderInput,
} from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import {
  CODE_INVALID_REQUEST,
  CODE_NO_FIT,
  CODE_TOO_FEW_CELLS,
  create,
  NAME,
  NUMA_TRAIT,
  REASON_INVALID_REQUEST,
  REASON_NO_FIT,
  REASON_TOO_FEW_CELLS,
} from './index';
import { cpuSetSize } from './request';

const plugin = buildPlugin(create, NAME);

/** A NUMA cell provider under `cn1` with free VCPU / MEMORY_MB. */
const cell = (uuid: string, vcpu: number, mem: number, extra: Partial<ProviderInput> = {}) => ({
  uuid,
  parentUuid: 'cn1',
  traits: [NUMA_TRAIT],
  inventories: { VCPU: vcpu, MEMORY_MB: mem },
  ...extra,
});

interface Case {
  readonly name: string;
  readonly cells: ProviderInput[];
  readonly resources: Record<string, number>;
  readonly specs: Record<string, string>;
  readonly want: true | string;
}

describe(NAME, () => {
  it.each<Case>([
    {
      name: 'passes without a NUMA request',
      cells: [],
      resources: { VCPU: 4, MEMORY_MB: 1024 },
      specs: {},
      want: true,
    },
    {
      name: 'numa fits',
      cells: [cell('n0', 4, 2048), cell('n1', 4, 2048)],
      resources: { VCPU: 4, MEMORY_MB: 2048 },
      specs: { 'hw:numa_nodes': '2' },
      want: true,
    },
    {
      name: 'numa instance, no numa host',
      cells: [],
      resources: { VCPU: 2, MEMORY_MB: 512 },
      specs: { 'hw:numa_nodes': '1' },
      want: REASON_TOO_FEW_CELLS,
    },
    {
      name: 'fails fit: more guest nodes than cells',
      cells: [cell('n0', 8, 4096)],
      resources: { VCPU: 2, MEMORY_MB: 512 },
      specs: { 'hw:numa_nodes': '2' },
      want: REASON_TOO_FEW_CELLS,
    },
    {
      name: 'fails memory: each node needs its share in one cell',
      cells: [cell('n0', 4, 1024), cell('n1', 4, 3072)],
      resources: { VCPU: 2, MEMORY_MB: 4096 },
      specs: { 'hw:numa_nodes': '2' },
      want: REASON_NO_FIT,
    },
    {
      name: 'fails cpu: usage counts',
      cells: [cell('n0', 4, 2048, { used: { VCPU: 3 } }), cell('n1', 4, 2048)],
      resources: { VCPU: 4, MEMORY_MB: 1024 },
      specs: { 'hw:numa_nodes': '2' },
      want: REASON_NO_FIT,
    },
    {
      name: 'the allocation ratio overcommits CPUs',
      cells: [
        cell('n0', 4, 2048, {
          inventories: { VCPU: { total: 4, allocationRatio: 4 }, MEMORY_MB: 2048 },
        }),
      ],
      resources: { VCPU: 16, MEMORY_MB: 1024 },
      specs: { 'hw:numa_nodes': '1' },
      want: true,
    },
    {
      name: 'explicit asymmetric nodes fit the matching cells',
      cells: [cell('n0', 1, 512), cell('n1', 3, 1536)],
      resources: { VCPU: 4, MEMORY_MB: 2048 },
      specs: {
        'hw:numa_nodes': '2',
        'hw:numa_cpus.0': '0-2',
        'hw:numa_mem.0': '1536',
        'hw:numa_cpus.1': '3',
        'hw:numa_mem.1': '512',
      },
      want: true,
    },
    {
      name: 'dedicated CPUs are counted as PCPU',
      cells: [
        cell('n0', 0, 2048, { inventories: { PCPU: 2, MEMORY_MB: 2048 } }),
        cell('n1', 0, 2048, { inventories: { PCPU: 2, MEMORY_MB: 2048 } }),
      ],
      resources: { PCPU: 4, MEMORY_MB: 2048 },
      specs: { 'hw:numa_nodes': '2' },
      want: true,
    },
    {
      name: 'cells without the trait: root children with CPU or memory inventory',
      cells: [
        { uuid: 'n0', parentUuid: 'cn1', inventories: { VCPU: 2, MEMORY_MB: 1024 } },
        { uuid: 'n1', parentUuid: 'cn1', inventories: { VCPU: 2, MEMORY_MB: 1024 } },
        { uuid: 'gpu', parentUuid: 'cn1', inventories: { VGPU: 4 } },
      ],
      resources: { VCPU: 4, MEMORY_MB: 2048 },
      specs: { 'hw:numa_nodes': '2' },
      want: true,
    },
    {
      name: "a cell's free capacity includes its children",
      cells: [
        cell('n0', 2, 0, { inventories: { VCPU: 2 } }),
        { uuid: 'n0-mem', parentUuid: 'n0', inventories: { MEMORY_MB: 1024 } },
      ],
      resources: { VCPU: 2, MEMORY_MB: 1024 },
      specs: { 'hw:numa_nodes': '1' },
      want: true,
    },
    {
      name: 'asymmetric split without explicit nodes is invalid',
      cells: [cell('n0', 4, 2048), cell('n1', 4, 2048)],
      resources: { VCPU: 3, MEMORY_MB: 2048 },
      specs: { 'hw:numa_nodes': '2' },
      want: REASON_INVALID_REQUEST,
    },
    {
      name: 'explicit nodes must add up to the request',
      cells: [cell('n0', 4, 2048), cell('n1', 4, 2048)],
      resources: { VCPU: 4, MEMORY_MB: 2048 },
      specs: {
        'hw:numa_nodes': '2',
        'hw:numa_cpus.0': '0',
        'hw:numa_mem.0': '1024',
        'hw:numa_cpus.1': '1',
        'hw:numa_mem.1': '1024',
      },
      want: REASON_INVALID_REQUEST,
    },
    {
      name: 'a non-numeric node count is invalid',
      cells: [cell('n0', 4, 2048)],
      resources: { VCPU: 4, MEMORY_MB: 2048 },
      specs: { 'hw:numa_nodes': 'two' },
      want: REASON_INVALID_REQUEST,
    },
  ])('$name', ({ cells, resources, specs, want }) => {
    const host = buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1' }, ...cells] });
    const verdict = verdictOf(plugin, host, buildRequestSpec({ resources, extraSpecs: specs }));
    if (want === true) {
      expect(verdict).toEqual({ fits: true });
    } else {
      expect(verdict.fits).toBe(false);
      expect(!verdict.fits && verdict.reason.startsWith(`${want}: `)).toBe(true);
      const codes: Record<string, string> = {
        [REASON_INVALID_REQUEST]: CODE_INVALID_REQUEST,
        [REASON_NO_FIT]: CODE_NO_FIT,
        [REASON_TOO_FEW_CELLS]: CODE_TOO_FEW_CELLS,
      };
      expect(!verdict.fits && verdict.code).toBe(codes[want]);
    }
  });

  it('explains a fit failure with what was wanted and found', () => {
    const host = buildHostView({
      providers: [{ uuid: 'cn1', name: 'compute-1' }, cell('n0', 4, 1024), cell('n1', 4, 3072)],
    });
    const req = buildRequestSpec({
      resources: { VCPU: 2, MEMORY_MB: 4096 },
      extraSpecs: { 'hw:numa_nodes': '2' },
    });
    expect(verdictOf(plugin, host, req)).toEqual({
      fits: false,
      reason: `${REASON_NO_FIT}: wanted 1 VCPU/2048 MB, 1 VCPU/2048 MB, cells free 4 VCPU/1024 MB, 4 VCPU/3072 MB`,
      code: 'numa_topology.no_fit',
    });
  });

  it.each([
    ['0-3', 4],
    ['0-3,^2', 3],
    ['0,2,4', 3],
  ])('counts CPU set %s as %i CPUs', (spec, n) => {
    expect(cpuSetSize(spec)).toBe(n);
  });
});
