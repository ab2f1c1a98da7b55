// The end state of a simulated trace (src/planning/simulation.ts), read from its PlanningView:
// fill per resource class cloud-wide, per host the trace placed on and per aggregate, and
// fragmentation — how many more of the trace's largest request still fit (headroom,
// src/planning/headroom.ts) and the capacity stranded on hosts where not one more of its
// smallest request fits.
//
// Sizes: a request's size is its largest class amount relative to the largest capacity one
// provider of the cloud has of that class (its amounts summed over request groups), so
// `VCPU:8,MEMORY_MB:16384` on hosts of 32 VCPU and 256 GiB has size 0.25. The largest request is
// the trace's of the greatest size, the smallest of the least (the first in the trace on ties).
// Stranded capacity: hosts (provider trees) with an inventory of every class of the smallest
// request on which, for some class, the tree's free capacity is below the request's amount;
// every class's free capacity on those hosts is stranded (reported with those hosts' capacity
// and usage).
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import { once } from '../scheduler/evaluated';
import type { ChosenPipeline } from '../scheduler/runtime/pipeline-set';
import type { ScheduleRequest } from '../scheduler/schedule-types';
import { headroomOn } from './headroom';
import type { PlanningView } from './planning-view';

/** Capacity, usage and free capacity of one resource class. */
export interface SimulatedClassFill {
  readonly resourceClass: string;
  readonly capacity: number;
  readonly used: number;
  readonly free: number;
  /** used / capacity (0 when no capacity). */
  readonly fraction: number;
}

/** A host the trace placed on, as the trace left it. */
export interface SimulatedHostFill {
  /** Root provider uuid. */
  readonly host: string;
  readonly classes: readonly SimulatedClassFill[];
  /** Consumers of the trace placed on it. */
  readonly placed: number;
}

/** An aggregate's fill (every provider tree with a member in it). */
export interface SimulatedAggregateFill {
  readonly uuid: string;
  readonly name: string | null;
  readonly classes: readonly SimulatedClassFill[];
}

/** What the trace left. */
export interface SimulationEndState {
  readonly classes: readonly SimulatedClassFill[];
  /** Hosts the trace placed on, fullest first. */
  readonly hosts: readonly SimulatedHostFill[];
  readonly aggregates: readonly SimulatedAggregateFill[];
  /** The largest request as `VCPU:8,MEMORY_MB:16384`, or null for a trace without resources. */
  readonly largestFlavor: string | null;
  /** How many more of the largest request fit at the end (counted when asked for). */
  largestFlavorFits(): Promise<number>;
  readonly stranded: readonly SimulatedClassFill[];
}

/** Capacity and usage per class id. */
type Sums = Map<number, { capacity: number; used: number }>;

function add(sums: Sums, classId: number, capacity: number, used: number): void {
  const s = sums.get(classId);
  if (s) {
    s.capacity += capacity;
    s.used += used;
  } else {
    sums.set(classId, { capacity, used });
  }
}

function fills(index: CapacityIndex, sums: Sums): SimulatedClassFill[] {
  return [...sums]
    .map(([classId, s]) => ({
      resourceClass: index.classes.name(classId),
      capacity: s.capacity,
      used: s.used,
      free: Math.max(0, s.capacity - s.used),
      fraction: s.capacity > 0 ? s.used / s.capacity : 0,
    }))
    .sort((a, b) => (a.resourceClass < b.resourceClass ? -1 : 1));
}

/** Per root slot, its tree's capacity and usage per class; and the largest capacity per class. */
function treeSums(index: CapacityIndex): {
  trees: Map<number, Sums>;
  largest: Map<number, number>;
} {
  const inv = index.inventories;
  const trees = new Map<number, Sums>();
  const largest = new Map<number, number>();
  for (let i = 0; i < inv.size; i++) {
    const slot = inv.provider[i]!;
    if (slot < 0) {
      continue;
    }
    const root = index.root[slot]!;
    let sums = trees.get(root);
    if (!sums) {
      sums = new Map();
      trees.set(root, sums);
    }
    const classId = inv.resourceClass[i]!;
    add(sums, classId, inv.capacity[i]!, inv.used[i]!);
    largest.set(classId, Math.max(largest.get(classId) ?? 0, inv.capacity[i]!));
  }
  return { trees, largest };
}

/** A request's amounts per class, summed over its groups, in the order they are first named. */
function amountsOf(req: ScheduleRequest): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of req.request.groups) {
    for (const [rc, n] of Object.entries(g.resources)) {
      out.set(rc, (out.get(rc) ?? 0) + n);
    }
  }
  return out;
}

function sizeOf(index: CapacityIndex, largest: Map<number, number>, amounts: Map<string, number>) {
  let size = 0;
  for (const [rc, n] of amounts) {
    const cap = largest.get(index.classes.lookup(rc)) ?? 0;
    size = Math.max(size, cap > 0 ? n / cap : Number.POSITIVE_INFINITY);
  }
  return size;
}

/** The trace's largest and smallest requests (by size, see above), or null without resources. */
function extremes(
  index: CapacityIndex,
  largest: Map<number, number>,
  trace: readonly ScheduleRequest[],
) {
  let big: { req: ScheduleRequest; size: number } | null = null;
  let small: { req: ScheduleRequest; size: number } | null = null;
  for (const req of trace) {
    const amounts = amountsOf(req);
    if (amounts.size === 0) {
      continue;
    }
    const size = sizeOf(index, largest, amounts);
    if (!big || size > big.size) big = { req, size };
    if (!small || size < small.size) small = { req, size };
  }
  return { big: big?.req ?? null, small: small?.req ?? null };
}

function stranded(index: CapacityIndex, trees: Map<number, Sums>, small: ScheduleRequest | null) {
  const out: Sums = new Map();
  if (!small) {
    return out;
  }
  const need = [...amountsOf(small)].map(([rc, n]) => [index.classes.lookup(rc), n] as const);
  for (const sums of trees.values()) {
    if (!need.every(([classId]) => sums.has(classId))) {
      continue; // it could never hold one
    }
    const short = need.some(([classId, n]) => {
      const s = sums.get(classId)!;
      return s.capacity - s.used < n;
    });
    if (short) {
      for (const [classId, s] of sums) {
        add(out, classId, s.capacity, s.used);
      }
    }
  }
  return out;
}

/** The end state of a trace whose placements are `placements`, on `view` after it ran. */
export function simulationEndState(
  view: PlanningView,
  trace: readonly ScheduleRequest[],
  placements: readonly { readonly host: string | null }[],
  chosen: ChosenPipeline,
): SimulationEndState {
  const index = view.index;
  const { trees, largest } = treeSums(index);
  const cloud: Sums = new Map();
  for (const sums of trees.values()) {
    for (const [classId, s] of sums) add(cloud, classId, s.capacity, s.used);
  }
  const placedOn = new Map<string, number>();
  for (const p of placements) {
    if (p.host !== null) placedOn.set(p.host, (placedOn.get(p.host) ?? 0) + 1);
  }
  const fullest = (c: readonly SimulatedClassFill[]) => Math.max(0, ...c.map((f) => f.fraction));
  const hosts = [...placedOn]
    .map(([host, placed]) => {
      const slot = index.slotOfUuid(host);
      return { host, placed, classes: fills(index, trees.get(slot) ?? new Map()) };
    })
    .sort((a, b) => fullest(b.classes) - fullest(a.classes) || (a.host < b.host ? -1 : 1));
  const names = new Map(view.aggregates.map((a) => [a.uuid, a.name]));
  const aggregates: SimulatedAggregateFill[] = [];
  for (const [aggId, members] of index.aggMembers) {
    const roots = new Set([...members].map((slot) => index.root[slot]!));
    if (roots.size === 0) {
      continue;
    }
    const sums: Sums = new Map();
    for (const root of roots) {
      for (const [classId, s] of trees.get(root) ?? []) add(sums, classId, s.capacity, s.used);
    }
    const uuid = index.aggregateTable.name(aggId);
    aggregates.push({ uuid, name: names.get(uuid) ?? null, classes: fills(index, sums) });
  }
  aggregates.sort((a, b) => (a.uuid < b.uuid ? -1 : 1));
  const { big, small } = extremes(index, largest, trace);
  return {
    classes: fills(index, cloud),
    hosts,
    aggregates,
    largestFlavor: big ? [...amountsOf(big)].map(([rc, n]) => `${rc}:${n}`).join(',') : null,
    // Counted once, however many fields ask: two counts at once would share the view.
    largestFlavorFits: once(async () => {
      if (!big) {
        return 0;
      }
      const [counted] = await headroomOn(
        view,
        [
          {
            name: 'largest',
            request: big.request,
            extraSpecs: big.extraSpecs,
            ...(big.availabilityZone ? { availabilityZone: big.availabilityZone } : {}),
          },
        ],
        chosen,
        { groupBy: 'none', projectId: big.projectId },
      );
      return counted?.count ?? 0;
    }),
    stranded: fills(index, stranded(index, trees, small)),
  };
}
