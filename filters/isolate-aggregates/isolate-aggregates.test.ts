// Table tests for isolate_aggregates (after nova/tests/unit/scheduler/test_request_filter.py
// test_isolate_aggregates*, and nova/objects/aggregate.py get_non_matching_by_metadata_keys).
import { emptyRequestGroup } from '../../src/placement/allocation-candidates/request';
import type { AggregateView, RequestAmendment } from '../../src/scheduler/plugin-api';
import { buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import { create, NAME, requiredTraits } from './index';

const agg = (uuid: string, metadata: Record<string, string>): AggregateView => ({
  uuid,
  name: uuid,
  metadata,
});

// Nova's docstring example plus agg4 of test_isolate_aggregates and aggregates that isolate nothing.
const aggregates = [
  agg('agg1', { 'trait:HW_CPU_X86_MMX': 'required' }),
  agg('agg2', { 'trait:HW_CPU_X86_SGX': 'required' }),
  agg('agg3', { 'trait:HW_CPU_X86_MMX': 'required', 'trait:HW_CPU_X86_SGX': 'required' }),
  agg('agg4', { 'trait:HW_GPU_API_DXVA': 'required', 'trait:HW_NIC_DCB_ETS': 'required' }),
  agg('plain', { ssd: 'true' }),
  agg('not-required', { 'trait:HW_CPU_X86_AVX': 'forbidden' }),
  agg('case', { 'trait:HW_CPU_X86_AVX': 'Required' }),
];

function amend(spec: Parameters<typeof buildRequestSpec>[0], config: Record<string, unknown> = {}) {
  return buildPlugin(create, NAME, config).amendRequest(buildRequestSpec(spec), {
    aggregates,
  }) as RequestAmendment | null;
}

const forbidden = (uuids: string[]) => ({
  forbiddenAggregates: uuids,
  note: `forbidden member_of !in:${uuids.join(',')} (trait-isolated aggregates)`,
});

const group = (suffix: string, requiredTraits: string[][]) => ({
  ...emptyRequestGroup(suffix),
  resources: { VCPU: 1 },
  requiredTraits,
});

describe(NAME, () => {
  it.each<{ name: string; spec: Parameters<typeof buildRequestSpec>[0]; want: string[] }>([
    {
      name: 'a request requiring nothing is kept out of every isolated aggregate',
      spec: {},
      want: ['agg1', 'agg2', 'agg3', 'agg4'],
    },
    {
      name: "Nova's docstring: requiring MMX leaves agg2 and agg3 isolated",
      spec: { groups: [group('', [['HW_CPU_X86_MMX']])] },
      want: ['agg2', 'agg3', 'agg4'],
    },
    {
      name: 'requiring both traits of agg3 admits it',
      spec: { groups: [group('', [['HW_CPU_X86_MMX'], ['HW_CPU_X86_SGX']])] },
      want: ['agg4'],
    },
    {
      name: 'traits of suffixed groups count (all_required_traits)',
      spec: {
        groups: [group('', [['HW_GPU_API_DXVA']]), group('1', [['HW_NIC_DCB_ETS']])],
      },
      want: ['agg1', 'agg2', 'agg3'],
    },
    {
      name: 'an any-of set requires neither trait alone',
      spec: { groups: [group('', [['HW_CPU_X86_MMX', 'HW_CPU_X86_SGX']])] },
      want: ['agg1', 'agg2', 'agg3', 'agg4'],
    },
    {
      name: 'test_isolate_aggregates: the flavor requires agg4 traits (trait:<T>=required)',
      spec: {
        extraSpecs: { 'trait:HW_GPU_API_DXVA': 'required', 'trait:HW_NIC_DCB_ETS': 'required' },
      },
      want: ['agg1', 'agg2', 'agg3'],
    },
    {
      name: 'flavor trait in a numbered group, image trait (trait<suffix>:, image:trait:)',
      spec: {
        extraSpecs: {
          'trait1:HW_CPU_X86_MMX': 'required',
          'image:trait:HW_CPU_X86_SGX': 'required',
        },
      },
      want: ['agg4'],
    },
    {
      name: 'a forbidden flavor trait requires nothing',
      spec: { extraSpecs: { 'trait:HW_CPU_X86_MMX': 'forbidden' } },
      want: ['agg1', 'agg2', 'agg3', 'agg4'],
    },
  ])('$name', ({ spec, want }) => {
    expect(amend(spec)).toEqual(forbidden(want));
  });

  it('amends nothing when no aggregate is isolated', () => {
    const plugin = buildPlugin(create, NAME);
    expect(plugin.amendRequest(buildRequestSpec(), { aggregates: [aggregates[4]!] })).toBe(null);
  });

  it('does nothing when enableIsolatedAggregateFiltering is false', () => {
    expect(amend({}, { enableIsolatedAggregateFiltering: false })).toBe(null);
  });

  it('refuses a non-boolean enableIsolatedAggregateFiltering at start-up', () => {
    expect(() => amend({}, { enableIsolatedAggregateFiltering: 1 })).toThrow(
      `${NAME}: config "enableIsolatedAggregateFiltering" must be true or false`,
    );
  });

  it('leaves root_required out, as Nova', () => {
    const spec = buildRequestSpec();
    const withRoot = {
      ...spec,
      candidateRequest: { ...spec.candidateRequest, rootRequired: [['HW_CPU_X86_MMX']] },
    };
    expect([...requiredTraits(withRoot)]).toEqual([]);
  });
});
