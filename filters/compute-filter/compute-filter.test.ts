// Table tests for ComputeFilter (after nova/tests/unit/scheduler/filters/test_compute_filters.py and
// test_request_filter.py compute_status_filter).
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, DISABLED_TRAIT, NAME, REASON_DISABLED } from './index';

const plugin = buildPlugin(create, NAME);

describe(NAME, () => {
  it.each([
    { name: 'an enabled host passes', rootTraits: ['HW_CPU_X86_AVX'], childTraits: [], want: true },
    { name: 'a disabled host fails', rootTraits: [DISABLED_TRAIT], childTraits: [], want: false },
    {
      name: 'the trait on a child provider does not disable the host',
      rootTraits: [],
      childTraits: [DISABLED_TRAIT],
      want: true,
    },
  ])('$name', ({ rootTraits, childTraits, want }) => {
    const host = buildHostView({
      providers: [
        { uuid: 'cn1', name: 'compute-1', traits: rootTraits },
        { uuid: 'pf', parentUuid: 'cn1', traits: childTraits },
      ],
    });
    const verdict = verdictOf(plugin, host, buildRequestSpec());
    expect(verdict).toEqual(
      want
        ? { fits: true }
        : {
            fits: false,
            reason: `${REASON_DISABLED}: the root provider has trait ${DISABLED_TRAIT}`,
            code: 'compute.disabled',
          },
    );
  });

  it('pushes the trait down as a forbidden root trait', () => {
    const amendment = plugin.amendRequest!(buildRequestSpec(), { aggregates: [] });
    expect(amendment).toMatchObject({ rootForbiddenTraits: [DISABLED_TRAIT] });
  });
});
