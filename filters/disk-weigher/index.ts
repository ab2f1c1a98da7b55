// DiskWeigher: weighs hosts by free DISK_GB on the tree as Nova's `free_disk_mb` counts it,
// `total - reserved - used` (no allocation ratio; in GB, Nova's MB weigh the same once
// normalised), with Nova's minval 0; positive multiplier spreads, negative packs (upstream:
// nova/scheduler/weights/disk.py).
import { configKeys } from '../../src/scheduler/helpers';
import { CAPACITY_WEIGHER_CONFIG, capacityWeigher, physicalFree } from '../capacity';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'DiskWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/** The configuration schema (`multiplier`); any other key stops start-up. */
export const configSchema = () => CAPACITY_WEIGHER_CONFIG;
export const CONFIG_KEYS = configKeys(CAPACITY_WEIGHER_CONFIG);

/** Resource class weighed. */
export const RESOURCE_CLASS = 'DISK_GB';
/** Aggregate metadata key overriding the multiplier per host (Nova `disk_weight_multiplier`). */
export const MULTIPLIER_KEY = 'disk_weight_multiplier';

/** Creates the weigher. Config: `multiplier` (default 1.0). @throws Error for a non-finite multiplier. */
export const create = capacityWeigher({
  name: NAME,
  resourceClass: RESOURCE_CLASS,
  multiplierKey: MULTIPLIER_KEY,
  free: physicalFree,
});
