// Table tests for accelerators_filter (after nova/tests/unit/scheduler/test_request_filter.py
// test_accelerators_filter_*).
import { buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import { ACCELERATORS_TRAIT, create, NAME } from './index';

const plugin = buildPlugin(create, NAME);
const amend = (extraSpecs: Record<string, string>) =>
  plugin.amendRequest(buildRequestSpec({ extraSpecs }), { aggregates: [] });

describe(NAME, () => {
  it('with a device profile requires COMPUTE_ACCELERATORS on the root', () => {
    expect(amend({ 'accel:device_profile': 'mydp' })).toEqual({
      rootRequiredTraits: [[ACCELERATORS_TRAIT]],
      note: 'required root trait COMPUTE_ACCELERATORS (accel:device_profile=mydp)',
    });
  });

  it.each<Record<string, string>>([{}, { 'accel:device_profile': '' }, { device_profile: 'mydp' }])(
    'without a device profile amends nothing (%j)',
    (specs) => {
      expect(amend(specs)).toBe(null);
    },
  );

  it('takes no configuration', () => {
    expect(plugin.onError).toBe('closed');
  });
});
