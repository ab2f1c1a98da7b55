// IoOpsWeigher: weighs hosts by the number of consumers in a move on the tree (HostView.numIoOps),
// with Nova's minval 0 (normalised from 0, not from the fewest); Nova's default multiplier -1.0
// prefers hosts with fewer (upstream: nova/scheduler/weights/io_ops.py).
import { countWeigher, ioOps } from '../host-counts';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'IoOpsWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/** Configuration keys: `multiplier` (Nova's `[filter_scheduler] io_ops_weight_multiplier`), `countMovesOn`. */
export const CONFIG_KEYS: readonly string[] = ['multiplier', 'countMovesOn'];

/** Aggregate metadata key overriding the multiplier per host (Nova `io_ops_weight_multiplier`). */
export const MULTIPLIER_KEY = 'io_ops_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = -1;

/** Creates the weigher. Config: `multiplier` (default -1). @throws Error for a non-finite multiplier. */
export const create = countWeigher({
  name: NAME,
  count: ioOps,
  multiplierKey: MULTIPLIER_KEY,
  defaultMultiplier: DEFAULT_MULTIPLIER,
});
