// Weighing and ranking of the hosts that passed the filters (upstream: nova/weights.py
// BaseWeightHandler.get_weighed_objects and nova/scheduler/manager.py _get_sorted_hosts).

import type { StageObserver } from '../../observability/stage';
import { normalise, resolveMultiplier } from '../helpers';
import type { HostView, RequestSpec, WeigherPlugin } from '../plugin-api';
import { hasWeighBatch, runBatch } from './batch';
import type { PluginFailure, RankedHost, WeighStep, WeightComponent } from './explanation';
import { Budget, errorMessage, guard, isPromiseLike, type Outcome } from './isolation';

/** Runtime knobs shared with the pipeline. */
export interface WeighingOptions {
  readonly defaultTimeBudgetMs: number;
  readonly now: () => number;
  readonly onFailure: (failure: PluginFailure) => void;
  /** Times and traces each weigher (bare calls when absent). */
  readonly stages?: StageObserver;
}

/** Per-host totals and per-weigher breakdown, in the order of `hosts`. */
export interface Weighing {
  readonly totals: number[];
  readonly components: WeightComponent[][];
  readonly steps: WeighStep[];
}

type RawResult =
  | { readonly raws: number[] }
  | { readonly failure: Omit<PluginFailure, 'plugin' | 'policy'> };

async function rawWeights(
  weigher: WeigherPlugin<unknown>,
  hosts: readonly HostView[],
  spec: RequestSpec,
  budget: Budget,
): Promise<RawResult> {
  let state: unknown;
  if (weigher.prepare) {
    const prepared = await guard(budget, () => weigher.prepare!(spec));
    if (!prepared.ok) {
      return { failure: { phase: 'prepare', cause: prepared.cause, message: prepared.message } };
    }
    state = prepared.value;
  }
  const raws: number[] = [];
  // Out-of-process weighers weigh every host in one call (src/scheduler/runtime/batch.ts).
  const batch = hasWeighBatch(weigher)
    ? await runBatch(budget, hosts, (ms) => weigher.weighBatch(hosts, spec, ms))
    : null;
  if (batch !== null && !batch.ok) {
    return { failure: { phase: 'weigh', cause: batch.cause, message: batch.message } };
  }
  for (const [i, host] of hosts.entries()) {
    let outcome: Outcome<number> | Promise<Outcome<number>> =
      batch !== null
        ? { ok: true, value: batch.values[i] as number }
        : guard(budget, () => weigher.weigh(host, spec, state));
    if (isPromiseLike(outcome)) {
      outcome = await outcome;
    }
    if (!outcome.ok) {
      return {
        failure: {
          phase: 'weigh',
          cause: outcome.cause,
          message: outcome.message,
          host: host.uuid,
        },
      };
    }
    if (typeof outcome.value !== 'number' || !Number.isFinite(outcome.value)) {
      const message = `weight must be a finite number, got ${errorMessage(outcome.value)}`;
      return { failure: { phase: 'weigh', cause: 'invalid-result', message, host: host.uuid } };
    }
    raws.push(outcome.value);
  }
  return { raws };
}

/**
 * A raw weight kept within the weigher's declared bounds (Nova `BaseWeigher.weigh_objects`: "don't
 * let the weight go beyond the defined max/min"), before normalisation.
 */
function clamp(weight: number, minval: number | undefined, maxval: number | undefined): number {
  const low = minval === undefined ? weight : Math.max(weight, minval);
  return maxval === undefined ? low : Math.min(low, maxval);
}

/**
 * Runs every weigher over the hosts as Nova's `BaseWeightHandler.get_weighed_objects` does: raw
 * weights, clamped into the weigher's `minval`/`maxval` when it declares them, normalised per
 * weigher onto 0..1 from `minval`/`maxval` (else the list's own minimum / maximum; all equal -> 0),
 * times the host's multiplier (aggregate override, lowest wins; negated for `negateMultiplier`), summed. One host (or none) is not
 * weighed by Nova: its weight is 0 (the weighers still run, for the explanation's raw values). A
 * failing weigher is dropped.
 */
export async function weighHosts(
  weighers: readonly WeigherPlugin<unknown>[],
  hosts: readonly HostView[],
  spec: RequestSpec,
  options: WeighingOptions,
): Promise<Weighing> {
  const totals = hosts.map(() => 0);
  const components: WeightComponent[][] = hosts.map(() => []);
  const steps: WeighStep[] = [];
  for (const weigher of weighers) {
    const budget = new Budget(
      weigher.timeBudgetMs ?? options.defaultTimeBudgetMs,
      options.now,
      weigher.name,
    );
    const start = options.now();
    const result = options.stages
      ? await options.stages.observe('weigher', weigher.name, undefined, () =>
          rawWeights(weigher, hosts, spec, budget),
        )
      : await rawWeights(weigher, hosts, spec, budget);
    const durationMs = options.now() - start;
    if ('failure' in result) {
      const failure: PluginFailure = { ...result.failure, plugin: weigher.name, policy: 'dropped' };
      options.onFailure(failure);
      steps.push({ plugin: weigher.name, durationMs, failure });
      continue;
    }
    const { minval, maxval } = weigher;
    const normalised =
      hosts.length <= 1
        ? hosts.map(() => 0)
        : normalise(
            result.raws.map((w) => clamp(w, minval, maxval)),
            minval,
            maxval,
          );
    hosts.forEach((host, i) => {
      const resolved = resolveMultiplier(host, weigher.multiplierMetadataKey, weigher.multiplier);
      const multiplier = weigher.negateMultiplier === true ? 0 - resolved : resolved;
      totals[i]! += multiplier * normalised[i]!;
      components[i]!.push({
        weigher: weigher.name,
        raw: result.raws[i]!,
        normalised: normalised[i]!,
        multiplier,
      });
    });
    steps.push({ plugin: weigher.name, durationMs });
  }
  return { totals, components, steps };
}

/**
 * Orders hosts best first. Equal weights are ordered randomly; then, as Nova does, one host is picked
 * at random among the best `hostSubsetSize` and moved to the front (the rest keep their order).
 * @param rng uniform random numbers in [0, 1)
 */
export function rankHosts(
  hosts: readonly HostView[],
  weighing: Pick<Weighing, 'totals' | 'components'>,
  hostSubsetSize: number,
  rng: () => number,
): RankedHost[] {
  const keyed = hosts.map((host, i) => ({
    ranked: { host, weight: weighing.totals[i]!, components: weighing.components[i]! },
    tie: rng(),
  }));
  keyed.sort((a, b) => b.ranked.weight - a.ranked.weight || a.tie - b.tie);
  const ranked = keyed.map((k) => k.ranked);
  const subset = Math.min(hostSubsetSize, ranked.length);
  if (subset > 1) {
    const pick = Math.min(Math.floor(rng() * subset), subset - 1);
    const [chosen] = ranked.splice(pick, 1);
    ranked.unshift(chosen!);
  }
  return ranked;
}
