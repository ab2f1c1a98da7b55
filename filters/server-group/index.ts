// The two soft server-group weighers: a host's raw weight is the number of the group's members it
// runs, positive for soft-affinity, negative for soft-anti-affinity (Nova's
// _SoftAffinityWeigherBase). Nova refuses a negative multiplier for both; so does berth.
import { readNumberOrThrow } from '../../src/scheduler/helpers';
import type { ServerGroupView, WeigherFactory } from '../../src/scheduler/plugin-api';

/** What distinguishes the two weighers. */
export interface ServerGroupWeigherSpec {
  readonly name: string;
  readonly policy: ServerGroupView['policy'];
  readonly sign: 1 | -1;
  readonly multiplierKey: string;
}

/** Factory of a soft server-group weigher. @throws Error for a negative or non-numeric multiplier. */
export function serverGroupWeigher(spec: ServerGroupWeigherSpec): WeigherFactory {
  return (_config, handle) => {
    const multiplier = readNumberOrThrow(handle, 'multiplier', 1);
    if (multiplier < 0) {
      throw new Error(
        `${spec.name}: config "multiplier" must not be negative (got ${multiplier}); the policy says which way members go`,
      );
    }
    return {
      name: spec.name,
      kind: 'weigher',
      multiplier,
      multiplierMetadataKey: spec.multiplierKey,
      weigh(host, req) {
        const group = req.serverGroup;
        const members = group?.policy === spec.policy ? (group.hosts[host.uuid] ?? 0) : 0;
        return members === 0 ? 0 : spec.sign * members;
      },
    };
  };
}
