// The two soft server-group weighers: a host's raw weight is the number of the group's members it
// runs, positive for soft-affinity, negative for soft-anti-affinity (Nova's
// _SoftAffinityWeigherBase, nova/scheduler/weights/affinity.py). Nova refuses a negative
// multiplier for both; so does berth. During a move Nova also counts the moving instance on the
// host it runs on (`host_state.instances` includes it); berth does not unless configured to
// (`countMovingMembers`): a member is not its own neighbour.
import {
  booleanField,
  configKeys,
  numberField,
  pluginConfig,
  withConfig,
} from '../../src/scheduler/helpers';
import type { ServerGroupView, WeigherFactory } from '../../src/scheduler/plugin-api';

/** The configuration of both weighers. */
export const SERVER_GROUP_WEIGHER_CONFIG = pluginConfig({
  multiplier: numberField(1, 'how strongly members are drawn together or apart; not negative'),
  countMovingMembers: booleanField(
    false,
    "count the request's own moving members on their current hosts, as Nova does",
  ),
});
/** The configuration schema of both weighers; its keys are the configuration keys. */
export const configSchema = () => SERVER_GROUP_WEIGHER_CONFIG;
/** Configuration keys of both weighers. */
export const CONFIG_KEYS = configKeys(SERVER_GROUP_WEIGHER_CONFIG);

/** What distinguishes the two weighers. */
export interface ServerGroupWeigherSpec {
  readonly name: string;
  readonly policy: ServerGroupView['policy'];
  readonly sign: 1 | -1;
  readonly multiplierKey: string;
}

/**
 * The members of `group` on `host`: those placed before this request, plus, with
 * `countMoving`, this request's own consumers that are members with allocations there (Nova).
 */
export function membersOn(group: ServerGroupView, host: string, countMoving: boolean): number {
  const placed = group.hosts[host] ?? 0;
  return countMoving ? placed + (group.placingHosts?.[host] ?? 0) : placed;
}

/**
 * Factory of a soft server-group weigher. Config: `multiplier` (default 1, not negative),
 * `countMovingMembers` (default false; true counts a moving member on its current host, as Nova).
 * @throws Error for a negative or non-numeric multiplier, or a non-boolean `countMovingMembers`.
 */
export function serverGroupWeigher(spec: ServerGroupWeigherSpec): WeigherFactory {
  return withConfig(SERVER_GROUP_WEIGHER_CONFIG, (config) => {
    const multiplier = config.multiplier;
    if (multiplier < 0) {
      throw new Error(
        `${spec.name}: config "multiplier" must not be negative (got ${multiplier}); the policy says which way members go`,
      );
    }
    const countMoving = config.countMovingMembers;
    return {
      name: spec.name,
      kind: 'weigher',
      multiplier,
      multiplierMetadataKey: spec.multiplierKey,
      weigh(host, req) {
        const group = req.serverGroup;
        const members =
          group?.policy === spec.policy ? membersOn(group, host.uuid, countMoving) : 0;
        return members === 0 ? 0 : spec.sign * members;
      },
    };
  });
}
