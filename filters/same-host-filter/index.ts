// SameHostFilter: with the hint `same_host` (instance uuids), only hosts running at least one of
// those instances pass; without it every host passes (upstream: nova/scheduler/filters/
// affinity_filter.py SameHostFilter). berth's "instances on a host" are the consumers with
// allocations in the host's provider tree (request.instanceHosts).
import { configKeys, hostsOfHintedInstances, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'SameHostFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** The scheduler hint read. */
export const HINT = 'same_host';
/** Rejection: none of the hinted instances runs on the host. */
export const REASON_NOT_SAME_HOST = 'runs none of the same_host instances';
/** Reason code of that rejection. */
export const CODE_NOT_SAME_HOST = 'same_host.not_same_host';

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory<ReadonlySet<string> | undefined> = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  prepare: (req) => hostsOfHintedInstances(req, HINT),
  filter(host, req, hosts) {
    if (!hosts || hosts.has(host.uuid)) {
      return { fits: true };
    }
    return {
      fits: false,
      reason: `${REASON_NOT_SAME_HOST}: the host runs none of ${req.hints[HINT]!.join(', ')}`,
      code: CODE_NOT_SAME_HOST,
    };
  },
});
