// The scheduler's request and answer in domain terms (the GraphQL ScheduleInput and
// ScheduleResult, and what explainPlacement returns).
import type { CandidateStage } from '../placement/allocation-candidates/candidate-stage';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { ProviderAllocation } from '../placement/allocation-candidates/results';
import type { ResourceProviderRecord } from '../placement/types';
import type { Explanation, RankedHost } from './runtime/explanation';

/** A scheduling request (the GraphQL ScheduleInput, in domain terms). */
export interface ScheduleRequest {
  readonly consumerUuids: readonly string[];
  readonly projectId: string;
  readonly userId: string;
  readonly consumerType?: string;
  readonly request: CandidateRequest;
  readonly extraSpecs: Readonly<Record<string, string>>;
  readonly hints?: Readonly<Record<string, readonly string[]>>;
  /** Availability zone asked for (AvailabilityZoneFilter). */
  readonly availabilityZone?: string;
  /** Filter order override for this request. */
  readonly filters?: readonly string[];
  /** The scheduler profile that runs (`default` when absent). */
  readonly profile?: string;
}

/** The outcome for one consumer. */
export interface Selection {
  readonly consumerUuid: string;
  /** Root provider uuid of the chosen host, or null when nothing fits. */
  readonly hostUuid: string | null;
  /** The claimed host's record as the claim left it (`schedule` only). */
  readonly host?: ResourceProviderRecord;
  readonly allocations: readonly ProviderAllocation[];
  /** Why no host was claimed (null on success). */
  readonly reason: string | null;
}

/** What explainPlacement and schedule return. */
export interface ScheduleOutcome {
  readonly selections: readonly Selection[];
  readonly explanation: Explanation;
  readonly ranking: readonly RankedHost[];
  /**
   * How the allocation-candidate query narrowed the hosts, computed when asked (once): for
   * explainPlacement always, for schedule when it found no candidate; absent otherwise. It
   * resolves to null when a plugin declared the request unsatisfiable before candidates were
   * asked for.
   */
  readonly candidateStage?: () => Promise<CandidateStage | null>;
}
