// AggregateNumInstancesFilter: as NumInstancesFilter, with the maximum overridden by the lowest
// `max_instances_per_host` in the host's aggregate metadata, read as Nova reads it: whole values
// (no comma lists) cast with Python's `int()`; when any value is not an integer, the configured
// maximum (upstream: nova/scheduler/filters/num_instances_filter.py AggregateNumInstancesFilter,
// nova/scheduler/filters/utils.py validate_num_values).
import { configKeys } from '../../src/scheduler/helpers';
import { countFilter, countFilterConfig, instances } from '../host-counts';
import {
  CODE_TOO_MANY_INSTANCES,
  DEFAULT_MAX,
  REASON_TOO_MANY_INSTANCES,
} from '../num-instances-filter/index';

const CONFIG = countFilterConfig('maxInstancesPerHost', DEFAULT_MAX);
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
export const CONFIG_KEYS = configKeys(CONFIG);

/** Nova's default maximum and the rejection reason and code, as NumInstancesFilter's. */
export { CODE_TOO_MANY_INSTANCES, DEFAULT_MAX, REASON_TOO_MANY_INSTANCES };

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AggregateNumInstancesFilter';
/** Plugin kind. */
export const kind = 'filter';
/** Configuration keys: `maxInstancesPerHost` (Nova's `[filter_scheduler] max_instances_per_host`). */

/** Aggregate metadata key overriding the maximum per host (lowest integer value wins). */
export const METADATA_KEY = 'max_instances_per_host';

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
  metadataKey: METADATA_KEY,
  reason: REASON_TOO_MANY_INSTANCES,
  code: CODE_TOO_MANY_INSTANCES,
  noun: 'instances',
});
