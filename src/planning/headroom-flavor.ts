// One flavor's headroom on every host (src/planning/headroom.ts sums and groups it): the request
// amended by the profile's pre-candidate hooks, the hosts the engine offers it, each counted as
// headroom-hosts.ts says, and the hosts it offers nothing with the first constraint they miss.
// A flat host's answer depends only on its own provider (inventories, usage, traits, aggregates,
// consumers: what its stamp in the capacity index moves with), the aggregate metadata, the
// request and the pipeline; it is kept per live index (headroom-cache.ts) and reused while its
// stamp is unchanged, so a question asked again after a few claims recounts only their hosts.
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import { stageConstraints } from '../placement/allocation-candidates/stage-constraints';
import { BadRequestError, ErrorCode } from '../placement/errors';
import type { AllocationRequestView, HostView } from '../scheduler/plugin-api';
import { requestSpecOf } from '../scheduler/request-spec';
import type { ChosenPipeline } from '../scheduler/runtime/pipeline-set';
import { defaultReasonCode } from '../scheduler/runtime/verdict';
import type { PlanningFlavor } from './headroom';
import { hostCache } from './headroom-cache';
import { offeredHosts } from './headroom-candidates';
import {
  candidateLimit,
  countFlat,
  countSharing,
  type FlavorContext,
  fillAlone,
  type HostHeadroom,
  hostKind,
  inTree,
} from './headroom-hosts';
import { probePipelines } from './headroom-probe';
import type { PlanningView } from './planning-view';

/** Engine codes of a request naming an unknown resource class or trait. */
const UNKNOWN_NAME: ReadonlySet<string> = new Set([
  ErrorCode.RESOURCE_CLASS_NOT_FOUND,
  ErrorCode.TRAIT_NOT_FOUND,
]);

/** Project (and user) the filters see when none is given. */
const HEADROOM_PROJECT = 'headroom';

/** What counting one flavor is given besides the flavor. */
export interface FlavorRun {
  readonly view: PlanningView;
  readonly chosen: ChosenPipeline;
  readonly projectId?: string;
  /** The live index the view stands for exactly (answers may be kept for it), or undefined. */
  readonly live?: CapacityIndex;
}

/** Host root slots: roots that are not sharing providers. */
export function hostSlots(index: CapacityIndex): number[] {
  return Array.from(index.rootOrder()).filter((t) => index.sharing[t] !== 1);
}

/**
 * Hosts to count when some answers were kept: up to this many, or this share of the cloud, are
 * enumerated one tree at a time; more (or every host) in one enumeration of the whole cloud.
 */
const ONE_BY_ONE = { hosts: 16, share: 1 / 8 };

/** Every host's headroom for `flavor` (root uuid -> headroom), hosts in provider id order. */
export async function flavorHeadroom(
  run: FlavorRun,
  flavor: PlanningFlavor,
): Promise<Map<string, HostHeadroom>> {
  const { view, chosen } = run;
  const { limit: _limit, randomize: _randomize, ...request } = flavor.request;
  const projectId = run.projectId ?? HEADROOM_PROJECT;
  const az = flavor.availabilityZone;
  const spec = await requestSpecOf(
    {
      request,
      extraSpecs: flavor.extraSpecs,
      projectId,
      userId: HEADROOM_PROJECT,
      ...(az === undefined ? {} : { availabilityZone: az }),
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
  const out = new Map<string, HostHeadroom>();
  if (amended.unsatisfiable) {
    const limit = defaultReasonCode(amended.unsatisfiable.plugin);
    for (const t of slots) {
      out.set(index.uuid[t]!, { count: 0, independentCount: 0, limit });
    }
    return out;
  }
  const ctx: FlavorContext = {
    view,
    request: amended.spec.candidateRequest,
    spec: amended.spec,
    probes: probePipelines(pipeline),
  };
  const cache =
    run.live && ctx.request.groups.length === 1
      ? hostCache(run.live, view.aggregates, [
          chosen.key,
          request,
          flavor.extraSpecs,
          az ?? null,
          projectId,
        ])
      : undefined;
  const cacheable = (t: number) =>
    index.members[t]!.length === 1 && index.anchors.sharingFor(t).length === 0;
  const todo: number[] = [];
  for (const t of slots) {
    const kept = cache && cacheable(t) ? cache.get(t) : undefined;
    if (kept && kept.stamp === index.stamp[t]) {
      out.set(index.uuid[t]!, kept.result);
    } else {
      todo.push(t);
    }
  }
  if (todo.length === 0) {
    return out;
  }
  let counted: Map<string, HostHeadroom>;
  try {
    const whole =
      todo.length === slots.length ||
      todo.length > Math.max(ONE_BY_ONE.hosts, slots.length * ONE_BY_ONE.share);
    counted = await countHosts(ctx, todo, whole);
  } catch (err) {
    // A class or trait no provider has ever had: no host takes the flavor.
    if (err instanceof BadRequestError && UNKNOWN_NAME.has(err.code)) {
      for (const t of slots) {
        out.set(index.uuid[t]!, { count: 0, independentCount: 0, limit: err.code });
      }
      return out;
    }
    throw err;
  }
  let list: ReturnType<typeof stageConstraints> | undefined;
  for (const t of todo) {
    const uuid = index.uuid[t]!;
    let result = counted.get(uuid);
    if (!result) {
      list ??= stageConstraints(index, ctx.request);
      result = { count: 0, independentCount: 0, limit: candidateLimit(list, t) };
    }
    out.set(uuid, result);
    if (cache && cacheable(t)) {
      cache.set(t, { stamp: index.stamp[t]!, result });
    }
  }
  // In provider id order, as the hosts are listed.
  return new Map(slots.map((t) => [index.uuid[t]!, out.get(index.uuid[t]!)!]));
}

/**
 * Counts the hosts `todo` (root slots) the engine offers the flavor; hosts it offers nothing
 * are absent. `whole`: one enumeration of the whole cloud, else one per host (its tree).
 */
async function countHosts(
  ctx: FlavorContext,
  todo: readonly number[],
  whole: boolean,
): Promise<Map<string, HostHeadroom>> {
  const index = ctx.view.index;
  const flat = new Map<string, AllocationRequestView[]>();
  const other: string[] = [];
  const collect = (found: ReturnType<typeof offeredHosts>, wanted?: ReadonlySet<string>) => {
    for (const [uuid, ar] of found.flat) {
      if (!wanted || wanted.has(uuid)) {
        flat.set(uuid, [ar]);
      }
    }
    for (const uuid of found.other) {
      if (!wanted || wanted.has(uuid)) {
        other.push(uuid);
      }
    }
  };
  if (whole) {
    collect(offeredHosts(index, ctx.request), new Set(todo.map((t) => index.uuid[t]!)));
  } else {
    for (const t of todo) {
      const uuid = index.uuid[t]!;
      const alone = index.anchors.sharingFor(t).length === 0;
      collect(
        offeredHosts(index, alone ? inTree(ctx.request, uuid) : ctx.request),
        new Set([uuid]),
      );
    }
  }
  const counted = new Map<string, HostHeadroom>();
  await countFlat(ctx, ctx.view.viewsOf(flat), counted);
  // Nested trees, several groups, sharing providers: with every allocation request the engine
  // offers them, placed one instance at a time.
  const shared: HostView[] = [];
  let all: HostView[] | undefined;
  for (const uuid of other) {
    const t = index.slotOfUuid(uuid);
    let h: HostView | undefined;
    if (index.anchors.sharingFor(t).length === 0) {
      h = ctx.view.hostViews(inTree(ctx.request, uuid)).find((x) => x.uuid === uuid);
    } else {
      all ??= ctx.view.hostViews(ctx.request);
      h = all.find((x) => x.uuid === uuid);
      if (h && hostKind(index, h, ctx.request) === 'sharing') {
        shared.push(h);
        continue;
      }
    }
    if (h) {
      const alone = await fillAlone(ctx, h, index.anchors.sharingFor(t).length === 0);
      counted.set(uuid, { count: alone.count, independentCount: alone.count, limit: alone.limit });
    }
  }
  if (shared.length > 0) {
    await countSharing(ctx, shared, counted);
  }
  return counted;
}
