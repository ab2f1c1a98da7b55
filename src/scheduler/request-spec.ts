// The RequestSpec plugins read, built from a scheduling request. Nova's `same_host` and
// `different_host` hints name instances; where those instances run is read here, once per
// request, so filters compare host uuids (plugins never query). Like Nova, this is read before
// the pipeline runs and not re-checked when the claim is written. The server group (Nova's
// `group` hint) is read the same way; its hard policies are also re-checked in the claim's
// transaction (src/placement/server-group-guard.ts).
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import { ErrorCode, NotFoundError } from '../placement/errors';
import type { GroupPlacement } from '../placement/server-group';
import type { RequestSpec, ServerGroupView } from './plugin-api';

/** Hints whose values are instance (consumer) uuids whose hosts filters need. */
export const INSTANCE_HINTS: readonly string[] = ['same_host', 'different_host'];

/** The hint naming the server group (Nova's `group`). */
export const GROUP_HINT = 'group';

/** What a RequestSpec is built from. */
export interface SpecSource {
  readonly request: CandidateRequest;
  readonly extraSpecs: Readonly<Record<string, string>>;
  readonly projectId: string;
  readonly userId?: string;
  readonly hints?: Readonly<Record<string, readonly string[]>>;
  readonly availabilityZone?: string;
  /** The consumers being placed (not counted as members already placed). */
  readonly consumerUuids?: readonly string[];
}

/** Hosts (root provider uuids) of each of the instances `uuids`. */
export type InstanceHostLookup = (uuids: readonly string[]) => Promise<Map<string, string[]>>;

/** A server group and where its members run, the consumers `placing` excepted. */
export type ServerGroupLookup = (
  uuid: string,
  placing: readonly string[],
) => Promise<GroupPlacement>;

/** The spec of `req`, with the hosts of the instances its hints name and its server group. */
export async function requestSpecOf(
  req: SpecSource,
  hostsOf: InstanceHostLookup,
  groupOf?: ServerGroupLookup,
): Promise<RequestSpec> {
  const hints = req.hints ?? {};
  const named = [...new Set(INSTANCE_HINTS.flatMap((h) => hints[h] ?? []))];
  const [instanceHosts, serverGroup] = await Promise.all([
    named.length > 0 ? hostsOf(named).then((m) => Object.fromEntries(m)) : {},
    serverGroupOf(req, groupOf),
  ]);
  return {
    candidateRequest: req.request,
    extraSpecs: req.extraSpecs,
    projectId: req.projectId,
    userId: req.userId,
    hints,
    instanceHosts,
    ...(req.availabilityZone === undefined ? {} : { availabilityZone: req.availabilityZone }),
    ...(serverGroup === undefined ? {} : { serverGroup }),
  };
}

/**
 * The server group the `group` hint names, as plugins see it.
 * @throws NotFoundError for an unknown group or another project's (not disclosed).
 */
async function serverGroupOf(
  req: SpecSource,
  groupOf: ServerGroupLookup | undefined,
): Promise<ServerGroupView | undefined> {
  const uuid = req.hints?.[GROUP_HINT]?.[0];
  if (uuid === undefined || groupOf === undefined) {
    return undefined;
  }
  // Every member's host, then split: the request's own consumers (a moving member's current
  // host: `placingHosts`, which Nova counts) and the others (`hosts`).
  const { group, hosts } = await groupOf(uuid, []);
  if (group.projectId !== req.projectId) {
    // A request places only into its own project's groups; another's reads as unknown.
    throw new NotFoundError(`No server group ${group.uuid}.`, ErrorCode.SERVER_GROUP_NOT_FOUND);
  }
  const placing = new Set(req.consumerUuids ?? []);
  const others: Record<string, number> = {};
  const own: Record<string, number> = {};
  for (const [host, members] of hosts) {
    const mine = members.filter((m) => placing.has(m)).length;
    if (members.length > mine) {
      others[host] = members.length - mine;
    }
    if (mine > 0) {
      own[host] = mine;
    }
  }
  return {
    uuid: group.uuid,
    policy: group.policy,
    maxServerPerHost: group.maxServerPerHost ?? 1,
    hosts: others,
    placingHosts: own,
  };
}
