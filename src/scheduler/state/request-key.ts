// The canonical form of an allocation-candidate request: one string for equal requests, whatever
// the order of their groups, traits and aggregates. It keys both the candidate cache
// (candidate-cache.ts) and the evaluations shared by identical requests (evaluation-memo.ts).
import type { CandidateRequest, RequestGroup } from '../../placement/allocation-candidates/request';

const sortedSets = (sets: readonly (readonly string[])[] | undefined) =>
  (sets ?? []).map((s) => [...s].sort()).sort((a, b) => a.join(',').localeCompare(b.join(',')));

function canonicalGroup(g: RequestGroup) {
  return {
    s: g.suffix,
    r: Object.entries(g.resources).sort(([a], [b]) => a.localeCompare(b)),
    t: sortedSets(g.requiredTraits),
    ft: [...g.forbiddenTraits].sort(),
    m: sortedSets(g.memberOf),
    fm: [...g.forbiddenAggregates].sort(),
    it: g.inTree ?? null,
  };
}

/** A stable string for equal requests, whatever their field order. */
export function canonicalRequest(req: CandidateRequest): string {
  return JSON.stringify({
    g: [...req.groups].map(canonicalGroup).sort((a, b) => a.s.localeCompare(b.s)),
    p: req.groupPolicy ?? null,
    rr: sortedSets(req.rootRequired),
    rf: [...(req.rootForbidden ?? [])].sort(),
    ss: sortedSets(req.sameSubtree),
    l: req.limit ?? null,
    x: req.randomize ?? false,
  });
}
