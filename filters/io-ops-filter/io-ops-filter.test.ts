// Table tests for IoOpsFilter (after nova/tests/unit/scheduler/filters/test_io_ops_filters.py TestNumInstancesFilter).
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { CODE_TOO_MANY_IO_OPS, create, NAME, REASON_TOO_MANY_IO_OPS } from './index';

interface Case {
  readonly name: string;
  readonly max: number | undefined;
  readonly count: number;
  readonly metadata: Record<string, string>[];
  readonly want: boolean;
}

describe(NAME, () => {
  it.each<Case>([
    { name: 'fewer than the maximum passes', max: 8, count: 7, metadata: [], want: true },
    { name: 'the maximum reached fails', max: 8, count: 8, metadata: [], want: false },
    { name: 'default maximum 8', max: undefined, count: 7, metadata: [], want: true },
    { name: 'default maximum 8 reached', max: undefined, count: 8, metadata: [], want: false },
  ])('$name', ({ max, count, metadata, want }) => {
    const plugin = buildPlugin(create, NAME, max === undefined ? {} : { maxIoOpsPerHost: max });
    const host = buildHostView({
      providers: [{ uuid: 'cn1', name: 'compute-1' }],
      aggregates: metadata.map((m, i) => ({ uuid: `agg${i}`, metadata: m })),
      numIoOps: count,
    });
    const verdict = verdictOf(plugin, host, buildRequestSpec());
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.code).toBe(CODE_TOO_MANY_IO_OPS);
      expect(verdict.reason).toMatch(
        new RegExp(`^${REASON_TOO_MANY_IO_OPS}: ${count} moves in progress, max \\d+$`),
      );
    }
  });

  it.each([
    { countMovesOn: undefined, want: false },
    { countMovesOn: 'both', want: false },
    { countMovesOn: 'source', want: true },
  ])(
    'countMovesOn $countMovesOn: 2 moves, 1 of them arriving, max 2 -> $want',
    ({ countMovesOn, want }) => {
      const config = { maxIoOpsPerHost: 2, ...(countMovesOn ? { countMovesOn } : {}) };
      const plugin = buildPlugin(create, NAME, config);
      const host = buildHostView({
        providers: [{ uuid: 'cn1', name: 'compute-1' }],
        numInstances: 5,
        numIoOps: 2,
        numMovesIn: 1,
      });
      expect(verdictOf(plugin, host, buildRequestSpec()).fits).toBe(want);
    },
  );

  it('rejects an unknown countMovesOn at start-up', () => {
    expect(() => buildPlugin(create, NAME, { countMovesOn: 'destination' })).toThrow(
      `${NAME}: config "countMovesOn" must be "both" or "source"`,
    );
  });

  it.each([-1, 1.5, '8'])('rejects maxIoOpsPerHost = %p at start-up', (bad) => {
    expect(() => buildPlugin(create, NAME, { maxIoOpsPerHost: bad })).toThrow(
      `${NAME}: config "maxIoOpsPerHost"`,
    );
  });
});
