// Headroom per flavor: how many more instances of each flavor can still be placed, counted on a
// planning view under Placement's rules and a profile's filters, cloud-wide and per group
// (aggregate, availability zone or host), with what ends each host's room. Each flavor is
// counted alone from the view's state; host by host in headroom-hosts.ts, the packing rule and
// its assumptions in docs/planning.md "Headroom".
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import { stageConstraints } from '../placement/allocation-candidates/stage-constraints';
import { compareText } from '../placement/compare-text';
import { BadRequestError, ErrorCode } from '../placement/errors';
import type { HostView } from '../scheduler/plugin-api';
import { requestSpecOf } from '../scheduler/request-spec';
import type { ChosenPipeline } from '../scheduler/runtime/pipeline-set';
import { defaultReasonCode } from '../scheduler/runtime/verdict';
import {
  candidateLimit,
  countFlat,
  countSharing,
  type FlavorContext,
  fillAlone,
  type HostHeadroom,
  hostKind,
} from './headroom-hosts';
import { probePipelines } from './headroom-probe';
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

/** Project the filters see when none is given. */
export const HEADROOM_PROJECT = 'headroom';

/** Zone of hosts in no zone aggregate when the profile does not configure one (Nova's default). */
export const DEFAULT_ZONE = 'nova';

/** Engine codes of a request naming an unknown resource class or trait. */
const UNKNOWN_NAME: ReadonlySet<string> = new Set([
  ErrorCode.RESOURCE_CLASS_NOT_FOUND,
  ErrorCode.TRAIT_NOT_FOUND,
]);

/** Host root slots: roots that are not sharing providers. */
function hostSlots(index: CapacityIndex): number[] {
  return Array.from(index.rootOrder()).filter((t) => index.sharing[t] !== 1);
}

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
  for (const flavor of flavors) {
    const perHost = await hostsHeadroom(view, flavor, chosen, o);
    out.push({
      name: flavor.name,
      ...summarise([...perHost.values()]),
      groups: o.groupBy === 'none' ? [] : groups(view, perHost, o),
    });
  }
  return out;
}

/** Every host's headroom for `flavor` (root uuid -> headroom), hosts in provider id order. */
async function hostsHeadroom(
  view: PlanningView,
  flavor: PlanningFlavor,
  chosen: ChosenPipeline,
  o: HeadroomOptions,
): Promise<Map<string, HostHeadroom>> {
  const { limit: _limit, randomize: _randomize, ...request } = flavor.request;
  const spec = await requestSpecOf(
    {
      request,
      extraSpecs: flavor.extraSpecs,
      projectId: o.projectId ?? HEADROOM_PROJECT,
      userId: HEADROOM_PROJECT,
      ...(flavor.availabilityZone === undefined
        ? {}
        : { availabilityZone: flavor.availabilityZone }),
    },
    async () => new Map(),
  );
  const pipeline = chosen.pipeline;
  const aggregates = pipeline.needsAggregates
    ? view.aggregates.filter((a) => Object.keys(a.metadata).length > 0)
    : [];
  const amended = await pipeline.amend(spec, { aggregates });
  const index = view.index;
  const slots = hostSlots(index);
  const counted = new Map<string, HostHeadroom>();
  if (amended.unsatisfiable) {
    const limit = defaultReasonCode(amended.unsatisfiable.plugin);
    for (const t of slots) {
      counted.set(index.uuid[t]!, { count: 0, independentCount: 0, limit });
    }
    return counted;
  }
  const ctx: FlavorContext = {
    view,
    request: amended.spec.candidateRequest,
    spec: amended.spec,
    probes: probePipelines(pipeline),
  };
  const kinds = { flat: [] as HostView[], tree: [] as HostView[], sharing: [] as HostView[] };
  let offered: HostView[];
  try {
    offered = view.hostViews(ctx.request);
  } catch (err) {
    // A class or trait no provider has ever had: no host takes the flavor.
    if (err instanceof BadRequestError && UNKNOWN_NAME.has(err.code)) {
      for (const t of slots) {
        counted.set(index.uuid[t]!, { count: 0, independentCount: 0, limit: err.code });
      }
      return counted;
    }
    throw err;
  }
  for (const h of offered) {
    kinds[hostKind(index, h, ctx.request)].push(h);
  }
  await countFlat(ctx, kinds.flat, counted);
  for (const h of kinds.tree) {
    const alone = await fillAlone(ctx, h, true);
    counted.set(h.uuid, { count: alone.count, independentCount: alone.count, limit: alone.limit });
  }
  if (kinds.sharing.length > 0) {
    await countSharing(ctx, kinds.sharing, counted);
  }
  const out = new Map<string, HostHeadroom>();
  let list: ReturnType<typeof stageConstraints> | undefined;
  for (const t of slots) {
    const uuid = index.uuid[t]!;
    const found = counted.get(uuid);
    if (found) {
      out.set(uuid, found);
    } else {
      list ??= stageConstraints(index, ctx.request);
      out.set(uuid, { count: 0, independentCount: 0, limit: candidateLimit(list, t) });
    }
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
