// Table test for AllHostsFilter (nova/scheduler/filters/all_hosts_filter.py; Nova's
// test_filters.py checks only that it passes): every host passes, whatever it holds or is asked.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, NAME } from './index';

describe(NAME, () => {
  it.each([
    { name: 'an empty host', providers: [{ uuid: 'h1' }], request: buildRequestSpec() },
    {
      name: 'a disabled, full host and a demanding request',
      providers: [
        {
          uuid: 'h1',
          traits: ['COMPUTE_STATUS_DISABLED'],
          inventories: { VCPU: { total: 1, used: 1 } },
        },
      ],
      request: buildRequestSpec({
        resources: { VCPU: 64 },
        extraSpecs: { 'capabilities:x': '1' },
        hints: { query: ['["=", 1, 2]'] },
      }),
    },
  ])('passes $name', ({ providers, request }) => {
    const plugin = buildPlugin(create, NAME);
    expect(verdictOf(plugin, buildHostView({ providers }), request)).toEqual({ fits: true });
    expect(plugin.onError).toBe('open');
  });
});
