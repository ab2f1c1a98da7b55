// What stands in the filter list: host filters (with `filter`) and pre-candidate hooks alone.
import type { FilterPlugin, FilterStage, SchedulerPlugin } from '../plugin-api';

/** True when a filter-list plugin judges hosts (it has `filter`). */
export function isHostFilter(stage: FilterStage): stage is FilterPlugin<unknown> {
  return typeof (stage as Partial<FilterPlugin<unknown>>).filter === 'function';
}

/** Narrows any plugin to a host filter, or throws naming what it is instead. */
export function asHostFilter(plugin: SchedulerPlugin): FilterPlugin<unknown> {
  if (plugin.kind !== 'filter' || !isHostFilter(plugin)) {
    throw new Error(`${plugin.name} is not a host filter (it has no filter())`);
  }
  return plugin;
}
