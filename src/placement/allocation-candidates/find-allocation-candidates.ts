// Entry point of the allocation-candidate engine: GET /allocation_candidates at microversion 1.39
// over a CapacityIndex (upstream: objects/allocation_candidate.py
// AllocationCandidates.get_by_requests and research_context.py limit_results).

import { BadRequestError, ErrorCode } from '../errors';
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
  /** Bounds on one request's work (defaults {@link DEFAULT_CANDIDATE_BOUNDS}). */
  readonly bounds?: CandidateBounds;
}

/** Bounds on the work of one allocation-candidates request. */
export interface CandidateBounds {
  /**
   * Most candidates one answer holds: a larger `limit` is lowered to this, and a request without
   * `limit` that matches more is refused (400 berth.too_many_candidates) rather than enumerated
   * until the heap is gone.
   */
  readonly maxResults: number;
  /**
   * Most combinations examined (valid or not). With `randomize` the sample is drawn from the
   * first this-many; without `limit`, exceeding it is refused like too many results.
   */
  readonly maxExamined: number;
}

/** Defaults of {@link CandidateBounds} (BERTH_CANDIDATE_MAX_RESULTS / _MAX_EXAMINED). */
export const DEFAULT_CANDIDATE_BOUNDS: CandidateBounds = {
  maxResults: 10_000,
  maxExamined: 200_000,
};

function tooMany(bounds: CandidateBounds): BadRequestError {
  return new BadRequestError(
    `More than ${bounds.maxResults} allocation candidates match (or more than ${bounds.maxExamined} combinations would be examined): pass limit (at most ${bounds.maxResults}), or narrow the request (group_policy=isolate, required traits, member_of, in_tree).`,
    ErrorCode.TOO_MANY_CANDIDATES,
  );
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
 * `request.randomize` a uniform random sample (of size limit) of the first `maxExamined`
 * combinations is returned in random order. The work is bounded by `options.bounds`.
 * @throws BadRequestError for invalid requests and unknown classes/traits (Placement's messages),
 *   and berth.too_many_candidates for an unlimited request over the bounds.
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
  const bounds = options.bounds ?? DEFAULT_CANDIDATE_BOUNDS;
  const limited = request.limit !== undefined;
  const limit = Math.min(request.limit ?? Number.POSITIVE_INFINITY, bounds.maxResults);
  const random = options.random ?? Math.random;
  const picked: BuiltRequest[] = [];
  const scratch = borrowScratch(index);
  const stream = new CandidateStream(index, compiled, scratch);
  try {
    let seen = 0;
    let examined = 0;
    while ((request.randomize || !limited || picked.length < limit) && stream.next()) {
      if (++examined > bounds.maxExamined) {
        if (!limited) {
          throw tooMany(bounds);
        }
        break; // a limited (or randomized) answer from what the budget examined
      }
      const built = buildRequest(index, compiled, stream.vars, stream.chosen);
      if (filterNested && !distinctRoots(index, built)) {
        continue;
      }
      seen++;
      if (!limited && seen > bounds.maxResults) {
        throw tooMany(bounds);
      }
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
