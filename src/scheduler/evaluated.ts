// What a pipeline run leaves for a request (its explanation and ranking, and the request whose
// allocation candidates it filtered), and the candidate stage explained from it.
import type { CandidateService } from '../placement/allocation-candidates/candidate-service';
import {
  type CandidateStage,
  explainCandidateStage,
} from '../placement/allocation-candidates/candidate-stage';
import type { CapacityIndex } from '../placement/allocation-candidates/capacity-index';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { AggregateMetadataCache } from '../placement/host-rows';
import type { RequestSpec } from './plugin-api';
import type { Explanation, RankedHost } from './runtime/explanation';
import type { Evaluation } from './runtime/pipeline';

/** A pipeline evaluation and the request (as plugins amended it) whose candidates it filtered. */
export type Evaluated = Evaluation & { readonly candidateRequest?: CandidateRequest };

/** What one pipeline run gives a request: its explanation and ranking. */
export interface RequestEvaluation {
  readonly explanation: Explanation;
  readonly ranking: RankedHost[];
  readonly spec: RequestSpec;
  /** The request whose allocation candidates were filtered (absent when a plugin declared it unsatisfiable). */
  readonly candidateRequest?: CandidateRequest;
}

/**
 * How the allocation-candidate query narrowed the hosts for an evaluated request, on `index`
 * (the live one, or a planning view's) with `aggregates` naming the aggregates; null when a
 * plugin declared the request unsatisfiable before any candidate was asked for.
 */
export function explainEvaluated(
  index: CapacityIndex,
  aggregates: readonly { readonly uuid: string; readonly name: string | null }[],
  evaluated: RequestEvaluation,
): CandidateStage | null {
  if (!evaluated.candidateRequest) {
    return null;
  }
  const names = new Map(aggregates.map((a) => [a.uuid, a.name ?? undefined]));
  return explainCandidateStage(index, evaluated.candidateRequest, {
    hostsWithCandidates: evaluated.explanation.hostsIn,
    aggregateName: (uuid) => names.get(uuid),
  });
}

/** {@link explainEvaluated} on this replica's current index. */
export async function candidateStageOf(
  candidates: CandidateService,
  aggregates: AggregateMetadataCache,
  evaluated: RequestEvaluation,
): Promise<CandidateStage | null> {
  if (!evaluated.candidateRequest) {
    return null;
  }
  const [index, all] = await Promise.all([candidates.current(), aggregates.all()]);
  return explainEvaluated(index, all, evaluated);
}

/** `fn`, run at the first call only; later calls share its promise. */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => {
    p ??= fn();
    return p;
  };
}
