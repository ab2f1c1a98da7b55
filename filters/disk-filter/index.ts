// DiskFilter: enough free DISK_GB on the host's tree, with disk_allocation_ratio overridable per aggregate
// (upstream: nova/scheduler/filters/disk_filter.py DiskFilter + AggregateDiskFilter, Nova <= 18).
import { freeCapacityWithOverride, requestedAmount } from '../../src/scheduler/helpers';
import type { FilterPlugin, PluginFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'DiskFilter';
/** Plugin kind. */
export const kind = 'filter';

/** Resource class checked. */
export const RESOURCE_CLASS = 'DISK_GB';
/** Aggregate metadata key overriding the inventories' allocation ratio (lowest value wins). */
export const RATIO_KEY = 'disk_allocation_ratio';

/** Rejection: not enough free disk. */
export const REASON_INSUFFICIENT_DISK = 'insufficient free disk';

/** Creates the filter; it takes no configuration. */
export const create: PluginFactory = () =>
  ({
    name: NAME,
    kind,
    onError: 'closed',
    filter(host, req) {
      const wanted = requestedAmount(req, RESOURCE_CLASS);
      if (wanted <= 0) {
        return { fits: true };
      }
      const { free, ratio } = freeCapacityWithOverride(host, RESOURCE_CLASS, RATIO_KEY);
      if (free >= wanted) {
        return { fits: true };
      }
      const how =
        ratio === undefined ? 'inventory allocation ratio' : `aggregate ${RATIO_KEY}=${ratio}`;
      return {
        fits: false,
        reason: `${REASON_INSUFFICIENT_DISK}: wanted ${wanted} GB, found ${free} GB free (${how})`,
      };
    },
  }) satisfies FilterPlugin;
