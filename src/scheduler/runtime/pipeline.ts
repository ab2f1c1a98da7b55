// The scheduling pipeline: amend the request, filter hosts in order, weigh, rank (upstream:
// nova/scheduler/manager.py _schedule + nova/filters.py BaseFilterHandler + request_filter.py).

import { ATTR_HOSTS_IN } from '../../observability/attributes';
import { BARE_STAGES, type StageObserver } from '../../observability/stage';
import type {
  AggregateView,
  AmendContext,
  FilterPlugin,
  FilterStage,
  HostView,
  RequestAmendment,
  RequestSpec,
  Verdict,
  WeigherPlugin,
} from '../plugin-api';
import { applyAmendment, emptyMemberOf, readAmendment } from './amend';
import { hasFilterBatch, runBatch } from './batch';
import type {
  AmendStep,
  Explanation,
  FilterStep,
  PipelineResult,
  PluginFailure,
  Rejection,
} from './explanation';
import { isHostFilter } from './filter-stage';
import { Budget, guard, isPromiseLike, type Outcome } from './isolation';
import { defaultReasonCode, FAILED_CLOSED_CODE, readVerdict } from './verdict';
import { rankHosts, type Weighing, weighHosts } from './weighing';

/** pino-compatible logger (only the two levels the pipeline uses). */
export interface SchedulerLogger {
  warn(fields: object, msg: string): void;
  info(fields: object, msg: string): void;
}

/** Pipeline settings. */
export interface PipelineOptions {
  /** Pick the first host at random among this many best (Nova `host_subset_size`). Default 1. */
  readonly hostSubsetSize?: number;
  /** Budget (ms per request, per plugin, per phase) for plugins that declare none. Default 1000. */
  readonly defaultTimeBudgetMs?: number;
  /** Uniform random numbers in [0, 1); default `Math.random`. */
  readonly rng?: () => number;
  /** Clock in ms; default `performance.now`. */
  readonly now?: () => number;
  readonly logger?: SchedulerLogger;
}

/** Result of the pre-candidate phase. */
export interface AmendResult {
  /** The request to run the candidate query with. */
  readonly spec: RequestSpec;
  readonly steps: readonly AmendStep[];
  readonly unsatisfiable?: { readonly plugin: string; readonly reason: string };
}

/** What `schedule` needs from the caller: the only I/O, done in batches outside the plugins. */
export interface ScheduleIo {
  /** Aggregates that carry metadata; only called when some plugin has a pre-candidate hook. */
  readonly aggregates: () => Promise<readonly AggregateView[]> | readonly AggregateView[];
  /** Runs the candidate query for the amended request and loads the host views in batches. */
  readonly hosts: (spec: RequestSpec) => Promise<readonly HostView[]>;
  /** Times and traces each filter, weigher and the weighing (bare calls when absent). */
  readonly stages?: StageObserver;
}

/**
 * Filtered and weighed hosts, before ranking: everything about a request that does not involve
 * chance, so identical requests may share it (each then ranks it with its own tie-breaks).
 */
export interface Evaluation {
  readonly survivors: readonly HostView[];
  readonly weighing: Pick<Weighing, 'totals' | 'components'>;
  readonly explanation: Explanation;
}

/** A configured pipeline. */
export interface Pipeline {
  readonly filters: readonly FilterStage[];
  readonly weighers: readonly WeigherPlugin<unknown>[];
  /** True when some filter has a pre-candidate hook (the caller must load aggregates for `amend`). */
  readonly needsAggregates: boolean;
  /** Runs the pre-candidate hooks in filter order, each seeing the request as amended so far. */
  amend(spec: RequestSpec, ctx: AmendContext): Promise<AmendResult>;
  /** `amend`, then `io.hosts`, then filters and weighers; no ranking yet. */
  evaluate(spec: RequestSpec, io: ScheduleIo): Promise<Evaluation>;
  /** Ranks an evaluation: equal weights in random order, Nova's host subset pick. */
  rank(evaluation: Evaluation): PipelineResult;
}

const NOTHING_WEIGHED: Evaluation['weighing'] = { totals: [], components: [] };

const NO_LOGGER: SchedulerLogger = { warn: () => {}, info: () => {} };

/**
 * Builds a pipeline from plugin instances in their configured order.
 * @throws Error when `hostSubsetSize` is not a positive integer or a filter has neither hook.
 */
export function createPipeline(
  plugins: {
    readonly filters: readonly FilterStage[];
    readonly weighers: readonly WeigherPlugin<unknown>[];
  },
  options: PipelineOptions = {},
): Pipeline {
  const hostSubsetSize = options.hostSubsetSize ?? 1;
  if (!Number.isInteger(hostSubsetSize) || hostSubsetSize < 1) {
    throw new Error(`hostSubsetSize must be a positive integer, got ${hostSubsetSize}`);
  }
  for (const f of plugins.filters) {
    if (f.amendRequest === undefined && !isHostFilter(f)) {
      throw new Error(`filter ${f.name} has neither amendRequest nor filter`);
    }
  }
  const defaultTimeBudgetMs = options.defaultTimeBudgetMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  const rng = options.rng ?? Math.random;
  const logger = options.logger ?? NO_LOGGER;
  const budgetFor = (p: { name: string; timeBudgetMs?: number }) =>
    new Budget(p.timeBudgetMs ?? defaultTimeBudgetMs, now, p.name);
  // Each filter's default reason code, derived once per pipeline rather than per request.
  const defaultCodes = new Map(plugins.filters.map((f) => [f.name, defaultReasonCode(f.name)]));
  const logFailure = (failure: PluginFailure) => {
    logger.warn({ ...failure }, `scheduler plugin ${failure.plugin} failed in ${failure.phase}`);
  };
  const amendFailures = (amended: AmendResult | undefined) =>
    (amended?.steps ?? []).flatMap((s) => (s.failure ? [s.failure] : []));

  async function amend(spec: RequestSpec, ctx: AmendContext): Promise<AmendResult> {
    let current = spec;
    const steps: AmendStep[] = [];
    for (const f of plugins.filters) {
      if (f.amendRequest === undefined) {
        continue;
      }
      const request = current;
      const outcome = await guard(budgetFor(f), () => f.amendRequest!(request, ctx));
      const read =
        outcome.ok && outcome.value !== null ? readAmendment(outcome.value) : { amendment: null };
      if (!outcome.ok || 'problem' in read) {
        const { cause, message } = outcome.ok
          ? { cause: 'invalid-result' as const, message: (read as { problem: string }).problem }
          : outcome;
        const phase = 'amendRequest';
        const failure: PluginFailure = { plugin: f.name, phase, cause, message, policy: f.onError };
        logFailure(failure);
        steps.push({ plugin: f.name, amendment: null, failure });
        if (f.onError === 'closed') {
          return {
            spec: current,
            steps,
            unsatisfiable: { plugin: f.name, reason: `failed closed: ${failure.message}` },
          };
        }
        continue;
      }
      const amendment: RequestAmendment | null = read.amendment;
      steps.push({ plugin: f.name, amendment });
      if (amendment === null) {
        continue;
      }
      if (amendment.unsatisfiable !== undefined || emptyMemberOf(amendment)) {
        const reason =
          amendment.unsatisfiable ?? 'required membership in an empty set of aggregates';
        return { spec: current, steps, unsatisfiable: { plugin: f.name, reason } };
      }
      current = applyAmendment(current, amendment);
    }
    return { spec: current, steps };
  }

  async function runFilter(
    f: FilterPlugin<unknown>,
    hosts: readonly HostView[],
    spec: RequestSpec,
    onFailure: (failure: PluginFailure) => void,
  ): Promise<{ step: FilterStep; survivors: HostView[] }> {
    const budget = budgetFor(f);
    const defaultCode = defaultCodes.get(f.name)!;
    const start = now();
    const fail = (failure: Omit<PluginFailure, 'plugin' | 'policy'>) => {
      const full: PluginFailure = { ...failure, plugin: f.name, policy: f.onError };
      onFailure(full);
      const open = f.onError === 'open';
      const reason = `${f.name} failed closed (${full.cause}): ${full.message}`;
      const rejections = open
        ? []
        : hosts.map((h) => ({ host: h.uuid, hostName: h.name, reason, code: FAILED_CLOSED_CODE }));
      const after = open ? hosts.length : 0;
      const step = {
        plugin: f.name,
        before: hosts.length,
        after,
        rejections,
        durationMs: now() - start,
        failure: full,
      };
      return { step, survivors: open ? [...hosts] : [] };
    };
    let state: unknown;
    if (f.prepare) {
      const prepared = await guard(budget, () => f.prepare!(spec));
      if (!prepared.ok) {
        return fail({ phase: 'prepare', cause: prepared.cause, message: prepared.message });
      }
      state = prepared.value;
    }
    const survivors: HostView[] = [];
    const rejections: Rejection[] = [];
    // Out-of-process filters judge every host in one call (src/scheduler/runtime/batch.ts).
    const batch = hasFilterBatch(f)
      ? await runBatch(budget, hosts, (ms) => f.filterBatch(hosts, spec, ms))
      : null;
    if (batch !== null && !batch.ok) {
      return fail({ phase: 'filter', cause: batch.cause, message: batch.message });
    }
    for (const [i, host] of hosts.entries()) {
      let outcome: Outcome<Verdict> | Promise<Outcome<Verdict>> =
        batch !== null
          ? { ok: true, value: batch.values[i] as Verdict }
          : guard(budget, () => f.filter(host, spec, state));
      if (isPromiseLike(outcome)) {
        outcome = await outcome;
      }
      if (!outcome.ok) {
        return fail({
          phase: 'filter',
          cause: outcome.cause,
          message: outcome.message,
          host: host.uuid,
        });
      }
      const read = readVerdict(outcome.value, defaultCode);
      if ('problem' in read) {
        const message = read.problem;
        return fail({ phase: 'filter', cause: 'invalid-result', message, host: host.uuid });
      }
      const verdict = read.verdict;
      if (verdict.fits) {
        survivors.push(host);
      } else {
        const { reason, code } = verdict;
        rejections.push({ host: host.uuid, hostName: host.name, reason, code });
      }
    }
    const step = {
      plugin: f.name,
      before: hosts.length,
      after: survivors.length,
      rejections,
      durationMs: now() - start,
    };
    return { step, survivors };
  }

  async function filterAndWeigh(
    hosts: readonly HostView[],
    spec: RequestSpec,
    amended?: AmendResult,
    stages: StageObserver = BARE_STAGES,
  ): Promise<Evaluation> {
    const active = plugins.filters.filter(isHostFilter);
    if (amended?.unsatisfiable !== undefined) {
      const explanation: Explanation = {
        amendments: amended.steps,
        unsatisfiable: amended.unsatisfiable,
        hostsIn: 0,
        filters: [],
        skippedFilters: active.map((f) => f.name),
        weighers: [],
        failures: amendFailures(amended),
      };
      return { survivors: [], weighing: NOTHING_WEIGHED, explanation };
    }
    const failures = amendFailures(amended);
    const onFailure = (failure: PluginFailure) => {
      failures.push(failure);
      logFailure(failure);
    };
    const steps: FilterStep[] = [];
    let survivors: HostView[] = [...hosts];
    let stoppedAfter: string | undefined;
    let ran = 0;
    for (const f of active) {
      if (survivors.length === 0) {
        break;
      }
      const input = survivors;
      const attrs = { [ATTR_HOSTS_IN]: input.length };
      const result = await stages.observe('filter', f.name, attrs, () =>
        runFilter(f, input, spec, onFailure),
      );
      steps.push(result.step);
      survivors = result.survivors;
      ran += 1;
      if (survivors.length === 0) {
        stoppedAfter = f.name;
      }
    }
    const weighing =
      survivors.length > 0
        ? await stages.observe('weighing', undefined, { [ATTR_HOSTS_IN]: survivors.length }, () =>
            weighHosts(plugins.weighers, survivors, spec, {
              defaultTimeBudgetMs,
              now,
              onFailure,
              stages,
            }),
          )
        : { ...NOTHING_WEIGHED, steps: [] };
    const explanation: Explanation = {
      amendments: amended?.steps ?? [],
      hostsIn: hosts.length,
      filters: steps,
      ...(stoppedAfter === undefined ? {} : { stoppedAfter }),
      skippedFilters: active.slice(ran).map((f) => f.name),
      weighers: weighing.steps,
      failures,
    };
    return { survivors, weighing, explanation };
  }

  function rank(e: Evaluation): PipelineResult {
    return {
      hosts: rankHosts(e.survivors, e.weighing, hostSubsetSize, rng),
      explanation: e.explanation,
    };
  }

  async function evaluate(spec: RequestSpec, io: ScheduleIo): Promise<Evaluation> {
    const aggregates = needsAggregates ? await io.aggregates() : [];
    const amended = await amend(spec, { aggregates });
    if (amended.unsatisfiable !== undefined) {
      return filterAndWeigh([], amended.spec, amended);
    }
    return filterAndWeigh(await io.hosts(amended.spec), amended.spec, amended, io.stages);
  }

  const needsAggregates = plugins.filters.some((f) => f.amendRequest !== undefined);
  return {
    filters: plugins.filters,
    weighers: plugins.weighers,
    needsAggregates,
    amend,
    evaluate,
    rank,
  };
}
