// DiskFilter: enough free DISK_GB on the host's tree, with disk_allocation_ratio overridable per aggregate
// (upstream: nova/scheduler/filters/disk_filter.py DiskFilter + AggregateDiskFilter, Nova <= 18).
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import { capacityFilter } from '../capacity';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'DiskFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Resource class checked. */
export const RESOURCE_CLASS = 'DISK_GB';
/** Aggregate metadata key overriding the inventories' allocation ratio (lowest value wins). */
export const RATIO_KEY = 'disk_allocation_ratio';

/** Rejection: not enough free disk. */
export const REASON_INSUFFICIENT_DISK = 'insufficient free disk';
/** Reason code of that rejection. */
export const CODE_INSUFFICIENT_DISK = 'disk.insufficient';

/** Creates the filter; it takes no configuration. */
export const create = capacityFilter({
  name: NAME,
  resourceClass: RESOURCE_CLASS,
  ratioKey: RATIO_KEY,
  reason: REASON_INSUFFICIENT_DISK,
  code: CODE_INSUFFICIENT_DISK,
  unit: 'GB',
});
