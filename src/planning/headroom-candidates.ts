// The hosts a flavor's request has allocation candidates on, from the engine's own enumeration
// (src/placement/allocation-candidates/candidate-stream.ts) without building its answer: the
// first allocation request of each host (the one `schedule`'s claim takes) and whether every
// request of that host is flat (one provider, the host's root, and one request group). Building
// the whole answer (every request and every provider summary) is what made one flavor cost as
// much as a full allocation-candidates query.

import { CandidateStream } from '../placement/allocation-candidates/candidate-stream';
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import { DEFAULT_CANDIDATE_BOUNDS } from '../placement/allocation-candidates/find-allocation-candidates';
import { checkNamesOrEmpty } from '../placement/allocation-candidates/name-checks';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import { validateCandidateRequest } from '../placement/allocation-candidates/request-validation';
import { buildRequest } from '../placement/allocation-candidates/results';
import { compileRequest } from '../placement/allocation-candidates/search-context';
import { borrowScratch, releaseScratch } from '../placement/allocation-candidates/search-scratch';
import { BadRequestError, ErrorCode } from '../placement/errors';
import { toView } from '../scheduler/host-requests';
import type { AllocationRequestView } from '../scheduler/plugin-api';

/** The hosts with candidates, in the engine's order (anchor roots by provider id). */
export interface OfferedHosts {
  /** Root uuid -> the engine's first allocation request for the host, of flat hosts only. */
  readonly flat: Map<string, AllocationRequestView>;
  /** Roots of the other hosts with candidates (nested, several groups, sharing providers). */
  readonly other: Set<string>;
}

/**
 * The hosts `request` has allocation candidates on in `index`, split into flat and other. Only
 * one request per host is kept, so the work is bounded by combinations examined alone: at most
 * the engine's default `maxExamined`, or 100 per host of the cloud when that is more.
 * @throws BadRequestError as the engine throws for an invalid request or unknown names, and
 *   berth.too_many_candidates past that many combinations.
 */
export function offeredHosts(index: CapacityIndex, request: CandidateRequest): OfferedHosts {
  const out: OfferedHosts = { flat: new Map(), other: new Set() };
  validateCandidateRequest(request);
  if (checkNamesOrEmpty(index, request)) {
    return out;
  }
  const compiled = compileRequest(index, request);
  const oneGroup = request.groups.length === 1;
  const resources = request.groups[0]?.resources ?? {};
  const suffix = request.groups[0]?.suffix ?? '';
  const bound = Math.max(DEFAULT_CANDIDATE_BOUNDS.maxExamined, 100 * index.rootOrder().length);
  const scratch = borrowScratch(index);
  const stream = new CandidateStream(index, compiled, scratch);
  const seen = new Set<number>();
  try {
    let examined = 0;
    while (stream.next()) {
      if (++examined > bound) {
        throw new BadRequestError(
          `Counting headroom would examine more than ${bound} combinations: narrow the flavor's request.`,
          ErrorCode.TOO_MANY_CANDIDATES,
        );
      }
      const anchor = stream.anchor;
      if (oneGroup && index.members[anchor]!.length === 1 && onlyOn(stream.chosen, anchor)) {
        // Every variable on the host's one provider: the request is the group's amounts there
        // (what buildRequest would build, without building it).
        if (!seen.has(anchor)) {
          seen.add(anchor);
          const uuid = index.uuid[anchor]!;
          out.flat.set(uuid, {
            allocations: { [uuid]: { ...resources } },
            mappings: { [suffix]: [uuid] },
          });
        }
        continue;
      }
      const built = buildRequest(index, compiled, stream.vars, stream.chosen);
      const host = built.providers.length > 0 ? hostOf(index, built.providers) : stream.anchor;
      const uuid = index.uuid[host]!;
      const flat =
        oneGroup && index.members[host]!.length === 1 && built.providers.every((p) => p === host);
      if (!seen.has(host)) {
        seen.add(host);
        if (flat) {
          out.flat.set(uuid, toView(built.request));
        } else {
          out.other.add(uuid);
        }
      } else if (!flat && out.flat.delete(uuid)) {
        out.other.add(uuid);
      }
    }
  } finally {
    stream.close();
    releaseScratch(scratch);
  }
  return out;
}

/** True when every variable of the assignment is on provider `slot`. */
function onlyOn(chosen: Int32Array, slot: number): boolean {
  for (let i = 0; i < chosen.length; i++) {
    if (chosen[i] !== slot) {
      return false;
    }
  }
  return chosen.length > 0;
}

/** The host of an allocation request: the root of its first non-sharing provider (as treeOf). */
function hostOf(index: CapacityIndex, providers: readonly number[]): number {
  for (const p of providers) {
    if (index.sharing[p] !== 1) {
      return index.root[p]!;
    }
  }
  return index.root[providers[0]!]!;
}
