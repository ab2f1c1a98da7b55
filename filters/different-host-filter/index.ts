// DifferentHostFilter: with the hint `different_host` (instance uuids), hosts running any of those
// instances are out; without it every host passes (upstream: nova/scheduler/filters/
// affinity_filter.py DifferentHostFilter). berth's "instances on a host" are the consumers with
// allocations in the host's provider tree (request.instanceHosts).
import { configKeys, hostsOfHintedInstances, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'DifferentHostFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** The scheduler hint read. */
export const HINT = 'different_host';
/** Rejection: one of the hinted instances runs on the host. */
export const REASON_SAME_HOST = 'runs a different_host instance';
/** Reason code of that rejection. */
export const CODE_SAME_HOST = 'different_host.same_host';

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory<ReadonlySet<string> | undefined> = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  prepare: (req) => hostsOfHintedInstances(req, HINT),
  filter(host, req, hosts) {
    if (!hosts?.has(host.uuid)) {
      return { fits: true };
    }
    const here = req.hints[HINT]!.filter((u) => req.instanceHosts[u]?.includes(host.uuid));
    return {
      fits: false,
      reason: `${REASON_SAME_HOST}: the host runs ${here.join(', ')}`,
      code: CODE_SAME_HOST,
    };
  },
});
