// "No valid host" outcomes for /metrics: `berth_schedule_no_valid_host_total` counts the
// schedule and explainPlacement calls that ranked no host, by where the hosts ran out: the
// allocation-candidate query found none (`candidates`), or the filters (or a plugin that declared
// the request unsatisfiable) removed them all (`filters`). Read from the outcome the scheduler's
// `schedule` / `explain` stage returns, at the stage seam (src/observability/stage.ts); a call
// that ranked hosts but lost every claim is a conflict, not a no-valid-host.
import { Counter, type Registry } from 'prom-client';
import type { ScheduleOutcome } from '../scheduler/schedule-types';
import type { StageObserver } from './stage';

/** The counter's name. */
export const NO_VALID_HOST = 'berth_schedule_no_valid_host_total';

/** Where the hosts ran out, or null when some host was ranked (or `r` is no outcome). */
export function noValidHostStage(r: unknown): 'candidates' | 'filters' | null {
  const o = r as Partial<Pick<ScheduleOutcome, 'ranking' | 'explanation'>> | null;
  if (!o || !Array.isArray(o.ranking) || !o.explanation || o.ranking.length > 0) {
    return null;
  }
  return o.explanation.hostsIn === 0 && !o.explanation.unsatisfiable ? 'candidates' : 'filters';
}

/** `inner` with its schedule and explain outcomes counted into a counter on `registry`. */
export function countingOutcomes(inner: StageObserver, registry: Registry): StageObserver {
  const counter = new Counter({
    name: NO_VALID_HOST,
    help: 'schedule and explainPlacement calls that ranked no host, by where the hosts ran out (candidates: the allocation-candidate query; filters: the filters).',
    labelNames: ['operation', 'stage'],
    registers: [registry],
  });
  // Both label sets exist from the start, so rate() sees the first increment.
  for (const operation of ['schedule', 'explain']) {
    for (const stage of ['candidates', 'filters']) {
      counter.inc({ operation, stage }, 0);
    }
  }
  return {
    observe(name, plugin, attrs, fn) {
      const run = inner.observe(name, plugin, attrs, fn);
      // Only the two outcomes are read; every other stage passes through untouched.
      if (name !== 'schedule' && name !== 'explain') {
        return run;
      }
      return run.then((result) => {
        const stage = noValidHostStage(result);
        if (stage) {
          counter.inc({ operation: name, stage });
        }
        return result;
      });
    },
  };
}
