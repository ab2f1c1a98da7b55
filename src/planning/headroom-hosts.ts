// Headroom of one flavor host by host (src/planning/headroom-flavor.ts picks the hosts): how
// many more instances each host takes under Placement's rules and the profile's filters, and
// what ends its room. Three kinds of host, by the allocation requests the engine offers them:
// - flat (one provider, one request group, nothing from a sharing provider): the engine's count is
//   analytic (min over classes of the free capacity divided by the amount), and the filters are
//   probed with raised usage (headroom-probe.ts) at that count, then by bisection below it;
// - tree (nested providers or several request groups, nothing shared): the instances are placed
//   one at a time on the planning view, the engine restricted to the tree (`inTree`) unless a
//   sharing provider is anchored at the host;
// - sharing (some request takes from a sharing provider, which several hosts draw on): the
//   instances are placed one at a time on the best-ranked of these hosts, as `schedule` would.
// Every placement is released before returning: the view is left as it was found.
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import {
  STAGE_CODES,
  type StageConstraint,
  stageConstraints,
} from '../placement/allocation-candidates/stage-constraints';
import type { HostView, RequestSpec } from '../scheduler/plugin-api';
import { type ProbePipelines, probe, raisedView } from './headroom-probe';
import type { PlanningView } from './planning-view';

/** One host's headroom for a flavor. */
export interface HostHeadroom {
  readonly count: number;
  /** The count when this host is filled alone (differs from `count` only on sharing hosts). */
  readonly independentCount: number;
  /** What ended its room: a resource class, a filter's reason code or a `candidate.*` code. */
  readonly limit: string;
}

/** What counting one flavor reads. */
export interface FlavorContext {
  readonly view: PlanningView;
  /** The flavor's request as the profile's pre-candidate hooks amended it. */
  readonly request: CandidateRequest;
  readonly spec: RequestSpec;
  readonly probes: ProbePipelines;
}

/** Limit of a host the engine offers nothing whose constraints all hold one by one. */
export const NOT_A_CANDIDATE = 'not_a_candidate';

/** Most instances counted on one host by placement (a guard against a runaway loop). */
const MAX_PLACED_PER_HOST = 100_000;

/**
 * Why the engine offers host `rootSlot` nothing: the first constraint of the request (in request
 * order) it cannot meet — a resource class whose free capacity is short, else that constraint's
 * `candidate.*` code — or {@link NOT_A_CANDIDATE}.
 */
export function candidateLimit(list: readonly StageConstraint[], rootSlot: number): string {
  for (const c of list) {
    if (!c.test(rootSlot)) {
      if (c.kind === 'RESOURCE_CAPACITY' && !c.miss(rootSlot).startsWith('no ')) {
        return c.resourceClass!;
      }
      return STAGE_CODES[c.kind];
    }
  }
  return NOT_A_CANDIDATE;
}

/** How the engine's offers for host `h` are shaped (see the file's paragraph). */
export function hostKind(
  index: CapacityIndex,
  h: HostView,
  request: CandidateRequest,
): 'flat' | 'tree' | 'sharing' {
  const rootSlot = index.slotOfUuid(h.uuid);
  for (const ar of h.allocationRequests) {
    for (const uuid of Object.keys(ar.allocations)) {
      if (index.root[index.slotOfUuid(uuid)] !== rootSlot) {
        return 'sharing';
      }
    }
  }
  return h.providers.length === 1 && request.groups.length === 1 ? 'flat' : 'tree';
}

/**
 * The engine's count on a flat host: min over the requested classes of how many amounts fit in
 * `capacity - used` (capacity = floor((total - reserved) × allocation_ratio)), and the class that
 * gives it (ties: the first in request order). An amount outside min_unit, max_unit or step_size
 * gives 0 with that class's `candidate.resource.units`.
 */
export function flatEngineCount(
  index: CapacityIndex,
  rootSlot: number,
  amounts: Readonly<Record<string, number>>,
): { readonly count: number; readonly limit: string } {
  const inv = index.inventories;
  let count = Number.POSITIVE_INFINITY;
  let limit = NOT_A_CANDIDATE;
  for (const [rc, amount] of Object.entries(amounts)) {
    const classId = index.classes.lookup(rc);
    const slot = classId < 0 ? -1 : index.findInventory(rootSlot, classId);
    if (slot < 0) {
      return { count: 0, limit: STAGE_CODES.RESOURCE_CAPACITY };
    }
    if (
      amount < inv.minUnit[slot]! ||
      amount > inv.maxUnit[slot]! ||
      amount % inv.stepSize[slot]! !== 0
    ) {
      return { count: 0, limit: STAGE_CODES.RESOURCE_UNITS };
    }
    const fit = Math.max(0, Math.floor((inv.capacity[slot]! - inv.used[slot]!) / amount));
    if (fit < count) {
      count = fit;
      limit = rc;
    }
  }
  return { count: Number.isFinite(count) ? count : 0, limit };
}

/**
 * Flat hosts: the engine's count from the index, then the filters at that count less one; hosts
 * a filter refuses there are bisected over lower counts (one filter run per round for all of
 * them). Filters are assumed monotone in usage (docs/planning.md "Headroom").
 */
export async function countFlat(
  ctx: FlavorContext,
  hosts: readonly HostView[],
  out: Map<string, HostHeadroom>,
): Promise<void> {
  const index = ctx.view.index;
  interface Open {
    readonly h: HostView;
    readonly per: Readonly<Record<string, Readonly<Record<string, number>>>>;
    lo: number; // highest usage level known to pass (-1: none)
    hi: number; // lowest usage level known to fail
    code: string;
  }
  const open: Open[] = [];
  const first: HostView[] = [];
  const engine = new Map<string, { count: number; limit: string }>();
  for (const h of hosts) {
    const per = h.allocationRequests[0]!.allocations;
    const e = flatEngineCount(index, index.slotOfUuid(h.uuid), per[h.uuid] ?? {});
    engine.set(h.uuid, e);
    if (e.count === 0) {
      out.set(h.uuid, { count: 0, independentCount: 0, limit: e.limit });
      continue;
    }
    first.push(raisedView(h, per, e.count - 1));
    open.push({ h, per, lo: -1, hi: e.count - 1, code: '' });
  }
  let verdicts = await probe(ctx.probes, ctx.spec, first);
  let pending: Open[] = [];
  for (const o of open) {
    const v = verdicts.get(o.h.uuid);
    if (!v || v.fits) {
      const e = engine.get(o.h.uuid)!;
      out.set(o.h.uuid, { count: e.count, independentCount: e.count, limit: e.limit });
    } else {
      o.code = v.code;
      pending.push(o);
    }
  }
  while (pending.length > 0) {
    const next: Open[] = [];
    const views: HostView[] = [];
    for (const o of pending) {
      if (o.hi - o.lo <= 1) {
        out.set(o.h.uuid, { count: o.hi, independentCount: o.hi, limit: o.code });
      } else {
        views.push(raisedView(o.h, o.per, Math.floor((o.lo + o.hi) / 2)));
        next.push(o);
      }
    }
    verdicts = await probe(ctx.probes, ctx.spec, views);
    for (const o of next) {
      const mid = Math.floor((o.lo + o.hi) / 2);
      const v = verdicts.get(o.h.uuid);
      if (!v || v.fits) {
        o.lo = mid;
      } else {
        o.hi = mid;
        o.code = v.code;
      }
    }
    pending = next;
  }
}

/** `request` restricted to the tree of `hostUuid` (every group with resources gets `inTree`). */
export function inTree(request: CandidateRequest, hostUuid: string): CandidateRequest {
  return {
    ...request,
    groups: request.groups.map((g) =>
      Object.keys(g.resources).length > 0 ? { ...g, inTree: hostUuid } : g,
    ),
  };
}

let placedSeq = 0;

/** Places instances on the view, and releases them all again in reverse order. */
class Placements {
  private readonly placed: {
    uuid: string;
    host: string;
    allocations: HostView['allocationRequests'][number]['allocations'];
  }[] = [];

  constructor(private readonly view: PlanningView) {}

  place(h: HostView): void {
    const allocations = h.allocationRequests[0]!.allocations;
    const uuid = `headroom-${++placedSeq}`;
    this.view.place(uuid, h.uuid, allocations);
    this.placed.push({ uuid, host: h.uuid, allocations });
  }

  releaseAll(): void {
    for (const p of this.placed.reverse()) {
      this.view.release(p.uuid, p.host, p.allocations);
    }
    this.placed.length = 0;
  }
}

/**
 * Fills host `h` alone, one instance at a time as `schedule` would place it (the engine's first
 * allocation request for the host, after the filters pass it), restricted to its tree unless it
 * draws on sharing providers; returns the count and what ended it. The view is left as found.
 */
export async function fillAlone(
  ctx: FlavorContext,
  h: HostView,
  restrict: boolean,
): Promise<{ count: number; limit: string }> {
  const request = restrict ? inTree(ctx.request, h.uuid) : ctx.request;
  const placements = new Placements(ctx.view);
  try {
    let current: HostView | undefined = h;
    for (let count = 0; count < MAX_PLACED_PER_HOST; count++) {
      if (!current) {
        const list = stageConstraints(ctx.view.index, ctx.request);
        return { count, limit: candidateLimit(list, ctx.view.index.slotOfUuid(h.uuid)) };
      }
      const v = (await probe(ctx.probes, ctx.spec, [current])).get(h.uuid);
      if (v && !v.fits) {
        return { count, limit: v.code };
      }
      placements.place(current);
      current = ctx.view.hostViews(request).find((x) => x.uuid === h.uuid);
    }
    return { count: MAX_PLACED_PER_HOST, limit: NOT_A_CANDIDATE };
  } finally {
    placements.releaseAll();
  }
}

/**
 * Sharing hosts: instances placed one at a time, each on the best-ranked of these hosts (the
 * profile's filters and weighers; ties to the first), until none takes one more — shared
 * capacity is consumed in the order the scheduler would consume it. `independentCount` fills
 * each host alone from the current state (shared capacity counted for each: an upper bound).
 */
export async function countSharing(
  ctx: FlavorContext,
  hosts: readonly HostView[],
  out: Map<string, HostHeadroom>,
): Promise<void> {
  const wanted = new Set(hosts.map((h) => h.uuid));
  const counts = new Map<string, number>();
  const limits = new Map<string, string>();
  const placements = new Placements(ctx.view);
  try {
    let current = hosts;
    for (let n = 0; n < MAX_PLACED_PER_HOST * hosts.length; n++) {
      const evaluation = await ctx.probes.ranked.evaluate(ctx.spec, {
        aggregates: () => [],
        hosts: async () => current,
      });
      const best = ctx.probes.ranked.rank(evaluation).hosts[0];
      if (!best) {
        for (const step of evaluation.explanation.filters) {
          for (const r of step.rejections) {
            limits.set(r.host, r.code);
          }
        }
        break;
      }
      placements.place(best.host);
      counts.set(best.host.uuid, (counts.get(best.host.uuid) ?? 0) + 1);
      current = ctx.view.hostViews(ctx.request).filter((x) => wanted.has(x.uuid));
    }
    const offered = new Set(current.map((h) => h.uuid));
    const list = stageConstraints(ctx.view.index, ctx.request);
    for (const h of hosts) {
      if (!offered.has(h.uuid)) {
        limits.set(h.uuid, candidateLimit(list, ctx.view.index.slotOfUuid(h.uuid)));
      }
    }
  } finally {
    placements.releaseAll();
  }
  for (const h of hosts) {
    const alone = await fillAlone(ctx, h, false);
    out.set(h.uuid, {
      count: counts.get(h.uuid) ?? 0,
      independentCount: alone.count,
      limit: limits.get(h.uuid) ?? alone.limit,
    });
  }
}
