// AllHostsFilter: passes every host, Nova's no-op filter (upstream:
// nova/scheduler/filters/all_hosts_filter.py), for configurations carried over from Nova.
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AllHostsFilter';
/** Plugin kind. */
export const kind = 'filter';
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS: readonly string[] = [];

/** Creates the filter; it takes no configuration and rejects no host (so it has no REASON_*). */
export const create: FilterFactory = () => ({
  name: NAME,
  kind,
  onError: 'open',
  filter: () => ({ fits: true }),
});
