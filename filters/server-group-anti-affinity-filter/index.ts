// ServerGroupAntiAffinityFilter: for a request into an `anti-affinity` server group
// (ScheduleInput.group), a host passes while it runs fewer than `max_server_per_host` members
// (default 1) (upstream: nova/scheduler/filters/affinity_filter.py ServerGroupAntiAffinityFilter).
// Members count where they have allocations (request.serverGroup.hosts). `schedule` re-checks the
// policy when it writes the claim, so racing schedulers never put two members on one host. A
// moving member does not count against its own host, but that host gets no exemption either (Nova
// passes it whatever else runs there, affinity_filter.py:98-99; the claim-time check would not).
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'ServerGroupAntiAffinityFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Rejection: the host already runs as many members as the group allows. */
export const REASON_GROUP_FULL = 'already runs';
/** Reason code of that rejection. */
export const CODE_GROUP_FULL = 'server_group.anti_affinity';

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  filter(host, req) {
    const group = req.serverGroup;
    if (group?.policy !== 'anti-affinity') {
      return { fits: true };
    }
    const members = group.hosts[host.uuid] ?? 0;
    if (members < group.maxServerPerHost) {
      return { fits: true };
    }
    return {
      fits: false,
      reason: `${REASON_GROUP_FULL} ${members} member(s) of anti-affinity server group ${group.uuid} (max_server_per_host ${group.maxServerPerHost})`,
      code: CODE_GROUP_FULL,
    };
  },
});
