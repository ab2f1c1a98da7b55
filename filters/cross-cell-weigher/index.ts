// CrossCellWeigher: during a move allowed to cross cells, prefers hosts in the instance's current
// cell (upstream: nova/scheduler/weights/cross_cell.py). A host weighs 1 in the preferred cell, -1
// in another, 0 when the request is not such a move. berth has no cells: a host's cell is the value
// of aggregate metadata `cell` on its aggregates (one value; none or several = not in the cell).
// Nova reads the preferred cell from RequestSpec.requested_destination, which its conductor sets;
// berth's caller gives it as the hints `requested_destination_cell` (the cell) and
// `allow_cross_cell_move` (`true`, as oslo reads booleans), both needed, as in Nova.
import { configKeys, numberField, pluginConfig, withConfig } from '../../src/scheduler/helpers';
import type { RequestSpec, WeigherFactory } from '../../src/scheduler/plugin-api';
import { CELL_KEY, cellOf } from '../host-state';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'CrossCellWeigher';
/** Plugin kind. */
export const kind = 'weigher';

/** Aggregate metadata key overriding the multiplier per host (Nova `cross_cell_move_weight_multiplier`). */
export const MULTIPLIER_KEY = 'cross_cell_move_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = 1000000;
/** The hint naming the preferred (source) cell. */
export const CELL_HINT = 'requested_destination_cell';
/** The hint allowing the move to cross cells. */
export const ALLOW_HINT = 'allow_cross_cell_move';
/** The aggregate metadata key naming a host's cell. */
export { CELL_KEY };

const TRUE_STRINGS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

/** The preferred cell of a cross-cell move, or null when the request is not one. */
export function preferredCell(req: RequestSpec): string | null {
  const cell = req.hints[CELL_HINT];
  const allow = req.hints[ALLOW_HINT];
  if (cell?.length !== 1 || cell[0]!.trim() === '' || allow?.length !== 1) {
    return null;
  }
  return TRUE_STRINGS.has(allow[0]!.trim().toLowerCase()) ? cell[0]!.trim() : null;
}

const CONFIG = pluginConfig({
  multiplier: numberField(DEFAULT_MULTIPLIER, 'Nova `cross_cell_move_weight_multiplier`'),
});
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
/** Configuration keys: `multiplier` (Nova's `cross_cell_move_weight_multiplier`). */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Creates the weigher. Config: `multiplier` (default 1000000.0). @throws Error for a non-finite multiplier. */
export const create: WeigherFactory<string | null> = withConfig(CONFIG, (config) => ({
  name: NAME,
  kind,
  multiplier: config.multiplier,
  multiplierMetadataKey: MULTIPLIER_KEY,
  prepare: preferredCell,
  weigh(host, _req, cell) {
    if (cell === null) {
      return 0;
    }
    return cellOf(host) === cell ? 1 : -1;
  },
}));
