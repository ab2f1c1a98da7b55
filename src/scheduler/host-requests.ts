// Between the engine's answers and the scheduler's host views: allocation requests grouped by
// the tree that hosts them, and the "No valid host" reason of an explanation.
import type { CandidateStage } from '../placement/allocation-candidates/candidate-stage';
import { SHARING_TRAIT } from '../placement/allocation-candidates/capacity-index';
import type {
  AllocationCandidates,
  AllocationRequest,
  ProviderAllocation,
} from '../placement/allocation-candidates/results';
import type { AllocationRequestView } from './plugin-api';
import type { Explanation } from './runtime/explanation';
import { groupRejections } from './runtime/reason-groups';

/**
 * The host of an allocation request: the tree of its first non-sharing provider (sharing
 * providers ride along); an all-sharing request is hosted by its first provider's tree.
 */
export function treeOf(
  ar: AllocationRequest,
  summaries: ReadonlyMap<string, { rootProviderUuid: string; traits: readonly string[] }>,
): string {
  for (const a of ar.allocations) {
    const s = summaries.get(a.providerUuid);
    if (s && !s.traits.includes(SHARING_TRAIT)) {
      return s.rootProviderUuid;
    }
  }
  const first = ar.allocations[0]!.providerUuid;
  return summaries.get(first)?.rootProviderUuid ?? first;
}

/** The allocation requests of an answer grouped by the root of the tree that hosts each, in order. */
export function requestsByTree(c: AllocationCandidates): Map<string, AllocationRequestView[]> {
  const summaries = new Map(c.providerSummaries.map((s) => [s.providerUuid, s]));
  const requests = new Map<string, AllocationRequestView[]>();
  for (const ar of c.allocationRequests) {
    const rootUuid = treeOf(ar, summaries);
    const list = requests.get(rootUuid);
    if (list) {
      list.push(toView(ar));
    } else {
      requests.set(rootUuid, [toView(ar)]);
    }
  }
  return requests;
}

/**
 * The plugins' view of an allocation request: its own copies, so a plugin that changes what it
 * is given (operators write plugins) cannot change the cached candidate set, nor what another
 * caller of a shared evaluation claims.
 */
export function toView(ar: AllocationRequest): AllocationRequestView {
  const allocations: Record<string, Record<string, number>> = {};
  for (const a of ar.allocations) {
    allocations[a.providerUuid] = { ...a.resources };
  }
  const mappings: Record<string, string[]> = {};
  for (const suffix in ar.mappings) {
    mappings[suffix] = [...ar.mappings[suffix]!];
  }
  return { allocations, mappings };
}

/** Allocations as the claim writes them. */
export function fromView(
  allocations: Readonly<Record<string, Readonly<Record<string, number>>>>,
): ProviderAllocation[] {
  return Object.entries(allocations).map(([providerUuid, resources]) => ({
    providerUuid,
    resources,
  }));
}

/** Why nothing was placed, from the explanation (and the candidate stage, when it found none). */
export function noValidHost(
  e: Explanation,
  stage?: Pick<CandidateStage, 'summary'> | null,
): string {
  if (e.unsatisfiable) {
    return `No valid host: ${e.unsatisfiable.plugin}: ${e.unsatisfiable.reason}`;
  }
  if (e.hostsIn === 0) {
    return stage
      ? `No valid host: ${stage.summary}`
      : 'No valid host: no allocation candidates for the request';
  }
  const steps = e.filters.map((f) => {
    const counts = `${f.plugin}: ${f.before} -> ${f.after}`;
    if (f.after > 0 || f.rejections.length === 0) {
      return counts;
    }
    // The filter that removed the last hosts: its reasons by code, largest first.
    const codes = groupRejections(f.rejections).map((g) => `${g.code} ×${g.count}`);
    return `${counts} (${codes.slice(0, 3).join(', ')}${codes.length > 3 ? ', …' : ''})`;
  });
  return `No valid host: ${steps.join(', ')}`;
}
