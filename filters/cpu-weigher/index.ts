// CPUWeigher: weighs hosts by free VCPU on the tree as Nova does, `total * allocation ratio -
// reserved - used`, with Nova's minval 0; positive multiplier spreads, negative packs (upstream:
// nova/scheduler/weights/cpu.py).
import { configKeys } from '../../src/scheduler/helpers';
import { CAPACITY_WEIGHER_CONFIG, capacityWeigher, overcommittedFree } from '../capacity';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'CPUWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/** The configuration schema (`multiplier`); any other key stops start-up. */
export const configSchema = () => CAPACITY_WEIGHER_CONFIG;
export const CONFIG_KEYS = configKeys(CAPACITY_WEIGHER_CONFIG);

/** Resource class weighed. */
export const RESOURCE_CLASS = 'VCPU';
/** Aggregate metadata key overriding the multiplier per host (Nova `cpu_weight_multiplier`). */
export const MULTIPLIER_KEY = 'cpu_weight_multiplier';

/** Creates the weigher. Config: `multiplier` (default 1.0). @throws Error for a non-finite multiplier. */
export const create = capacityWeigher({
  name: NAME,
  resourceClass: RESOURCE_CLASS,
  multiplierKey: MULTIPLIER_KEY,
  free: overcommittedFree,
});
