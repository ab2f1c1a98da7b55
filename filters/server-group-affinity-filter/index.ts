// ServerGroupAffinityFilter: for a request into an `affinity` server group (ScheduleInput.group),
// only the hosts already running a member pass; the group's first member goes anywhere
// (upstream: nova/scheduler/filters/affinity_filter.py ServerGroupAffinityFilter). Members count
// where they have allocations (request.serverGroup.hosts). `schedule` re-checks the policy when it
// writes the claim, so racing schedulers cannot split the group. A moving member's own host is not
// a group host (Nova's instance_group.hosts includes it, nova/scheduler/utils.py:1192 with
// objects/instance_group.py get_hosts: a lone member could then only stay where it is).
import { configKeys, pluginConfig } from '../../src/scheduler/helpers';
import type { FilterFactory } from '../../src/scheduler/plugin-api';

/** Nova-compatible name, as written in `enabledFilters`. */
export const NAME = 'ServerGroupAffinityFilter';
/** Plugin kind. */
export const kind = 'filter';
const CONFIG = pluginConfig({});
/** The configuration schema: empty (any key stops start-up). */
export const configSchema = () => CONFIG;
/** Takes no configuration: any key given for it stops start-up. */
export const CONFIG_KEYS = configKeys(CONFIG);

/** Rejection: the group's members run elsewhere. */
export const REASON_NOT_GROUP_HOST = 'runs no member of the affinity server group';
/** Reason code of that rejection. */
export const CODE_NOT_GROUP_HOST = 'server_group.affinity';

/** Creates the filter; it takes no configuration. */
export const create: FilterFactory = () => ({
  name: NAME,
  kind,
  onError: 'closed',
  filter(host, req) {
    const group = req.serverGroup;
    if (group?.policy !== 'affinity') {
      return { fits: true };
    }
    const hosts = Object.keys(group.hosts);
    if (hosts.length === 0 || (group.hosts[host.uuid] ?? 0) > 0) {
      return { fits: true };
    }
    return {
      fits: false,
      reason: `${REASON_NOT_GROUP_HOST} ${group.uuid} (its members run on ${hosts.join(', ')})`,
      code: CODE_NOT_GROUP_HOST,
    };
  },
});
