// ServerGroupSoftAffinityWeigher: for a request into a `soft-affinity` server group, a host weighs
// the number of members it runs, so members gather where they can (upstream: nova/scheduler/
// weights/affinity.py ServerGroupSoftAffinityWeigher). 0 for every host otherwise.
import { CONFIG_KEYS, configSchema, serverGroupWeigher } from '../server-group/index';

/** Nova-compatible name, as written in `enabledWeighers`. */
export const NAME = 'ServerGroupSoftAffinityWeigher';
/** Plugin kind. */
export const kind = 'weigher';
/**
 * Configuration keys: `multiplier` (Nova's `soft_affinity_weight_multiplier`) and
 * `countMovingMembers` (count a moving member on its current host, as Nova does; default false).
 */
export { CONFIG_KEYS, configSchema };

/** Aggregate metadata key overriding the multiplier per host (Nova's name). */
export const MULTIPLIER_KEY = 'soft_affinity_weight_multiplier';

/** Creates the weigher. Config: `multiplier` (default 1.0, must not be negative), `countMovingMembers`. */
export const create = serverGroupWeigher({
  name: NAME,
  policy: 'soft-affinity',
  sign: 1,
  multiplierKey: MULTIPLIER_KEY,
});
