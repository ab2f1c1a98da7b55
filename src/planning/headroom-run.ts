// One headroom question as the adapters ask it (GraphQL `headroom`, `berth headroom`): the
// flavors checked (or the configured planning flavors), a fresh planning view of the cloud, the
// profile's pipeline, and the answer with its duration.
import {
  DEFAULT_PLANNING_FLAVORS,
  MAX_PLANNING_FLAVORS,
  type PlanningFlavorSetting,
} from '../config/planning';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import { BadRequestError, ErrorCode } from '../placement/errors';
import type { PipelineSet } from '../scheduler/runtime/pipeline-set';
import { DEFAULT_PROFILE } from '../scheduler/runtime/profiles';
import {
  type FlavorHeadroom,
  type HeadroomGroupBy,
  headroomOn,
  PACKING_RULE,
  type PlanningFlavor,
} from './headroom';
import { hostSlots } from './headroom-flavor';
import { type PlanningDeps, PlanningView } from './planning-view';

/** What a headroom question needs from the running replica (`app.scheduling` has both). */
export interface HeadroomDeps {
  readonly planning: PlanningDeps;
  readonly pipelines: PipelineSet;
}

/** A headroom question. */
export interface HeadroomQuestion {
  /** The flavors to count; absent: the configured planning flavors. */
  readonly flavors?: readonly PlanningFlavor[];
  readonly profile?: string;
  readonly groupBy?: HeadroomGroupBy;
  readonly projectId?: string;
}

/** The answer. */
export interface HeadroomAnswer {
  readonly profile: string;
  readonly packing: string;
  /** Hosts in the cloud (root providers that are not sharing providers). */
  readonly hosts: number;
  readonly flavors: readonly FlavorHeadroom[];
  readonly durationMs: number;
}

/** The configured planning flavors (BERTH_PLANNING_FLAVORS, or Nova's m1.* set). */
export function planningFlavors(deps: PlanningDeps): readonly PlanningFlavorSetting[] {
  return deps.flavors ?? DEFAULT_PLANNING_FLAVORS;
}

/** A configured planning flavor as the engine's request (one unsuffixed group). */
export function planningFlavorOf(f: PlanningFlavorSetting): PlanningFlavor {
  const request: CandidateRequest = {
    groups: [
      {
        suffix: '',
        resources: f.resources,
        requiredTraits: f.required.map((t) => [t]),
        forbiddenTraits: [],
        memberOf: [],
        forbiddenAggregates: [],
      },
    ],
  };
  return { name: f.name, request, extraSpecs: {} };
}

/**
 * Counts the headroom of `q`'s flavors on the cloud as this replica knows it now.
 * @throws BadRequestError HEADROOM_FLAVOR_COUNT (no flavor, or more than 50),
 *   HEADROOM_DUPLICATE_FLAVOR, UNKNOWN_PROFILE, and the engine's codes for a bad request.
 */
export async function headroom(deps: HeadroomDeps, q: HeadroomQuestion): Promise<HeadroomAnswer> {
  const start = performance.now();
  const flavors = q.flavors ?? planningFlavors(deps.planning).map(planningFlavorOf);
  if (flavors.length === 0 || flavors.length > MAX_PLANNING_FLAVORS) {
    throw new BadRequestError(
      `headroom counts 1 to ${MAX_PLANNING_FLAVORS} flavors; got ${flavors.length}.`,
      ErrorCode.HEADROOM_FLAVOR_COUNT,
    );
  }
  const names = new Set<string>();
  for (const f of flavors) {
    if (names.has(f.name)) {
      throw new BadRequestError(
        `Flavor name '${f.name}' appears more than once.`,
        ErrorCode.HEADROOM_DUPLICATE_FLAVOR,
      );
    }
    names.add(f.name);
  }
  const profile = q.profile ?? DEFAULT_PROFILE;
  const chosen = deps.pipelines.pipelineFor(profile);
  const view = await PlanningView.open(deps.planning);
  const zone =
    deps.pipelines.current.profiles.get(profile)?.config.plugins?.AvailabilityZoneFilter
      ?.defaultAvailabilityZone;
  const counted = await headroomOn(view, flavors, chosen, {
    groupBy: q.groupBy ?? 'none',
    ...(q.projectId === undefined ? {} : { projectId: q.projectId }),
    ...(typeof zone === 'string' ? { defaultZone: zone } : {}),
  });
  const hosts = hostSlots(view.index).length;
  return {
    profile,
    packing: PACKING_RULE,
    hosts,
    flavors: counted,
    durationMs: performance.now() - start,
  };
}
