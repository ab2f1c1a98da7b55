// Test helper: runs the engine on a query string and reads results the way gabbi's JSONPath
// expressions do (upstream: the response_json_paths of placement's gabbits).
import {
  type FindOptions,
  findAllocationCandidates,
} from '../../../../src/placement/allocation-candidates/find-allocation-candidates';
import type { AllocationCandidates } from '../../../../src/placement/allocation-candidates/results';
import type { Fixture } from './fixture-builder';
import { parseQuery } from './query';

/** No work bounds: property tests compare whole candidate sets with a reference, however large. */
export const UNBOUNDED = {
  maxResults: Number.POSITIVE_INFINITY,
  maxExamined: Number.POSITIVE_INFINITY,
};

/** GET /allocation_candidates?<qs> against a fixture. */
export function get(fx: Fixture, qs: string, options?: FindOptions): AllocationCandidates {
  return findAllocationCandidates(fx.index, parseQuery(qs, fx.env), options);
}

/** `$.allocation_requests..allocations[uuid].resources` as a list (one entry per request using it). */
export function resourcesOf(r: AllocationCandidates, uuid: string): Record<string, number>[] {
  return r.allocationRequests.flatMap((ar) =>
    ar.allocations.filter((a) => a.providerUuid === uuid).map((a) => ({ ...a.resources })),
  );
}

/** `$.allocation_requests..allocations[uuid].resources[rc]` as a list. */
export function amountsOf(r: AllocationCandidates, uuid: string, rc: string): number[] {
  return resourcesOf(r, uuid).flatMap((res) => (rc in res ? [res[rc]!] : []));
}

/** `$.provider_summaries[uuid]`. */
export function summaryOf(r: AllocationCandidates, uuid: string) {
  return r.providerSummaries.find((s) => s.providerUuid === uuid);
}

/** `$.provider_summaries[uuid].resources` as { class: { capacity, used } }. */
export function summaryResources(r: AllocationCandidates, uuid: string) {
  const s = summaryOf(r, uuid);
  return Object.fromEntries(
    (s?.resources ?? []).map((x) => [x.resourceClass, { capacity: x.capacity, used: x.used }]),
  );
}

/** A canonical, order-free string for one allocation request (allocations + mappings). */
export function canonical(ar: AllocationCandidates['allocationRequests'][number]): string {
  const allocs = ar.allocations
    .map(
      (a) =>
        `${a.providerUuid}{${Object.entries(a.resources)
          .sort()
          .map(([k, v]) => `${k}:${v}`)
          .join(',')}}`,
    )
    .sort()
    .join(' ');
  const maps = Object.entries(ar.mappings)
    .map(([k, v]) => `${k}=[${[...v].sort().join(',')}]`)
    .sort()
    .join(' ');
  return `${allocs} | ${maps}`;
}
