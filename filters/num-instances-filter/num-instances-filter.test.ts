// Table tests for NumInstancesFilter (after nova/tests/unit/scheduler/filters/test_num_instances_filters.py TestNumInstancesFilter).
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { CODE_TOO_MANY_INSTANCES, create, NAME, REASON_TOO_MANY_INSTANCES } from './index';

interface Case {
  readonly name: string;
  readonly max: number | undefined;
  readonly count: number;
  readonly metadata: Record<string, string>[];
  readonly want: boolean;
}

describe(NAME, () => {
  it.each<Case>([
    { name: 'fewer than the maximum passes', max: 5, count: 4, metadata: [], want: true },
    { name: 'the maximum reached fails', max: 5, count: 5, metadata: [], want: false },
    { name: 'above the maximum fails', max: 5, count: 6, metadata: [], want: false },
    {
      name: 'aggregate metadata is ignored',
      max: 5,
      count: 5,
      metadata: [{ max_instances_per_host: '9' }],
      want: false,
    },
    { name: 'a maximum of 0 admits nothing', max: 0, count: 0, metadata: [], want: false },
    { name: 'default maximum 50', max: undefined, count: 49, metadata: [], want: true },
    { name: 'default maximum 50 reached', max: undefined, count: 50, metadata: [], want: false },
  ])('$name', ({ max, count, metadata, want }) => {
    const plugin = buildPlugin(create, NAME, max === undefined ? {} : { maxInstancesPerHost: max });
    const host = buildHostView({
      providers: [{ uuid: 'cn1', name: 'compute-1' }],
      aggregates: metadata.map((m, i) => ({ uuid: `agg${i}`, metadata: m })),
      numInstances: count,
    });
    const verdict = verdictOf(plugin, host, buildRequestSpec());
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.code).toBe(CODE_TOO_MANY_INSTANCES);
      expect(verdict.reason).toMatch(
        new RegExp(`^${REASON_TOO_MANY_INSTANCES}: ${count} instances, max \\d+$`),
      );
    }
  });

  it.each([-1, 1.5, '8'])('rejects maxInstancesPerHost = %p at start-up', (bad) => {
    expect(() => buildPlugin(create, NAME, { maxInstancesPerHost: bad })).toThrow(
      `${NAME}: config "maxInstancesPerHost"`,
    );
  });
});
