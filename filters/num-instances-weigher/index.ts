// NumInstancesWeigher: weighs hosts by the number of consumers with allocations on the tree
// (HostView.numInstances), with minval 0 (normalised from 0); the default multiplier 0.0 makes it
// a no-op, a positive one packs, a negative one spreads (upstream: nova/scheduler/weights/
// num_instances.py of a later Nova; Nova 26 has none).
import { configKeys } from '../../src/scheduler/helpers';
import { countWeigher, countWeigherConfig, instances } from '../host-counts';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'NumInstancesWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/** Configuration keys (`multiplier`, Nova's `[filter_scheduler] num_instances_weight_multiplier`). */

/** Aggregate metadata key overriding the multiplier per host (Nova `num_instances_weight_multiplier`). */
export const MULTIPLIER_KEY = 'num_instances_weight_multiplier';
/** Nova's default multiplier. */
export const DEFAULT_MULTIPLIER = 0;
const CONFIG = countWeigherConfig(DEFAULT_MULTIPLIER);
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
export const CONFIG_KEYS = configKeys(CONFIG);

/** Creates the weigher. Config: `multiplier` (default 0). @throws Error for a non-finite multiplier. */
export const create = countWeigher({
  name: NAME,
  count: instances,
  multiplierKey: MULTIPLIER_KEY,
  defaultMultiplier: DEFAULT_MULTIPLIER,
});
