// The RequestSpec plugins read, built from a scheduling request. Nova's `same_host` and
// `different_host` hints name instances; where those instances run is read here, once per
// request, so filters compare host uuids (plugins never query). Like Nova, this is read before
// the pipeline runs and not re-checked when the claim is written.
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { RequestSpec } from './plugin-api';

/** Hints whose values are instance (consumer) uuids whose hosts filters need. */
export const INSTANCE_HINTS: readonly string[] = ['same_host', 'different_host'];

/** What a RequestSpec is built from. */
export interface SpecSource {
  readonly request: CandidateRequest;
  readonly extraSpecs: Readonly<Record<string, string>>;
  readonly projectId: string;
  readonly userId?: string;
  readonly hints?: Readonly<Record<string, readonly string[]>>;
  readonly availabilityZone?: string;
}

/** Hosts (root provider uuids) of each of the instances `uuids`. */
export type InstanceHostLookup = (uuids: readonly string[]) => Promise<Map<string, string[]>>;

/** The spec of `req`, with the hosts of the instances its hints name. */
export async function requestSpecOf(
  req: SpecSource,
  hostsOf: InstanceHostLookup,
): Promise<RequestSpec> {
  const hints = req.hints ?? {};
  const named = [...new Set(INSTANCE_HINTS.flatMap((h) => hints[h] ?? []))];
  const instanceHosts = named.length > 0 ? Object.fromEntries(await hostsOf(named)) : {};
  return {
    candidateRequest: req.request,
    extraSpecs: req.extraSpecs,
    projectId: req.projectId,
    userId: req.userId,
    hints,
    instanceHosts,
    ...(req.availabilityZone === undefined ? {} : { availabilityZone: req.availabilityZone }),
  };
}
