// Table tests for SameHostFilter (after nova/tests/unit/scheduler/filters/test_affinity_filters.py
// TestSameHostFilter): the host must run one of the hinted instances; no hint, every host passes;
// an instance that runs nowhere (deleted) matches no host.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, HINT, NAME, REASON_NOT_SAME_HOST } from './index';

const plugin = buildPlugin(create, NAME);
const host = buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1' }] });

describe(NAME, () => {
  it.each([
    {
      name: 'passes when a hinted instance runs on the host',
      hint: ['i1'],
      where: { i1: ['cn1'] },
      want: true,
    },
    {
      name: 'passes when one of several hinted instances runs on the host',
      hint: ['i1', 'i2'],
      where: { i1: ['cn2'], i2: ['cn1'] },
      want: true,
    },
    {
      name: 'fails when the hinted instance runs elsewhere',
      hint: ['i1'],
      where: { i1: ['cn2'] },
      want: false,
    },
    {
      name: 'fails when the hinted instance runs nowhere (deleted)',
      hint: ['i1'],
      where: {},
      want: false,
    },
    { name: 'passes without the hint', hint: undefined, where: { i1: ['cn2'] }, want: true },
    { name: 'passes with an empty hint', hint: [], where: {}, want: true },
  ])('$name', ({ hint, where, want }) => {
    const req = buildRequestSpec({
      hints: hint === undefined ? {} : { [HINT]: hint },
      instanceHosts: where as Record<string, string[]>,
    });
    const verdict = verdictOf(plugin, host, req);
    expect(verdict).toEqual(
      want
        ? { fits: true }
        : {
            fits: false,
            reason: `${REASON_NOT_SAME_HOST}: the host runs none of ${hint!.join(', ')}`,
            code: 'same_host.not_same_host',
          },
    );
  });
});
