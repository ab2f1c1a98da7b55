// Table tests for AggregateNumInstancesFilter (after nova/tests/unit/scheduler/filters/test_num_instances_filters.py TestAggregateNumInstancesFilter).
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
    {
      name: 'no aggregate value: the configured maximum',
      max: 4,
      count: 5,
      metadata: [],
      want: false,
    },
    {
      name: 'an aggregate value raises the maximum',
      max: 4,
      count: 5,
      metadata: [{ max_instances_per_host: '6' }],
      want: true,
    },
    {
      name: 'the lowest aggregate value wins',
      max: 4,
      count: 5,
      metadata: [{ max_instances_per_host: '6' }, { max_instances_per_host: '5' }],
      want: false,
    },
    {
      name: 'a non-numeric value falls back to the configured maximum',
      max: 6,
      count: 5,
      metadata: [{ max_instances_per_host: 'XXX' }],
      want: true,
    },
    {
      name: 'an aggregate value lowers the maximum',
      max: 50,
      count: 5,
      metadata: [{ max_instances_per_host: '5' }],
      want: false,
    },
    {
      name: 'a float value is not an int: the configured maximum (Nova int())',
      max: 4,
      count: 3,
      metadata: [{ max_instances_per_host: '3.5' }],
      want: true,
    },
    {
      name: 'one bad value of two: the configured maximum, not the other',
      max: 4,
      count: 3,
      metadata: [{ max_instances_per_host: '0' }, { max_instances_per_host: '1.5' }],
      want: true,
    },
    {
      name: 'a comma list is one value, not an int: the configured maximum',
      max: 4,
      count: 3,
      metadata: [{ max_instances_per_host: '3,5' }],
      want: true,
    },
    {
      name: 'Python int() syntax: blanks, sign, underscores',
      max: 50,
      count: 10,
      metadata: [{ max_instances_per_host: ' +1_0 ' }],
      want: false,
    },
    {
      name: 'a valid 0 admits nothing',
      max: 4,
      count: 0,
      metadata: [{ max_instances_per_host: '0' }],
      want: false,
    },
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
