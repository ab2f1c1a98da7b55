// AggregateIoOpsFilter: as IoOpsFilter, with the maximum overridden by the lowest
// `max_io_ops_per_host` in the host's aggregate metadata, read as Nova reads it: whole values (no
// comma lists) cast with Python's `int()`; when any value is not an integer, the configured
// maximum (upstream: nova/scheduler/filters/io_ops_filter.py AggregateIoOpsFilter,
// nova/scheduler/filters/utils.py validate_num_values).
import { configKeys } from '../../src/scheduler/helpers';
import { countFilter, countFilterConfig, ioOps } from '../host-counts';
import { CODE_TOO_MANY_IO_OPS, DEFAULT_MAX, REASON_TOO_MANY_IO_OPS } from '../io-ops-filter/index';

const CONFIG = countFilterConfig('maxIoOpsPerHost', DEFAULT_MAX);
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
export const CONFIG_KEYS = configKeys(CONFIG);

/** Nova's default maximum and the rejection reason and code, as IoOpsFilter's. */
export { CODE_TOO_MANY_IO_OPS, DEFAULT_MAX, REASON_TOO_MANY_IO_OPS };

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AggregateIoOpsFilter';
/** Plugin kind. */
export const kind = 'filter';
/** Configuration keys: `maxIoOpsPerHost` (Nova's `[filter_scheduler] max_io_ops_per_host`). */

/** Aggregate metadata key overriding the maximum per host (lowest integer value wins). */
export const METADATA_KEY = 'max_io_ops_per_host';

/**
 * Creates the filter. Config: `maxIoOpsPerHost` (default 8), `countMovesOn` (`both`, or
 * `source`: Nova's count, see host-counts).
 * @throws Error when it is not a whole number >= 0.
 */
export const create = countFilter({
  name: NAME,
  count: ioOps,
  configKey: 'maxIoOpsPerHost',
  defaultMax: DEFAULT_MAX,
  metadataKey: METADATA_KEY,
  reason: REASON_TOO_MANY_IO_OPS,
  code: CODE_TOO_MANY_IO_OPS,
  noun: 'moves in progress',
});
