// What-if simulation: a trace of scheduling requests placed in order on a private PlanningView
// under a given pipeline, as `schedule` would place them (each consumer of a multi-create
// evaluated after the earlier ones are placed; all or nothing), reporting each placement, each
// failure with its reason and candidate stage, and the end state (src/planning/simulation-end-state.ts).
// The same trace can run again under a second configuration and the two runs are compared
// consumer by consumer. Nothing is written to the database, the live index or its caches.
import type { CandidateStage } from '../placement/allocation-candidates/candidate-stage';
import type { ProviderAllocation } from '../placement/allocation-candidates/results';
import { BadRequestError, ErrorCode } from '../placement/errors';
import { fromView, noValidHost } from '../scheduler/host-requests';
import { GROUP_HINT } from '../scheduler/request-spec';
import type { ScheduleRequest } from '../scheduler/schedule-types';
import type { SimulationPipeline } from './pipeline-config';
import type { PlanningView } from './planning-view';
import { type SimulationEndState, simulationEndState } from './simulation-end-state';

/** Most consumers one simulation places (every run of it). */
export const MAX_SIMULATED_CONSUMERS = 10_000;

/** One filter's counts for one consumer. */
export interface SimulatedFilterStep {
  readonly filter: string;
  readonly before: number;
  readonly after: number;
}

/** Where one consumer of the trace went on the view, or why it did not. */
export interface SimulatedPlacement {
  /** Position of the consumer in the trace (0-based, across requests). */
  readonly index: number;
  /** Position of its request in the trace. */
  readonly request: number;
  readonly consumerUuid: string;
  /** Root provider uuid of the host, or null when nothing was placed. */
  readonly host: string | null;
  readonly allocations: readonly ProviderAllocation[];
  readonly reason: string | null;
  readonly funnel: readonly SimulatedFilterStep[];
  /** The chosen host's total weight. */
  readonly weight: number | null;
  /** Set when no host had allocation candidates. */
  readonly candidateStage: CandidateStage | null;
}

/** One trace under one configuration. */
export interface SimulationRun {
  readonly label: string;
  readonly requests: number;
  readonly consumers: number;
  readonly placed: number;
  readonly failed: number;
  readonly placements: readonly SimulatedPlacement[];
  readonly end: SimulationEndState;
  readonly durationMs: number;
}

/** One consumer placed differently by the two runs. */
export interface SimulationDiffEntry {
  readonly index: number;
  readonly consumerUuid: string;
  readonly runHost: string | null;
  readonly compareHost: string | null;
}

/** Two runs of one trace compared consumer by consumer. */
export interface SimulationDiff {
  /** Same host in both, or failed in both. */
  readonly same: number;
  readonly differentHost: number;
  readonly onlyInRun: number;
  readonly onlyInCompare: number;
  readonly entries: readonly SimulationDiffEntry[];
}

/** A simulation: the run, and with a second configuration the compared run and the diff. */
export interface SimulationResult {
  readonly run: SimulationRun;
  readonly compare: SimulationRun | null;
  readonly diff: SimulationDiff | null;
}

/** Consumers of a trace (every request's consumer uuids). */
export function traceConsumers(trace: readonly ScheduleRequest[]): number {
  return trace.reduce((n, r) => n + r.consumerUuids.length, 0);
}

/** A yield that took longer than this ran other work: the replica is busy. */
const CONTENDED_MS = 10;
/** While busy, the simulation waits this many times its last request's time after it. */
const BACKOFF = 20;
/** Longest such wait. */
const MAX_WAIT_MS = 50;

/**
 * What tells a simulation the replica is busy: a number that moves with its work (the capacity
 * index's revision moves with every claim this replica writes or hears of).
 */
export type ActivitySignal = () => number;

/**
 * Yields to the event loop after a request that took `sliceMs`. When the replica is busy — the
 * activity signal moved since the last request, or the yield ran other work for more than
 * CONTENDED_MS — the simulation steps aside for BACKOFF times its own share, so it takes at most
 * about 1 / (BACKOFF + 1) of a busy replica's thread; on an idle replica it runs at full speed.
 */
function pacer(activity: ActivitySignal | undefined) {
  let seen = activity?.();
  return async (sliceMs: number): Promise<void> => {
    const started = performance.now();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const now = activity?.();
    const busy = now !== seen || performance.now() - started > CONTENDED_MS;
    seen = now;
    if (busy) {
      const wait = Math.min(MAX_WAIT_MS, Math.max(1, sliceMs * BACKOFF));
      await new Promise<void>((resolve) => setTimeout(resolve, wait));
    }
  };
}

/**
 * Places `trace` on `view` under `pipeline`, request by request, yielding to the event loop
 * between requests (and stepping aside while the replica is busy: see pacer), so a long
 * simulation does not slow `schedule` calls on this replica.
 */
export async function runTrace(
  view: PlanningView,
  trace: readonly ScheduleRequest[],
  pipeline: SimulationPipeline,
  activity?: ActivitySignal,
): Promise<SimulationRun> {
  const started = performance.now();
  const yieldToLoop = pacer(activity);
  const placements: SimulatedPlacement[] = [];
  let index = 0;
  for (const [r, req] of trace.entries()) {
    const slice = performance.now();
    placements.push(...(await placeRequest(view, req, r, index, pipeline)));
    index += req.consumerUuids.length;
    await yieldToLoop(performance.now() - slice);
  }
  const placed = placements.filter((p) => p.host !== null).length;
  return {
    label: pipeline.label,
    requests: trace.length,
    consumers: placements.length,
    placed,
    failed: placements.length - placed,
    placements,
    end: simulationEndState(view, trace, placements, pipeline.chosen),
    durationMs: performance.now() - started,
  };
}

/** One request of the trace: its consumers in order, all or nothing. */
async function placeRequest(
  view: PlanningView,
  req: ScheduleRequest,
  r: number,
  first: number,
  pipeline: SimulationPipeline,
): Promise<SimulatedPlacement[]> {
  const group = req.hints?.[GROUP_HINT]?.[0];
  const out: SimulatedPlacement[] = [];
  for (const [i, consumerUuid] of req.consumerUuids.entries()) {
    const evaluated = await view.evaluate(
      { ...req, consumerUuids: [consumerUuid] },
      pipeline.chosen,
    );
    const { explanation, ranking } = evaluated;
    const funnel = explanation.filters.map((f) => ({
      filter: f.plugin,
      before: f.before,
      after: f.after,
    }));
    const best = ranking.find((h) => h.host.allocationRequests[0] !== undefined);
    const base = { index: first + i, request: r, consumerUuid, funnel };
    if (best) {
      const allocations = best.host.allocationRequests[0]!.allocations;
      view.place(consumerUuid, best.host.uuid, allocations, group);
      out.push({
        ...base,
        host: best.host.uuid,
        allocations: fromView(allocations),
        reason: null,
        weight: best.weight,
        candidateStage: null,
      });
      continue;
    }
    const stage = view.candidateStage(evaluated);
    const reason =
      ranking.length === 0
        ? noValidHost(explanation, stage)
        : 'No valid host: no ranked host had an allocation request';
    const failed: SimulatedPlacement = {
      ...base,
      host: null,
      allocations: [],
      reason,
      weight: null,
      candidateStage: stage,
    };
    return failAll(view, req, out, failed);
  }
  return out;
}

/** A multi-create's consumer could not be placed: the earlier ones are released, every one fails. */
function failAll(
  view: PlanningView,
  req: ScheduleRequest,
  placedBefore: readonly SimulatedPlacement[],
  failed: SimulatedPlacement,
): SimulatedPlacement[] {
  for (const p of [...placedBefore].reverse()) {
    view.release(p.consumerUuid, p.host!, toOverlay(p.allocations));
  }
  if (req.consumerUuids.length === 1) {
    return [failed];
  }
  const why = `multi-create of ${req.consumerUuids.length} is all or nothing and consumer ${failed.consumerUuid} could not be placed (${failed.reason})`;
  const first = failed.index - placedBefore.length;
  return req.consumerUuids.map((consumerUuid, i): SimulatedPlacement => {
    if (consumerUuid === failed.consumerUuid) {
      return failed;
    }
    const earlier = placedBefore[i];
    return {
      index: first + i,
      request: failed.request,
      consumerUuid,
      host: null,
      allocations: [],
      reason: earlier ? `Released: ${why}` : `Not attempted: ${why}`,
      funnel: earlier?.funnel ?? [],
      weight: null,
      candidateStage: null,
    };
  });
}

function toOverlay(allocations: readonly ProviderAllocation[]) {
  return Object.fromEntries(allocations.map((a) => [a.providerUuid, a.resources]));
}

/** The two runs compared consumer by consumer (by position in the trace). */
export function diffRuns(run: SimulationRun, compare: SimulationRun): SimulationDiff {
  let same = 0;
  let differentHost = 0;
  let onlyInRun = 0;
  let onlyInCompare = 0;
  const entries: SimulationDiffEntry[] = [];
  for (const [i, a] of run.placements.entries()) {
    const b = compare.placements[i]!;
    if (a.host === b.host) {
      same++;
      continue;
    }
    if (a.host !== null && b.host !== null) {
      differentHost++;
    } else if (a.host !== null) {
      onlyInRun++;
    } else {
      onlyInCompare++;
    }
    entries.push({ index: i, consumerUuid: a.consumerUuid, runHost: a.host, compareHost: b.host });
  }
  return { same, differentHost, onlyInRun, onlyInCompare, entries };
}

/**
 * Simulates `trace` under `run` (and, with `compare`, again on a fresh view under it), each on a
 * view `openView` makes of the cloud as it is now; `activity` tells it when the replica is busy
 * (see pacer).
 * @throws BadRequestError SIMULATION_TOO_LARGE above MAX_SIMULATED_CONSUMERS consumers;
 *   SIMULATION_INVALID_TRACE for an empty trace.
 */
export async function simulate(
  openView: () => Promise<PlanningView>,
  trace: readonly ScheduleRequest[],
  run: SimulationPipeline,
  compare?: SimulationPipeline,
  activity?: ActivitySignal,
): Promise<SimulationResult> {
  const consumers = traceConsumers(trace);
  if (consumers > MAX_SIMULATED_CONSUMERS) {
    throw new BadRequestError(
      `A simulation places at most ${MAX_SIMULATED_CONSUMERS} consumers (this trace has ${consumers}).`,
      ErrorCode.SIMULATION_TOO_LARGE,
    );
  }
  if (trace.length === 0) {
    throw new BadRequestError(
      'The simulation trace has no request.',
      ErrorCode.SIMULATION_INVALID_TRACE,
    );
  }
  const first = await runTrace(await openView(), trace, run, activity);
  if (!compare) {
    return { run: first, compare: null, diff: null };
  }
  const second = await runTrace(await openView(), trace, compare, activity);
  return { run: first, compare: second, diff: diffRuns(first, second) };
}
