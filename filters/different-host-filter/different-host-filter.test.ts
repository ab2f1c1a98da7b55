// Table tests for DifferentHostFilter (after nova/tests/unit/scheduler/filters/
// test_affinity_filters.py TestDifferentHostFilter): a host running a hinted instance is out; no
// hint, every host passes.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, HINT, NAME, REASON_SAME_HOST } from './index';

const plugin = buildPlugin(create, NAME);
const host = buildHostView({ providers: [{ uuid: 'cn1', name: 'compute-1' }] });

describe(NAME, () => {
  it.each([
    {
      name: 'passes when the hinted instances run elsewhere',
      hint: ['i1'],
      where: { i1: ['cn2'] },
      here: [],
    },
    { name: 'passes when the hinted instance runs nowhere', hint: ['i1'], where: {}, here: [] },
    {
      name: 'fails when a hinted instance runs on the host',
      hint: ['i1', 'i2'],
      where: { i1: ['cn2'], i2: ['cn1'] },
      here: ['i2'],
    },
    {
      name: 'names every hinted instance on the host',
      hint: ['i1', 'i2'],
      where: { i1: ['cn1'], i2: ['cn1', 'cn3'] },
      here: ['i1', 'i2'],
    },
    { name: 'passes without the hint', hint: undefined, where: { i1: ['cn1'] }, here: [] },
  ])('$name', ({ hint, where, here }) => {
    const req = buildRequestSpec({
      hints: hint === undefined ? {} : { [HINT]: hint },
      instanceHosts: where as Record<string, string[]>,
    });
    expect(verdictOf(plugin, host, req)).toEqual(
      here.length === 0
        ? { fits: true }
        : {
            fits: false,
            reason: `${REASON_SAME_HOST}: the host runs ${here.join(', ')}`,
            code: 'different_host.same_host',
          },
    );
  });
});
