// IoOpsFilter: passes hosts with fewer than `maxIoOpsPerHost` consumers in a move on the tree (berth's analog of
// Nova's instances in build/resize/migrate task states: HostView.numIoOps)
// (upstream: nova/scheduler/filters/io_ops_filter.py IoOpsFilter).
import { configKeys } from '../../src/scheduler/helpers';
import { countFilter, countFilterConfig, ioOps } from '../host-counts';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'IoOpsFilter';
/** Plugin kind. */
export const kind = 'filter';
/** Configuration keys: `maxIoOpsPerHost` (Nova's `[filter_scheduler] max_io_ops_per_host`). */

/** Nova's default maximum. */
export const DEFAULT_MAX = 8;
const CONFIG = countFilterConfig('maxIoOpsPerHost', DEFAULT_MAX);
/** The configuration schema; its keys are the configuration keys (any other stops start-up). */
export const configSchema = () => CONFIG;
export const CONFIG_KEYS = configKeys(CONFIG);
/** Rejection: the host has reached the maximum. */
export const REASON_TOO_MANY_IO_OPS = 'too many concurrent I/O-heavy operations on the host';
/** Reason code of that rejection. */
export const CODE_TOO_MANY_IO_OPS = 'io_ops.too_many';

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
  reason: REASON_TOO_MANY_IO_OPS,
  code: CODE_TOO_MANY_IO_OPS,
  noun: 'moves in progress',
});
