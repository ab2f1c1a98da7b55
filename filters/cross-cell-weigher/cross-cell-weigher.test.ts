// Table tests for CrossCellWeigher (after nova/tests/unit/scheduler/weights/test_cross_cell.py):
// host1 in cell1, host2 in cell2 (aggregate metadata `cell`); the preferred cell and the
// permission come as hints.

import type { HostView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPipeline, createRegistry } from '../../src/scheduler/runtime/registry';
import { buildPlugin, runPipeline } from '../../test/support/plugin';
import * as weigher from './index';

const { ALLOW_HINT, CELL_HINT, create, DEFAULT_MULTIPLIER, MULTIPLIER_KEY, NAME, preferredCell } =
  weigher;

const inCell = (name: string, ...cells: string[]): HostView =>
  buildHostView({
    providers: [{ uuid: name, name }],
    aggregates: cells.map((cell, i) => ({ uuid: `${name}-a${i}`, metadata: { cell } })),
  });
const HOSTS = [inCell('host1', 'cell1'), inCell('host2', 'cell2')];

async function weights(hints: Record<string, string[]>, config: Record<string, unknown> = {}) {
  const pipeline = buildPipeline(createRegistry([weigher]), {
    enabledFilters: [],
    enabledWeighers: [NAME],
    plugins: { [NAME]: config },
  });
  const ranked = (await runPipeline(pipeline, HOSTS, buildRequestSpec({ hints }))).hosts;
  return ranked.map((r) => [r.host.name, r.weight]);
}

describe(NAME, () => {
  it.each<[string, Record<string, string[]>]>([
    ['no hints (a create)', {}],
    ['a cell without permission', { [CELL_HINT]: ['cell1'] }],
    ['permission without a cell', { [ALLOW_HINT]: ['true'] }],
    ['permission false', { [CELL_HINT]: ['cell1'], [ALLOW_HINT]: ['false'] }],
    ['an empty cell', { [CELL_HINT]: [''], [ALLOW_HINT]: ['true'] }],
  ])('weighs every host 0 for %s', async (_name, hints) => {
    expect((await weights(hints)).map(([, w]) => w)).toEqual([0, 0]);
  });

  it('prefers the source cell by the default multiplier', async () => {
    const hints = { [CELL_HINT]: ['cell1'], [ALLOW_HINT]: ['true'] };
    expect(await weights(hints)).toEqual([
      ['host1', DEFAULT_MULTIPLIER],
      ['host2', 0],
    ]);
  });

  it('prefers other cells with a negative multiplier', async () => {
    const hints = { [CELL_HINT]: ['cell1'], [ALLOW_HINT]: ['True'] };
    expect(await weights(hints, { multiplier: -1000 })).toEqual([
      ['host2', 0],
      ['host1', -1000],
    ]);
  });

  it.each<[string, HostView, number]>([
    ['in the cell', inCell('h', 'cell1'), 1],
    ['in another cell', inCell('h', 'cell2'), -1],
    ['in no cell', inCell('h'), -1],
    ['in two cells (misconfigured)', inCell('h', 'cell1', 'cell2'), -1],
    ['in the cell twice', inCell('h', 'cell1', 'cell1'), 1],
  ])('weighs a host %s', (_name, host, want) => {
    const spec = buildRequestSpec({ hints: { [CELL_HINT]: ['cell1'], [ALLOW_HINT]: ['yes'] } });
    const w = buildPlugin(create, NAME);
    expect(w.weigh(host, spec, preferredCell(spec))).toBe(want);
  });

  it("defaults the multiplier to Nova's 1000000.0 and names its aggregate key (Nova test_multiplier)", () => {
    const w = buildPlugin(create, NAME);
    expect(w.multiplier).toBe(1000000);
    expect(w.multiplierMetadataKey).toBe(MULTIPLIER_KEY);
    expect(MULTIPLIER_KEY).toBe('cross_cell_move_weight_multiplier');
  });

  it('rejects a non-numeric multiplier at start-up', () => {
    expect(() => buildPlugin(create, NAME, { multiplier: 'x' })).toThrow(
      `${NAME}: config "multiplier"`,
    );
  });
});
