// IoOpsWeigher: weighs hosts by the number of consumers in a move on the tree (HostView.numIoOps),
// with Nova's minval 0 (normalised from 0, not from the fewest); Nova's default multiplier -1.0
// prefers hosts with fewer (upstream: nova/scheduler/weights/io_ops.py).
import { configKeys } from '../../src/scheduler/helpers';
import { countWeigher, countWeigherConfig, ioOps } from '../host-counts';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'IoOpsWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/** Configuration keys: `multiplier` (Nova's `[filter_scheduler] io_ops_weight_multiplier`), `countMovesOn`. */

/** Aggregate metadata key overriding the multiplier per host (Nova `io_ops_weight_multiplier`). */
export const MULTIPLIER_KEY = 'io_ops_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = -1;
const CONFIG = countWeigherConfig(DEFAULT_MULTIPLIER);
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
export const CONFIG_KEYS = configKeys(CONFIG);

/** Creates the weigher. Config: `multiplier` (default -1). @throws Error for a non-finite multiplier. */
export const create = countWeigher({
  name: NAME,
  count: ioOps,
  multiplierKey: MULTIPLIER_KEY,
  defaultMultiplier: DEFAULT_MULTIPLIER,
});
