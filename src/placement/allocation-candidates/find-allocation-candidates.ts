// Entry point of the allocation-candidate engine: GET /allocation_candidates at microversion 1.39
// over a CapacityIndex (upstream: objects/allocation_candidate.py
// AllocationCandidates.get_by_requests and research_context.py limit_results).

import { CandidateStream } from './candidate-stream';
import type { CapacityIndex } from './capacity-index';
import { checkNamesOrEmpty } from './name-checks';
import type { CandidateRequest } from './request';
import { validateCandidateRequest } from './request-validation';
import {
  type AllocationCandidates,
  type BuiltRequest,
  buildRequest,
  buildSummaries,
} from './results';
import { compileRequest } from './search-context';
import { borrowScratch, releaseScratch } from './search-scratch';

/** Engine options that are not part of the request. */
export interface FindOptions {
  /** Random source in [0, 1) for `randomize` (default Math.random). */
  readonly random?: () => number;
  /**
   * False mimics microversions before 1.29: candidates taking resources from two providers of
   * one tree are dropped and summaries list only providers that contribute. Default true.
   */
  readonly nestedAware?: boolean;
}

const EMPTY: AllocationCandidates = { allocationRequests: [], providerSummaries: [] };

function distinctRoots(index: CapacityIndex, built: BuiltRequest): boolean {
  const roots = new Set(built.providers.map((p) => index.root[p]!));
  return roots.size === built.providers.length;
}

/**
 * Finds the allocation candidates for `request`: every allocation request that satisfies all
 * groups (Placement 1.39 semantics), at most `request.limit` of them, plus summaries of every
 * provider of every tree they use. Enumeration is lazy, so a limit stops the work early. Order
 * is deterministic (anchor roots by provider id, then groups in request order); with
 * `request.randomize` a uniform random sample (of size limit) is returned in random order.
 * @throws BadRequestError for invalid requests and unknown classes/traits (Placement's messages).
 */
export function findAllocationCandidates(
  index: CapacityIndex,
  request: CandidateRequest,
  options: FindOptions = {},
): AllocationCandidates {
  validateCandidateRequest(request);
  if (checkNamesOrEmpty(index, request)) {
    return EMPTY;
  }
  const compiled = compileRequest(index, request);
  const nestedAware = options.nestedAware ?? true;
  const filterNested = !nestedAware && index.nestedCount > 0;
  const limit = request.limit ?? Number.POSITIVE_INFINITY;
  const random = options.random ?? Math.random;
  const picked: BuiltRequest[] = [];
  const scratch = borrowScratch(index);
  const stream = new CandidateStream(index, compiled, scratch);
  try {
    let seen = 0;
    while ((request.randomize || picked.length < limit) && stream.next()) {
      const built = buildRequest(index, compiled, stream.vars, stream.chosen);
      if (filterNested && !distinctRoots(index, built)) {
        continue;
      }
      seen++;
      if (picked.length < limit) {
        picked.push(built);
      } else {
        // Reservoir sampling keeps a uniform sample of `limit` without holding everything.
        const j = Math.floor(random() * seen);
        if (j < limit) {
          picked[j] = built;
        }
      }
    }
  } finally {
    stream.close();
    releaseScratch(scratch);
  }
  if (request.randomize) {
    for (let i = picked.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [picked[i], picked[j]] = [picked[j]!, picked[i]!];
    }
  }
  return {
    allocationRequests: picked.map((b) => b.request),
    providerSummaries: buildSummaries(index, picked, filterNested),
  };
}
