// The claim-time check of server group policies (Nova re-checks late on the compute host and
// reschedules; berth checks where the claim is written). Runs inside the claim's transaction with
// the group row locked, so claims into one group are serialised and each sees where the previous
// ones placed their members: 32 schedulers racing into one anti-affinity group never put two
// members on one host. Soft policies are preferences (weighers) and are not checked.
import type { EntityManager } from 'typeorm';
import { ConflictError, ErrorCode, NotFoundError } from './errors';
import { insertMembers, lockGroup, memberHosts } from './server-group';

/** What the guard reads of a claim. */
export interface GroupedClaim {
  readonly consumerUuid: string;
  readonly projectId: string;
  /** Root provider uuid of the host the claim is for. */
  readonly hostUuid: string;
  /** The server group the consumer joins, if any. */
  readonly serverGroup?: string;
}

/**
 * Checks the claims in `claims` that name a server group against its hard policy (in claim
 * order, later claims of the batch seeing the earlier ones), and records their consumers as
 * members. Groups are locked in uuid order (no deadlock between batches naming several).
 * Returns the consumers that joined a group here (not members before).
 * @throws ConflictError SERVER_GROUP_POLICY when a claim would break `affinity` or
 *   `anti-affinity` (the scheduler then tries its next host); ConflictError SERVER_GROUP_MEMBER;
 *   NotFoundError for a deleted group or a group of another project (not disclosed).
 */
export async function enforceServerGroups(
  em: Pick<EntityManager, 'query'>,
  claims: readonly GroupedClaim[],
): Promise<Set<string>> {
  const joined = new Set<string>();
  const byGroup = new Map<string, GroupedClaim[]>();
  for (const c of claims) {
    if (c.serverGroup) {
      byGroup.set(c.serverGroup, [...(byGroup.get(c.serverGroup) ?? []), c]);
    }
  }
  for (const uuid of [...byGroup.keys()].sort()) {
    const grouped = byGroup.get(uuid)!;
    const group = await lockGroup(em, uuid);
    const placing = grouped.map((c) => c.consumerUuid);
    const hard = group.policy === 'affinity' || group.policy === 'anti-affinity';
    const hosts = hard ? await memberHosts(em, group.id, placing) : new Map<string, string[]>();
    for (const c of grouped) {
      if (c.projectId !== group.projectId) {
        // Read as an unknown group: another project's group is not disclosed.
        throw new NotFoundError(`No server group ${uuid}.`, ErrorCode.SERVER_GROUP_NOT_FOUND);
      }
      const here = hosts.get(c.hostUuid) ?? [];
      if (group.policy === 'affinity' && hosts.size > 0 && here.length === 0) {
        throw new ConflictError(
          `Server group ${uuid} (affinity): its members run on ${[...hosts.keys()].join(', ')}, not on host ${c.hostUuid}.`,
          ErrorCode.SERVER_GROUP_POLICY,
        );
      }
      const max = group.maxServerPerHost ?? 1;
      if (group.policy === 'anti-affinity' && here.length >= max) {
        throw new ConflictError(
          `Server group ${uuid} (anti-affinity, at most ${max} per host): host ${c.hostUuid} already runs ${here.join(', ')}.`,
          ErrorCode.SERVER_GROUP_POLICY,
        );
      }
      hosts.set(c.hostUuid, [...here, c.consumerUuid]);
    }
    for (const consumer of await insertMembers(em, group.id, uuid, placing)) {
      joined.add(consumer);
    }
  }
  return joined;
}
