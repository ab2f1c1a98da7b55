// NumInstancesFilter: passes hosts with fewer than `maxInstancesPerHost` consumers with allocations on the tree
// (upstream: nova/scheduler/filters/num_instances_filter.py NumInstancesFilter).
import { configKeys } from '../../src/scheduler/helpers';
import { countFilter, countFilterConfig, instances } from '../host-counts';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'NumInstancesFilter';
/** Plugin kind. */
export const kind = 'filter';
/** Configuration keys: `maxInstancesPerHost` (Nova's `[filter_scheduler] max_instances_per_host`). */

/** Nova's default maximum. */
export const DEFAULT_MAX = 50;
const CONFIG = countFilterConfig('maxInstancesPerHost', DEFAULT_MAX);
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
export const CONFIG_KEYS = configKeys(CONFIG);
/** Rejection: the host has reached the maximum. */
export const REASON_TOO_MANY_INSTANCES = 'too many instances on the host';
/** Reason code of that rejection. */
export const CODE_TOO_MANY_INSTANCES = 'num_instances.too_many';

/**
 * Creates the filter. Config: `maxInstancesPerHost` (default 50), `countMovesOn` (`both`, or
 * `source`: Nova's count, see host-counts).
 * @throws Error when it is not a whole number >= 0.
 */
export const create = countFilter({
  name: NAME,
  count: instances,
  configKey: 'maxInstancesPerHost',
  defaultMax: DEFAULT_MAX,
  reason: REASON_TOO_MANY_INSTANCES,
  code: CODE_TOO_MANY_INSTANCES,
  noun: 'instances',
});
