// RAMWeigher: weighs hosts by free MEMORY_MB on the tree as Nova's `free_ram_mb` counts it,
// `total - reserved - used` (no allocation ratio), with Nova's minval 0; positive multiplier
// spreads, negative packs (upstream: nova/scheduler/weights/ram.py).
import { configKeys } from '../../src/scheduler/helpers';
import { CAPACITY_WEIGHER_CONFIG, capacityWeigher, physicalFree } from '../capacity';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'RAMWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/** The configuration schema (`multiplier`); any other key stops start-up. */
export const configSchema = () => CAPACITY_WEIGHER_CONFIG;
export const CONFIG_KEYS = configKeys(CAPACITY_WEIGHER_CONFIG);

/** Resource class weighed. */
export const RESOURCE_CLASS = 'MEMORY_MB';
/** Aggregate metadata key overriding the multiplier per host (Nova `ram_weight_multiplier`). */
export const MULTIPLIER_KEY = 'ram_weight_multiplier';

/** Creates the weigher. Config: `multiplier` (default 1.0). @throws Error for a non-finite multiplier. */
export const create = capacityWeigher({
  name: NAME,
  resourceClass: RESOURCE_CLASS,
  multiplierKey: MULTIPLIER_KEY,
  free: physicalFree,
});
