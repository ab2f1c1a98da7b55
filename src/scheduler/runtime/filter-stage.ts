// What stands in the filter list: host filters (with `filter`) and pre-candidate hooks alone.
import type { FilterPlugin, FilterStage } from '../plugin-api';

/** True when a filter-list plugin judges hosts (it has `filter`). */
export function isHostFilter(stage: FilterStage): stage is FilterPlugin<unknown> {
  return typeof (stage as Partial<FilterPlugin<unknown>>).filter === 'function';
}
