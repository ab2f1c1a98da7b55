// Runs scheduling requests end to end: request amendment, (cached) allocation candidates, host
// views from the capacity index, filters and weighers, and — for `schedule` — the claim of each
// consumer with fall-through to the next host on conflict, all or nothing for multi-create
// (Nova: scheduler/manager.py select_destinations, scheduler/utils.py claim_resources).

import { ATTR_CONSUMERS, ATTR_HOST } from '../observability/attributes';
import type { Logger } from '../observability/logger';
import { BARE_STAGES, type StageObserver } from '../observability/stage';
import type { CandidateService } from '../placement/allocation-candidates/candidate-service';
import type { CandidateStage } from '../placement/allocation-candidates/candidate-stage';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { AllocationCandidates } from '../placement/allocation-candidates/results';
import type { Claimed, ClaimService } from '../placement/claims';
import { ConflictError, ErrorCode } from '../placement/errors';
import type { AggregateMetadataCache } from '../placement/host-rows';
import { ClaimBatcher, type ClaimWriter } from './claiming/claim-batcher';
import { InFlight, selectClaimOrder } from './claiming/claim-order';
import { proposeSelections } from './claiming/dry-run';
import { candidateStageOf, type Evaluated, once, type RequestEvaluation } from './evaluated';
import { fromView, noValidHost, requestsByTree } from './host-requests';
import type { HostView } from './plugin-api';
import {
  GROUP_HINT,
  type InstanceHostLookup,
  requestSpecOf,
  type ServerGroupLookup,
} from './request-spec';
import type { RankedHost } from './runtime/explanation';
import type { ChosenPipeline } from './runtime/pipeline-set';
import type { ScheduleOutcome, ScheduleRequest, Selection } from './schedule-types';
import type { CandidateCache } from './state/candidate-cache';
import { type EvaluationMemo, evaluationKey } from './state/evaluation-memo';
import type { HostViewCache } from './state/host-view-cache';
import type { StateVersion } from './state/state-version';

export type { ScheduleOutcome, ScheduleRequest, Selection } from './schedule-types';

/** The span attributes of a claim attempt. */
const attempt = (r: RankedHost) => ({ [ATTR_HOST]: r.host.uuid });

/** Server-group conflicts a claim may meet on top of its attempts (racing members). */
const MAX_GROUP_CONFLICTS = 64;

/**
 * What the scheduler works with, each built once by the composition root (src/app/scheduling.ts):
 * the capacity index's candidates, the state caches (each keyed by the index revision and the
 * aggregate-metadata version), the pipeline per filter override, and the claim service.
 */
export interface SchedulingDeps {
  readonly candidates: CandidateService;
  readonly pipelineFor: (profile?: string, filters?: readonly string[]) => ChosenPipeline;
  readonly candidateCache: CandidateCache;
  readonly hostViews: HostViewCache;
  readonly aggregates: AggregateMetadataCache;
  readonly evaluations: EvaluationMemo<Evaluated>;
  /** Writes claims (batched here: those that queue up together share a transaction) and undoes them. */
  readonly claimService: ClaimWriter & Pick<ClaimService, 'undo'>;
  /** Most claims one transaction writes (`BERTH_CLAIM_BATCH`; 1 = every claim alone). */
  readonly claimBatch: number;
  /**
   * Wraps the writer of the batched claims (timing, src/observability/app-metrics.ts); unwrapped
   * when absent.
   */
  readonly observeClaims?: (writer: ClaimWriter) => ClaimWriter;
  readonly log: Logger;
  /** Hosts of the instances scheduler hints name (src/placement/consumer.ts hostsOfConsumers). */
  readonly instanceHosts: InstanceHostLookup;
  /** Server groups named by the `group` hint (src/placement/server-group.ts). */
  readonly serverGroups?: ServerGroupLookup;
  /** How many hosts a consumer's claim may try before giving up (default 10). */
  readonly maxClaimAttempts?: number;
  /** Times and traces the stages (src/observability/stage.ts); bare calls when absent. */
  readonly stages?: StageObserver;
}

/** Orchestrates the pipeline over the domain services. */
export class SchedulingService {
  private readonly inFlight = new InFlight();
  private readonly aggregates: AggregateMetadataCache;
  private readonly pipelineFor: SchedulingDeps['pipelineFor'];
  private readonly cache: CandidateCache;
  private readonly log: Logger;
  /** Undoes the claims of a multi-create that failed. */
  private readonly claimService: Pick<ClaimService, 'undo'>;
  private readonly candidates: CandidateService;
  private readonly stages: StageObserver;
  /** Host views between requests. */
  readonly views: HostViewCache;
  /** Writes claims, batching those that queue up together. */
  readonly claims: ClaimBatcher;
  /** Evaluations shared by identical requests. */
  readonly evaluations: EvaluationMemo<Evaluated>;

  constructor(private readonly deps: SchedulingDeps) {
    this.aggregates = deps.aggregates;
    this.pipelineFor = deps.pipelineFor;
    this.cache = deps.candidateCache;
    this.log = deps.log;
    this.claimService = deps.claimService;
    this.candidates = deps.candidates;
    this.views = deps.hostViews;
    this.claims = new ClaimBatcher(
      deps.observeClaims ? deps.observeClaims(deps.claimService) : deps.claimService,
      deps.claimBatch,
    );
    this.evaluations = deps.evaluations;
    this.stages = deps.stages ?? BARE_STAGES;
  }

  /**
   * One pipeline run: amended request, candidates, host views, filters and weighers (shared with
   * identical requests while the index and aggregate metadata are unchanged), then this request's
   * own ranking.
   */
  private async evaluate(
    req: ScheduleRequest,
    chosen = this.pipelineFor(req.profile, req.filters),
  ): Promise<RequestEvaluation> {
    const { pipeline } = chosen;
    const spec = await requestSpecOf(req, this.deps.instanceHosts, this.deps.serverGroups);
    // Every change heard so far is applied first, so the version names what the evaluation reads.
    await this.candidates.current();
    const version: StateVersion = {
      index: this.candidates.revision,
      aggregates: this.aggregates.changes,
    };
    const evaluation = await this.evaluations.get(
      evaluationKey(spec, chosen.key),
      version,
      async (): Promise<Evaluated> => {
        let candidateRequest: CandidateRequest | undefined;
        const evaluated = await pipeline.evaluate(spec, {
          aggregates: async () =>
            (await this.aggregates.all()).filter((a) => Object.keys(a.metadata).length > 0),
          hosts: (amended) => {
            candidateRequest = amended.candidateRequest;
            return this.stages.observe('candidates', undefined, undefined, async () =>
              this.hostViews(
                await this.cache.getOrCompute(amended.candidateRequest, this.candidates),
              ),
            );
          },
          stages: this.stages,
        });
        return candidateRequest ? { ...evaluated, candidateRequest } : evaluated;
      },
    );
    const result = pipeline.rank(evaluation);
    return {
      explanation: { ...result.explanation, profile: chosen.profile },
      ranking: [...result.hosts],
      spec,
      ...(evaluation.candidateRequest ? { candidateRequest: evaluation.candidateRequest } : {}),
    };
  }

  /** Groups allocation requests by tree; the trees' views come from the host-view cache. */
  private async hostViews(c: AllocationCandidates): Promise<HostView[]> {
    const requests = requestsByTree(c);
    if (requests.size === 0) {
      return [];
    }
    const [index, aggregates] = await Promise.all([
      this.candidates.current(),
      this.aggregates.all(),
    ]);
    return this.views.views(index, aggregates, requests);
  }

  /**
   * Dry run: ranks hosts and proposes one per consumer as `schedule` would without races
   * (later consumers see the earlier proposals' consumption). Claims nothing.
   */
  explain(req: ScheduleRequest): Promise<ScheduleOutcome> {
    return this.stages.observe('explain', undefined, undefined, () => this.explainNow(req));
  }

  private async explainNow(req: ScheduleRequest): Promise<ScheduleOutcome> {
    const evaluated = await this.evaluate(req);
    const { explanation, ranking, spec } = evaluated;
    // Explained now when no host had candidates (the reason says why), else only if asked for.
    const candidateStage = once(() =>
      candidateStageOf(this.candidates, this.aggregates, evaluated),
    );
    const reason = noValidHost(
      explanation,
      explanation.hostsIn === 0 ? await candidateStage() : null,
    );
    const selections = proposeSelections(req.consumerUuids, ranking, spec, reason);
    return { selections, explanation, ranking, candidateStage };
  }

  /**
   * Places every consumer in order, claiming with setAllocations semantics. A consumer that
   * already has allocations (a move) gets the new ones added to its current ones, and the move is
   * recorded for confirmMove / revertMove. On a conflict the next host is tried, up to
   * maxClaimAttempts hosts per consumer. All or nothing, as Nova's multi-create: when a consumer
   * cannot be placed (or its claim fails, e.g. over quota), the claims made earlier in this call
   * are undone (generation-checked) and every selection says why.
   */
  schedule(req: ScheduleRequest): Promise<ScheduleOutcome> {
    const attrs = { [ATTR_CONSUMERS]: req.consumerUuids.length };
    return this.stages.observe('schedule', undefined, attrs, () => this.scheduleNow(req));
  }

  private async scheduleNow(req: ScheduleRequest): Promise<ScheduleOutcome> {
    const selections: Selection[] = [];
    const claimed: Claimed[] = [];
    let first: RequestEvaluation | undefined;
    let candidateStage: ScheduleOutcome['candidateStage'];
    const chosen = this.pipelineFor(req.profile, req.filters); // for all, whatever a reload does
    for (const consumerUuid of req.consumerUuids) {
      // Earlier consumers of this request have claimed: they count as placed members.
      const evaluated = await this.evaluate({ ...req, consumerUuids: [consumerUuid] }, chosen);
      first ??= evaluated;
      let result: Awaited<ReturnType<SchedulingService['claim']>>;
      try {
        result = await this.claim(req, consumerUuid, evaluated);
      } catch (err) {
        if (claimed.length > 0) {
          const undone = await this.rollback(claimed);
          if (err instanceof Error) {
            err.message = `${err.message} (multi-create of ${req.consumerUuids.length}: consumer ${consumerUuid} failed; ${undone})`;
          }
        }
        throw err;
      }
      selections.push(result.selection);
      if (!result.claimed) {
        const found = result.candidateStage;
        candidateStage = found ? () => Promise.resolve(found) : undefined;
        if (req.consumerUuids.length > 1) {
          return {
            selections: await this.failAll(req, consumerUuid, result.selection, claimed),
            explanation: first.explanation,
            ranking: first.ranking,
            ...(candidateStage ? { candidateStage } : {}),
          };
        }
        break;
      }
      claimed.push(result.claimed);
    }
    return {
      selections,
      explanation: first!.explanation,
      ranking: first!.ranking,
      ...(candidateStage ? { candidateStage } : {}),
    };
  }

  /** Multi-create failed at `failed`: undo the earlier claims, explain every selection. */
  private async failAll(
    req: ScheduleRequest,
    failed: string,
    failure: Selection,
    claimed: readonly Claimed[],
  ): Promise<Selection[]> {
    const undone = claimed.length > 0 ? await this.rollback(claimed) : '';
    const why = `multi-create of ${req.consumerUuids.length} is all or nothing and consumer ${failed} could not be placed (${failure.reason})`;
    return req.consumerUuids.map((consumerUuid): Selection => {
      if (consumerUuid === failed) {
        return failure;
      }
      const wasClaimed = claimed.some((c) => c.consumerUuid === consumerUuid);
      return {
        consumerUuid,
        hostUuid: null,
        allocations: [],
        reason: wasClaimed ? `Released: ${why}; ${undone}` : `Not attempted: ${why}`,
      };
    });
  }

  /** Undoes claims in reverse order; says what happened (failures are logged, not thrown). */
  private async rollback(claimed: readonly Claimed[]): Promise<string> {
    const failed: string[] = [];
    for (const c of [...claimed].reverse()) {
      try {
        await this.claimService.undo(c);
      } catch (err) {
        failed.push(`${c.consumerUuid}: ${(err as Error).message}`);
        this.log.warn(
          { consumerUuid: c.consumerUuid, err: (err as Error).message },
          'multi-create rollback could not release a claim (the consumer changed since)',
        );
      }
    }
    const ok = claimed.length - failed.length;
    return failed.length === 0
      ? `${ok} earlier claim(s) released`
      : `${ok} earlier claim(s) released, ${failed.length} not: ${failed.join('; ')}`;
  }

  private async claim(
    req: ScheduleRequest,
    consumerUuid: string,
    evaluated: RequestEvaluation,
  ): Promise<{
    selection: Selection;
    claimed: Claimed | null;
    candidateStage: CandidateStage | null;
  }> {
    const maxAttempts = this.deps.maxClaimAttempts ?? 10;
    const group = req.hints?.[GROUP_HINT]?.[0];
    const order = selectClaimOrder(evaluated.ranking, this.inFlight);
    let attempts = 0;
    let groupConflicts = 0;
    let lastError = '';
    for (const ranked of order) {
      if (attempts >= maxAttempts) {
        break;
      }
      const ar = ranked.host.allocationRequests[0];
      if (!ar) {
        continue;
      }
      attempts++;
      const release = this.inFlight.take(ranked.host.uuid);
      try {
        const allocations = fromView(ar.allocations);
        const claimed = await this.stages.observe('claim', undefined, attempt(ranked), () =>
          this.claims.claim({
            consumerUuid,
            projectId: req.projectId,
            userId: req.userId,
            consumerType: req.consumerType ?? 'INSTANCE',
            hostUuid: ranked.host.uuid,
            allocations,
            ...(group === undefined ? {} : { serverGroup: group }),
          }),
        );
        return {
          selection: {
            consumerUuid,
            hostUuid: ranked.host.uuid,
            host: claimed.host,
            allocations,
            reason: null,
          },
          claimed,
          candidateStage: null,
        };
      } catch (err) {
        if (
          !(err instanceof ConflictError) ||
          err.code === ErrorCode.QUOTA_EXCEEDED ||
          err.code === ErrorCode.SERVER_GROUP_MEMBER ||
          err.code === ErrorCode.MOVE_IN_PROGRESS
        ) {
          throw err;
        }
        lastError = err.message;
        // A host a racing member of the group just took is not a failed attempt: the next host
        // is as good a choice as this one was (bounded, so one request stays bounded).
        if (err.code === ErrorCode.SERVER_GROUP_POLICY && groupConflicts++ < MAX_GROUP_CONFLICTS) {
          attempts--;
        }
        this.log.debug(
          { consumerUuid, host: ranked.host.uuid, err: err.message },
          'claim conflict; trying the next host',
        );
      } finally {
        release();
      }
    }
    const noCandidates = evaluated.ranking.length === 0 && evaluated.explanation.hostsIn === 0;
    const candidateStage = noCandidates
      ? await candidateStageOf(this.candidates, this.aggregates, evaluated)
      : null;
    const reason =
      evaluated.ranking.length === 0
        ? noValidHost(evaluated.explanation, candidateStage)
        : `No valid host: ${attempts} claim attempt(s) failed${lastError ? `; last: ${lastError}` : ''}`;
    const selection = { consumerUuid, hostUuid: null, allocations: [], reason };
    return { selection, claimed: null, candidateStage };
  }
}
