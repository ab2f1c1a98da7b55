// Brute-force reference for GET /allocation_candidates (Placement 1.39 rules, written straight
// from upstream allocation_candidate.py / research_context.py, independently of the engine):
// tries every anchor root and every combination, exponential, for small inputs only.
import type { IndexRows } from '../../../../src/placement/allocation-candidates/index-rows';
import type {
  CandidateRequest,
  RequestGroup,
} from '../../../../src/placement/allocation-candidates/request';

interface Prov {
  id: number;
  uuid: string;
  parent: number | null;
  traits: Set<string>;
  aggs: Set<string>;
  inv: Map<string, { cap: number; used: number; min: number; max: number; step: number }>;
}

/** One piece of a candidate: provider `p` gives `amount` of `rc` (rc null: resourceless group). */
interface Piece {
  suffix: string;
  p: number;
  rc: string | null;
  amount: number;
}

/** Reference answer: canonical allocation requests and the uuids the summaries must list. */
export interface ReferenceAnswer {
  readonly requests: Set<string>;
  readonly summaryUuids: Set<string>;
}

function product<T>(lists: T[][]): T[][] {
  return lists.reduce<T[][]>(
    (acc, list) => acc.flatMap((prefix) => list.map((x) => [...prefix, x])),
    [[]],
  );
}

/** Canonical text of an allocation request: sorted allocations and sorted mappings. */
export function canonicalOf(
  allocations: Map<string, Map<string, number>>,
  mappings: Map<string, Set<string>>,
): string {
  const a = [...allocations]
    .map(
      ([u, res]) =>
        `${u}{${[...res]
          .sort()
          .map(([k, v]) => `${k}:${v}`)
          .join(',')}}`,
    )
    .sort()
    .join(' ');
  const m = [...mappings]
    .map(([k, v]) => `${k}=[${[...v].sort().join(',')}]`)
    .sort()
    .join(' ');
  return `${a} | ${m}`;
}

/** Enumerates every allocation request of `req` over `rows` by brute force. */
export function referenceCandidates(rows: IndexRows, req: CandidateRequest): ReferenceAnswer {
  const provs = new Map<number, Prov>();
  for (const r of rows.providers) {
    provs.set(r.id, {
      id: r.id,
      uuid: r.uuid,
      parent: r.parentId,
      traits: new Set(),
      aggs: new Set(),
      inv: new Map(),
    });
  }
  for (const t of rows.traits) {
    provs.get(t.providerId)!.traits.add(t.trait);
  }
  for (const a of rows.aggregates) {
    provs.get(a.providerId)!.aggs.add(a.aggregateUuid);
  }
  for (const i of rows.inventories) {
    provs.get(i.providerId)!.inv.set(i.resourceClass, {
      cap: Math.floor((i.total - i.reserved) * i.allocationRatio),
      used: i.used,
      min: i.minUnit,
      max: i.maxUnit,
      step: i.stepSize,
    });
  }
  const all = [...provs.values()];
  const rootOf = (id: number): number => {
    const p = provs.get(id)!;
    return p.parent === null ? id : rootOf(p.parent);
  };
  const ancestors = (id: number): number[] => {
    const p = provs.get(id)!;
    return p.parent === null ? [id] : [id, ...ancestors(p.parent)];
  };
  const byUuid = (u: string) => all.find((p) => p.uuid === u);
  const sharing = (p: Prov) => p.traits.has('MISC_SHARES_VIA_AGGREGATE');
  const anchorsOf = (s: Prov) =>
    new Set(all.filter((q) => [...q.aggs].some((a) => s.aggs.has(a))).map((q) => rootOf(q.id)));
  const fits = (p: Prov, rc: string, n: number) => {
    const i = p.inv.get(rc);
    return !!i && n >= i.min && n <= i.max && n % i.step === 0 && i.used + n <= i.cap;
  };
  const traitsOk = (have: Set<string>, terms: readonly (readonly string[])[]) =>
    terms.every((term) => term.some((t) => have.has(t)));
  const member = (p: Prov, g: RequestGroup) =>
    g.memberOf.every((term) => term.some((a) => p.aggs.has(a)));
  const bad = (p: Prov, g: RequestGroup) => g.forbiddenAggregates.some((a) => p.aggs.has(a));
  const forbiddenTrait = (p: Prov, g: RequestGroup) =>
    g.forbiddenTraits.some((t) => p.traits.has(t));
  const rootOk = (r: Prov) =>
    traitsOk(r.traits, req.rootRequired ?? []) &&
    !(req.rootForbidden ?? []).some((t) => r.traits.has(t));

  // Per group and anchor: the list of alternatives, each a list of pieces.
  const unsuffixed = (g: RequestGroup, t: Prov): Piece[][] => {
    const tree = g.inTree === undefined ? undefined : byUuid(g.inTree);
    const perRc = Object.entries(g.resources).map(([rc, n]) =>
      all
        .filter((p) => {
          const own = rootOf(p.id) === t.id;
          const viaShare =
            !own &&
            g.inTree === undefined &&
            sharing(p) &&
            anchorsOf(p).has(t.id) &&
            (g.memberOf.length === 0 || member(p, g));
          const ownOk =
            own &&
            (tree === undefined || rootOf(tree.id) === t.id) &&
            (member(p, g) || member(t, g));
          return (
            (ownOk || viaShare) &&
            !bad(p, g) &&
            !bad(t, g) &&
            !forbiddenTrait(p, g) &&
            fits(p, rc, n)
          );
        })
        .map((p): Piece => ({ suffix: '', p: p.id, rc, amount: n })),
    );
    return product(perRc).filter((combo) => {
      const have = new Set(combo.flatMap((c) => [...provs.get(c.p)!.traits]));
      return traitsOk(have, g.requiredTraits);
    });
  };
  const suffixed = (g: RequestGroup, t: Prov): Piece[][] => {
    const rcs = Object.entries(g.resources);
    // Upstream quirk: a resourceless group without required traits or member_of matches nothing,
    // and resourceless groups ignore in_tree.
    if (rcs.length === 0 && g.requiredTraits.length === 0 && g.memberOf.length === 0) {
      return [];
    }
    const tree = g.inTree === undefined || rcs.length === 0 ? undefined : byUuid(g.inTree);
    return all
      .filter(
        (p) =>
          (tree === undefined || rootOf(p.id) === rootOf(tree.id)) &&
          traitsOk(p.traits, g.requiredTraits) &&
          member(p, g) &&
          !bad(p, g) &&
          !forbiddenTrait(p, g) &&
          rcs.every(([rc, n]) => fits(p, rc, n)) &&
          (rootOf(p.id) === t.id || (sharing(p) && anchorsOf(p).has(t.id))),
      )
      .map((p) =>
        rcs.length === 0
          ? [{ suffix: g.suffix, p: p.id, rc: null, amount: 0 }]
          : rcs.map(([rc, n]) => ({ suffix: g.suffix, p: p.id, rc, amount: n })),
      );
  };

  const requests = new Set<string>();
  const summaryUuids = new Set<string>();
  if (req.groups.some((g) => g.inTree !== undefined && !byUuid(g.inTree))) {
    return { requests, summaryUuids };
  }
  for (const t of all.filter((p) => p.parent === null && rootOk(p))) {
    const alternatives = req.groups.map((g) =>
      g.suffix === '' ? unsuffixed(g, t) : suffixed(g, t),
    );
    for (const choice of product(alternatives)) {
      const pieces = choice.flat();
      const single = new Map<string, number>(); // suffix -> provider (suffixed groups)
      for (const piece of pieces) {
        if (piece.suffix !== '') {
          single.set(piece.suffix, piece.p);
        }
      }
      if (req.groupPolicy === 'isolate' && new Set(single.values()).size !== single.size) {
        continue;
      }
      const subtreeOk = (req.sameSubtree ?? []).every((set) => {
        const ps = [...new Set(set.map((s) => single.get(s)!))];
        return ps.some((top) => ps.every((p) => ancestors(p).includes(top)));
      });
      if (!subtreeOk) {
        continue;
      }
      const allocations = new Map<string, Map<string, number>>();
      const mappings = new Map<string, Set<string>>();
      for (const piece of pieces) {
        const uuid = provs.get(piece.p)!.uuid;
        if (!mappings.has(piece.suffix)) {
          mappings.set(piece.suffix, new Set());
        }
        mappings.get(piece.suffix)!.add(uuid);
        if (piece.rc === null) {
          continue;
        }
        if (!allocations.has(uuid)) {
          allocations.set(uuid, new Map());
        }
        const res = allocations.get(uuid)!;
        res.set(piece.rc, (res.get(piece.rc) ?? 0) + piece.amount);
      }
      const overCapacity = [...allocations].some(([uuid, res]) =>
        [...res].some(([rc, n]) => {
          const i = byUuid(uuid)!.inv.get(rc)!;
          return i.used + n > i.cap || n > i.max;
        }),
      );
      if (overCapacity) {
        continue;
      }
      requests.add(canonicalOf(allocations, mappings));
      for (const uuid of allocations.keys()) {
        const root = rootOf(byUuid(uuid)!.id);
        for (const p of all) {
          if (rootOf(p.id) === root) {
            summaryUuids.add(p.uuid);
          }
        }
      }
    }
  }
  return { requests, summaryUuids };
}
