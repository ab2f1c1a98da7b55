// Drain plans: where every consumer of the hosts to drain would go (maintenance, evacuation), or
// why one cannot move, optionally reserved as moves. Each consumer is planned on one PlanningView,
// largest first (src/planning/drain-consumers.ts): its allocations on the drained trees are
// released from the view, a request made of their per-class totals is evaluated as `schedule`
// would (the profile's pipeline, its server group's policy), the drained hosts are dropped from
// the ranking, and the consumer is placed on the best host left — so the consumers planned after
// it see it there (no double booking, anti-affinity against planned members). Nova migrates;
// berth plans and, with `reserve`, claims the destinations as moves (src/placement/claims.ts).
import type { DataSource } from 'typeorm';
import type { CandidateStage } from '../placement/allocation-candidates/candidate-stage';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { ProviderAllocation } from '../placement/allocation-candidates/results';
import type { ClaimService } from '../placement/claims';
import { BadRequestError, ConflictError, ErrorCode, NotFoundError } from '../placement/errors';
import type { ResourceProviderService } from '../placement/resource-provider';
import type { RequestEvaluation } from '../scheduler/evaluated';
import { fromView, noValidHost } from '../scheduler/host-requests';
import { GROUP_HINT } from '../scheduler/request-spec';
import type { RankedHost } from '../scheduler/runtime/explanation';
import type { ChosenPipeline } from '../scheduler/runtime/pipeline-set';
import type { ScheduleRequest } from '../scheduler/schedule-types';
import { type DrainConsumer, drainConsumers, drainHostsOrThrow } from './drain-consumers';
import { type PlanningDeps, PlanningView } from './planning-view';

/** Where one consumer of a drained host goes, or why it cannot move. */
export interface DrainMove {
  readonly consumerUuid: string;
  readonly projectId: string;
  /** The drained host it runs on (root provider uuid). */
  readonly from: string;
  /** The destination host (root provider uuid), or null when it cannot move. */
  readonly to: string | null;
  /** Its allocations at the destination (empty when it cannot move). */
  readonly allocations: readonly ProviderAllocation[];
  /** Why it cannot move (null when it can). */
  readonly reason: string | null;
  /** How the candidate query narrowed the hosts, when no host had candidates. */
  readonly candidateStage: CandidateStage | null;
  /** The destination's total weight. */
  readonly weight: number | null;
}

/** A drain plan. */
export interface DrainPlan {
  readonly hosts: readonly string[];
  /** One per consumer of the drained hosts, in the order they were planned (largest first). */
  readonly moves: readonly DrainMove[];
  readonly movable: number;
  readonly unmovable: number;
  /** True when the destinations were claimed as moves. */
  readonly reserved: boolean;
  readonly durationMs: number;
}

/** What drain plans read and (to reserve) write. */
export interface DrainDeps {
  readonly ds: Pick<DataSource, 'query'>;
  readonly providers: Pick<ResourceProviderService, 'byUuids'>;
  readonly planning: PlanningDeps;
  readonly pipelineFor: (profile?: string) => ChosenPipeline;
  readonly claims: Pick<ClaimService, 'claim' | 'undo'>;
}

/** What a plan is asked for. */
export interface DrainPlanInput {
  /** Root provider uuids of the hosts to drain. */
  readonly hosts: readonly string[];
  readonly profile?: string;
  /** Candidates each consumer's first evaluation asks for (default {@link DRAIN_CANDIDATE_LIMIT}). */
  readonly candidateLimit?: number;
}

/**
 * Allocation candidates each consumer's first evaluation asks for (the request's `limit`, as Nova
 * asks Placement for at most `max_placement_results`): the destination is the best of the first
 * this-many hosts with room, in Placement's order. When every one of them is filtered out, the
 * consumer is evaluated again against every host, so "cannot move" always means no host at all.
 */
export const DRAIN_CANDIDATE_LIMIT = 100;

/** The first evaluation's candidate limit. @throws BadRequestError INVALID_INPUT */
function limitOf(input: DrainPlanInput): number {
  const limit = input.candidateLimit ?? DRAIN_CANDIDATE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new BadRequestError(
      `candidateLimit must be a positive integer, got ${limit}.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return limit;
}

const isTooManyCandidates = (err: unknown) =>
  err instanceof BadRequestError && err.code === ErrorCode.TOO_MANY_CANDIDATES;

/**
 * The drain plan of `input.hosts` under `input.profile`; writes nothing.
 * @throws BadRequestError for bad hosts (src/planning/drain-consumers.ts) or an unknown profile.
 */
export async function planDrain(deps: DrainDeps, input: DrainPlanInput): Promise<DrainPlan> {
  const started = performance.now();
  const { hosts, moves } = await planned(deps, input);
  return summary(hosts, moves, false, started);
}

/** The checked hosts, their consumers (largest first) and each one's planned move. */
async function planned(
  deps: DrainDeps,
  input: DrainPlanInput,
): Promise<{ hosts: string[]; consumers: DrainConsumer[]; moves: DrainMove[] }> {
  const hosts = await drainHostsOrThrow(deps.providers, input.hosts);
  const chosen = deps.pipelineFor(input.profile);
  const limit = limitOf(input);
  const consumers = await drainConsumers(deps.ds, hosts);
  const view = await drainingView(deps, hosts);
  const drained = new Set(hosts);
  const moves: DrainMove[] = [];
  for (const c of consumers) {
    moves.push(await planOne(view, c, chosen, drained, input.profile, limit));
  }
  return { hosts, consumers, moves };
}

/**
 * Plans the drain of `input.hosts`, then claims each movable consumer's destination as a move
 * (added to its current allocations, recorded for confirmMove / revertMove), consumer by consumer
 * in plan order. A claim PostgreSQL refuses (a racing claim took the room, a server-group member
 * arrived) is planned once more on a fresh view and claimed again; if that fails too, the
 * consumer is reported unmovable with the claim's error. Moves claimed before stay claimed.
 */
export async function reserveDrain(deps: DrainDeps, input: DrainPlanInput): Promise<DrainPlan> {
  const started = performance.now();
  const plan = await planned(deps, input);
  const drained = new Set(plan.hosts);
  const chosen = deps.pipelineFor(input.profile);
  const out: DrainMove[] = [];
  for (const [i, move] of plan.moves.entries()) {
    const c = plan.consumers[i]!;
    if (move.to === null) {
      out.push(move);
      continue;
    }
    let error = await claimMove(deps, c, move);
    if (error === null) {
      out.push(move);
      continue;
    }
    const view = await drainingView(deps, plan.hosts);
    const again = await planOne(view, c, chosen, drained, input.profile, limitOf(input));
    if (again.to === null) {
      out.push(again);
      continue;
    }
    error = await claimMove(deps, c, again);
    out.push(error === null ? again : unmovable(again, `The claim failed: ${error}`));
  }
  return summary(plan.hosts, out, true, started);
}

/** Claims `move` for `c`; null when claimed, else the conflict's message. */
async function claimMove(
  deps: DrainDeps,
  c: DrainConsumer,
  move: DrainMove,
): Promise<string | null> {
  try {
    const claimed = await deps.claims.claim({
      consumerUuid: c.uuid,
      projectId: c.projectId,
      userId: c.userId,
      ...(c.consumerType === null ? {} : { consumerType: c.consumerType }),
      hostUuid: move.to!,
      allocations: move.allocations,
      ...(c.serverGroup ? { serverGroup: c.serverGroup } : {}),
    });
    if (!claimed.moved) {
      // Its allocations were deleted since the plan read them: the claim made a new consumer
      // holding only the destination, which is given back at once.
      await deps.claims.undo(claimed);
      return 'The consumer no longer holds allocations.';
    }
    return null;
  } catch (err) {
    if (err instanceof ConflictError || err instanceof NotFoundError) {
      return err.message;
    }
    throw err;
  }
}

function unmovable(move: DrainMove, reason: string): DrainMove {
  return { ...move, to: null, allocations: [], reason, weight: null, candidateStage: null };
}

function summary(
  hosts: readonly string[],
  moves: readonly DrainMove[],
  reserved: boolean,
  started: number,
): DrainPlan {
  const movable = moves.filter((m) => m.to !== null).length;
  return {
    hosts,
    moves,
    movable,
    unmovable: moves.length - movable,
    reserved,
    durationMs: performance.now() - started,
  };
}

/**
 * A planning view on which the drained hosts are full: every inventory of their trees is taken
 * up to its capacity by a placeholder, so they are never candidates, and the funnel, the
 * candidate stage and the weighers count only hosts that can take a consumer. Their consumers
 * are not released: a move holds its source until Nova confirms it, and a member that stays
 * (or has not moved yet) still runs there as far as its server group is concerned; once placed
 * on the view, a member counts on its destination only (src/planning/planning-view.ts).
 */
async function drainingView(deps: DrainDeps, hosts: readonly string[]): Promise<PlanningView> {
  const view = await PlanningView.open(deps.planning);
  const index = view.index;
  const inv = index.inventories;
  for (const host of hosts) {
    const root = index.slotOfUuid(host);
    const fill: Record<string, Record<string, number>> = {};
    for (const slot of root < 0 ? [] : (index.members[root] ?? [])) {
      for (const i of index.inventorySlots(slot)) {
        const free = inv.capacity[i]! - inv.used[i]!;
        if (free > 0) {
          const uuid = index.uuid[slot]!;
          fill[uuid] = { ...fill[uuid], [index.classes.name(inv.resourceClass[i]!)]: free };
        }
      }
    }
    if (Object.keys(fill).length > 0) {
      view.place(`drained:${host}`, host, fill);
    }
  }
  return view;
}

/** The request a consumer's move makes: its per-class totals on the drained trees, one group. */
export function moveRequest(c: DrainConsumer): CandidateRequest {
  return {
    groups: [
      {
        suffix: '',
        resources: c.resources,
        requiredTraits: [],
        forbiddenTraits: [],
        memberOf: [],
        forbiddenAggregates: [],
      },
    ],
  };
}

/** Plans one consumer on `view` and, when it can move, places it there. */
async function planOne(
  view: PlanningView,
  c: DrainConsumer,
  chosen: ChosenPipeline,
  drained: ReadonlySet<string>,
  profile: string | undefined,
  limit: number,
): Promise<DrainMove> {
  const base = {
    consumerUuid: c.uuid,
    projectId: c.projectId,
    from: c.host,
    to: null,
    allocations: [],
    candidateStage: null,
    weight: null,
  };
  if (c.moving) {
    return {
      ...base,
      reason: 'A move of this consumer is in progress; confirm or revert it first.',
    };
  }
  const req: ScheduleRequest = {
    consumerUuids: [c.uuid],
    projectId: c.projectId,
    userId: c.userId,
    ...(c.consumerType === null ? {} : { consumerType: c.consumerType }),
    request: moveRequest(c),
    extraSpecs: {},
    ...(c.serverGroup ? { hints: { [GROUP_HINT]: [c.serverGroup] } } : {}),
    ...(profile === undefined ? {} : { profile }),
  };
  const evaluate = (limit: number | undefined) =>
    view.evaluate(
      limit === undefined ? req : { ...req, request: { ...req.request, limit } },
      chosen,
    );
  const bestOf = (e: RequestEvaluation) =>
    e.ranking.find((r) => !drained.has(r.host.uuid) && r.host.allocationRequests[0]);
  let evaluated: RequestEvaluation;
  let best: RankedHost | undefined;
  try {
    evaluated = await evaluate(limit);
    best = bestOf(evaluated);
    if (!best && evaluated.explanation.hostsIn > 0) {
      // The first candidates were all filtered out: every host is looked at before "cannot move".
      evaluated = await evaluate(undefined);
      best = bestOf(evaluated);
    }
  } catch (err) {
    if (err instanceof NotFoundError || isTooManyCandidates(err)) {
      return { ...base, reason: `No valid host: ${(err as Error).message}` };
    }
    throw err;
  }
  if (!best) {
    return { ...base, ...whyNot(view, evaluated, drained) };
  }
  const allocations = best.host.allocationRequests[0]!.allocations;
  view.place(c.uuid, best.host.uuid, allocations, c.serverGroup);
  return {
    ...base,
    to: best.host.uuid,
    allocations: fromView(allocations),
    reason: null,
    weight: best.weight,
  };
}

/** Why no host outside the drained ones was found for an evaluated request. */
function whyNot(
  view: PlanningView,
  evaluated: RequestEvaluation,
  drained: ReadonlySet<string>,
): { reason: string; candidateStage: CandidateStage | null } {
  const e = evaluated.explanation;
  const ranked: readonly RankedHost[] = evaluated.ranking;
  if (ranked.length > 0) {
    const n = ranked.filter((r) => drained.has(r.host.uuid)).length;
    return {
      reason: `No valid host: the ${n} host(s) that passed every filter are being drained`,
      candidateStage: null,
    };
  }
  const candidateStage = view.candidateStage(evaluated);
  return { reason: noValidHost(e, candidateStage), candidateStage };
}
