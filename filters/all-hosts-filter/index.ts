// AllHostsFilter: passes every host, Nova's no-op filter (upstream:
// nova/scheduler/filters/all_hosts_filter.py), for configurations carried over from Nova.
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'AllHostsFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Creates the filter; it takes no configuration and rejects no host (so it has no REASON_*). */
export const create: FilterFactory = () => ({
  name: NAME,
  kind,
  onError: 'open',
  filter: () => ({ fits: true }),
});
