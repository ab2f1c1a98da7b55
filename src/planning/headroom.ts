// Headroom per flavor: how many more instances of each flavor can still be placed, counted on a
// planning view under Placement's rules and a profile's filters, cloud-wide and per group
// (aggregate, availability zone or host), with what ends each host's room. Each flavor is
// counted alone from the view's state, host by host (headroom-flavor.ts, headroom-hosts.ts); the
// packing rule and its assumptions are in docs/planning.md "Headroom".
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import { compareText } from '../placement/compare-text';
import type { ChosenPipeline } from '../scheduler/runtime/pipeline-set';
import { flavorHeadroom } from './headroom-flavor';
import type { HostHeadroom } from './headroom-hosts';
import type { PlanningView } from './planning-view';

/** A flavor to count: what one instance asks for, as `schedule` would be asked. */
export interface PlanningFlavor {
  readonly name: string;
  readonly request: CandidateRequest;
  readonly extraSpecs: Readonly<Record<string, string>>;
  readonly availabilityZone?: string;
}

/** How counts are grouped besides cloud-wide. */
export type HeadroomGroupBy = 'none' | 'aggregate' | 'zone' | 'root';

/** Hosts whose room for the flavor ends on one constraint. */
export interface HeadroomLimit {
  /** A resource class (its capacity ran out) or a reason code (a filter's, or `candidate.*`). */
  readonly by: string;
  readonly hosts: number;
}

/** Counts for one group of hosts (or the whole cloud). */
export interface HeadroomCount {
  /** Instances that still fit, packed as described in docs/planning.md. */
  readonly count: number;
  /** Instances that fit if every host were filled independently (differs with sharing providers). */
  readonly independentCount: number;
  readonly hosts: number;
  readonly hostsWithRoom: number;
  /**
   * The limit of the most hosts among those with room (count > 0), or among all hosts when none
   * has room; ties to the first by code units. Null when the group has no host.
   */
  readonly runsOutFirst: string | null;
  /** Every host's limit (what ended its room after packing), counted, most hosts first. */
  readonly limits: readonly HeadroomLimit[];
}

/** One group's counts: an aggregate (uuid), a zone (name) or a host (root uuid). */
export interface HeadroomGroup extends HeadroomCount {
  readonly key: string;
  readonly name: string | null;
}

/** One flavor's headroom, cloud-wide and per group. */
export interface FlavorHeadroom extends HeadroomCount {
  readonly name: string;
  readonly groups: readonly HeadroomGroup[];
}

/** Options of {@link headroomOn}. */
export interface HeadroomOptions {
  readonly groupBy: HeadroomGroupBy;
  /** The project filters see (default `headroom`). */
  readonly projectId?: string;
  /** The zone of hosts in no zone aggregate (AvailabilityZoneFilter's default, `nova`). */
  readonly defaultZone?: string;
}

/** The packing rule, in one sentence (the GraphQL `Headroom.packing`). */
export const PACKING_RULE =
  "Each host is filled with the allocation request schedule's claim would take on it (the engine's first for that host), one instance at a time, until the engine or a filter of the profile refuses it; hosts that share a provider are filled in the profile's ranking order.";

/** Zone of hosts in no zone aggregate when the profile does not configure one (Nova's default). */
const DEFAULT_ZONE = 'nova';

/**
 * Headroom of each flavor on `view` under `chosen`, each flavor counted alone from the view's
 * state; the view is left as it was found.
 */
export async function headroomOn(
  view: PlanningView,
  flavors: readonly PlanningFlavor[],
  chosen: ChosenPipeline,
  o: HeadroomOptions,
): Promise<FlavorHeadroom[]> {
  const out: FlavorHeadroom[] = [];
  const live = view.unchangedLive();
  const run = {
    view,
    chosen,
    ...(o.projectId === undefined ? {} : { projectId: o.projectId }),
    ...(live ? { live } : {}),
  };
  for (const [i, flavor] of flavors.entries()) {
    if (i > 0) {
      // Between two flavors, whatever else the replica has to do (a schedule call) runs first.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const perHost = await flavorHeadroom(run, flavor);
    out.push({
      name: flavor.name,
      ...summarise([...perHost.values()]),
      groups: o.groupBy === 'none' ? [] : groups(view, perHost, o),
    });
  }
  return out;
}

/** The counts of a set of hosts. */
function summarise(hosts: readonly HostHeadroom[]): HeadroomCount {
  let count = 0;
  let independentCount = 0;
  let hostsWithRoom = 0;
  const all = new Map<string, number>();
  const withRoom = new Map<string, number>();
  for (const h of hosts) {
    count += h.count;
    independentCount += h.independentCount;
    all.set(h.limit, (all.get(h.limit) ?? 0) + 1);
    if (h.count > 0) {
      hostsWithRoom++;
      withRoom.set(h.limit, (withRoom.get(h.limit) ?? 0) + 1);
    }
  }
  const ranked = (m: Map<string, number>): HeadroomLimit[] =>
    [...m]
      .map(([by, n]) => ({ by, hosts: n }))
      .sort((a, b) => b.hosts - a.hosts || compareText(a.by, b.by));
  const limits = ranked(all);
  const first = hostsWithRoom > 0 ? ranked(withRoom)[0] : limits[0];
  return {
    count,
    independentCount,
    hosts: hosts.length,
    hostsWithRoom,
    runsOutFirst: first?.by ?? null,
    limits,
  };
}

/** Per-group counts: each host counts in every group it belongs to. */
function groups(
  view: PlanningView,
  perHost: ReadonlyMap<string, HostHeadroom>,
  o: HeadroomOptions,
): HeadroomGroup[] {
  const index = view.index;
  const byUuid = new Map(view.aggregates.map((a) => [a.uuid, a]));
  const members = new Map<string, { name: string | null; hosts: HostHeadroom[] }>();
  const add = (key: string, name: string | null, h: HostHeadroom) => {
    const g = members.get(key);
    if (g) {
      g.hosts.push(h);
    } else {
      members.set(key, { name, hosts: [h] });
    }
  };
  for (const [uuid, h] of perHost) {
    const t = index.slotOfUuid(uuid);
    if (o.groupBy === 'root') {
      add(uuid, index.name[t] ?? null, h);
      continue;
    }
    const aggs = Array.from(index.aggregates[t] ?? [], (id) => index.aggregateTable.name(id));
    if (o.groupBy === 'aggregate') {
      for (const a of aggs) {
        add(a, byUuid.get(a)?.name ?? null, h);
      }
      continue;
    }
    const zones = new Set(
      aggs.flatMap((a) => {
        const zone = byUuid.get(a)?.metadata.availability_zone;
        return zone === undefined ? [] : [zone];
      }),
    );
    for (const zone of zones.size > 0 ? zones : [o.defaultZone ?? DEFAULT_ZONE]) {
      add(zone, null, h);
    }
  }
  return [...members]
    .map(([key, g]) => ({ key, name: g.name, ...summarise(g.hosts) }))
    .sort((a, b) => compareText(a.name ?? a.key, b.name ?? b.key) || compareText(a.key, b.key));
}
