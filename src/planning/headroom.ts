// Headroom per flavor: how many more instances of each flavor can still be placed.
// (The body is written with the headroom feature; the signature is what simulation builds on.)
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { ChosenPipeline } from '../scheduler/runtime/pipeline-set';
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
  /** The limit of the most hosts, or null when no host was counted. */
  readonly runsOutFirst: string | null;
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

/**
 * Headroom of each flavor on `view` under `chosen`, each flavor counted alone from the view's
 * state; the view is left as it was found.
 */
export async function headroomOn(
  _view: PlanningView,
  _flavors: readonly PlanningFlavor[],
  _chosen: ChosenPipeline,
  _o: { readonly groupBy: HeadroomGroupBy; readonly projectId?: string },
): Promise<FlavorHeadroom[]> {
  throw new Error('headroom: not written yet');
}
