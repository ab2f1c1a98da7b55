// RamFilter: enough free MEMORY_MB on the host's tree, with ram_allocation_ratio overridable per aggregate
// (upstream: nova/scheduler/filters/ram_filter.py RamFilter + AggregateRamFilter, Nova <= 18).
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import { capacityFilter } from '../capacity';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'RamFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Resource class checked. */
export const RESOURCE_CLASS = 'MEMORY_MB';
/** Aggregate metadata key overriding the inventories' allocation ratio (lowest value wins). */
export const RATIO_KEY = 'ram_allocation_ratio';

/** Rejection: not enough free memory. */
export const REASON_INSUFFICIENT_RAM = 'insufficient free RAM';
/** Reason code of that rejection. */
export const CODE_INSUFFICIENT_RAM = 'ram.insufficient';

/** Creates the filter; it takes no configuration. */
export const create = capacityFilter({
  name: NAME,
  resourceClass: RESOURCE_CLASS,
  ratioKey: RATIO_KEY,
  reason: REASON_INSUFFICIENT_RAM,
  code: CODE_INSUFFICIENT_RAM,
  unit: 'MB',
});
