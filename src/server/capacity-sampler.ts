// The capacity history's sampler (BERTH_CAPACITY_HISTORY_INTERVAL): `berth serve` samples the
// capacity index once per interval, just after each bucket starts (a few seconds of jitter so
// replicas do not all query at once), and prunes samples past the retention at the same time
// (CapacityHistoryService.sampleNow in src/placement/capacity-history.ts). Every worker and
// replica runs it; the first to write a bucket wins, the others write nothing.
import type { Logger } from '../observability/logger';
import type { CapacityHistoryService } from '../placement/capacity-history';

/** Most jitter after a bucket starts, in milliseconds (less for short intervals). */
const MAX_JITTER_MS = 5000;

/**
 * Starts sampling (nothing when the history is off); returns the function that stops it and
 * resolves once a sample in flight has finished (so the database can be closed). The timer is
 * unref'd: it never keeps the process alive. `firstDelayMs` overrides the wait for the
 * first sample (default: the start of the next bucket plus jitter; tests pass 0).
 */
export function startCapacitySampler(
  history: CapacityHistoryService,
  log: Logger,
  o: { firstDelayMs?: number } = {},
): () => Promise<void> {
  if (!history.enabled) {
    return async () => undefined;
  }
  const intervalMs = history.settings.intervalSeconds * 1000;
  const jitter = () => Math.floor(Math.random() * Math.min(MAX_JITTER_MS, intervalMs / 10));
  const untilNextBucket = () => intervalMs - (Date.now() % intervalMs) + jitter();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  const schedule = (ms: number) => {
    if (stopped) {
      return;
    }
    timer = setTimeout(run, ms);
    timer.unref();
  };
  const run = () => {
    inFlight = history
      .sampleNow()
      .then((written) => log.debug({ written }, 'capacity sampled'))
      .catch((err: unknown) =>
        log.warn({ err: String(err) }, 'capacity sample failed; will retry next interval'),
      )
      .finally(() => schedule(untilNextBucket()));
  };
  schedule(o.firstDelayMs ?? untilNextBucket());
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await inFlight;
  };
}
