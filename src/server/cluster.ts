// Multi-process serving, `berth serve --workers N`: a primary process forks N workers with
// node:cluster; they share the listening socket (the primary accepts connections and hands them
// out round-robin). Each worker is a whole berth (capacity index, pools, caches) and learns the
// other workers' writes through PostgreSQL LISTEN/NOTIFY, as separate replicas do; every claim is
// checked in a PostgreSQL transaction, so correctness holds across workers. The primary serves
// nothing: its caller migrates before forking; it announces the start once every worker listens,
// restarts a worker that dies (with backoff), fails fast when workers cannot start, and forwards
// SIGTERM/SIGINT so that each worker drains as a single process does, and SIGHUP so that each
// worker reloads its scheduler configuration.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { WorkerIdentity } from '../app/app';
import { type Config, ConfigError } from '../config/config';
import { primaryMetricsHandler } from '../observability/cluster-metrics';
import type { Logger } from '../observability/logger';

/** Most workers `--workers` / BERTH_WORKERS accepts. */
export const MAX_WORKERS = 256;

/** Added to BERTH_SHUTDOWN_TIMEOUT_MS for a worker to close its pools before it is killed. */
const SHUTDOWN_MARGIN_MS = 5000;
/** Restart backoff: doubles per crash within {@link CRASH_WINDOW_MS}, up to the cap. */
const RESTART_BASE_MS = 250;
const RESTART_MAX_MS = 10_000;
const CRASH_WINDOW_MS = 60_000;
/** Restarted workers failing to start in a row before the primary gives up (exit 1). */
const MAX_START_FAILURES = 3;

/** How many processes serve, and why that many (for the start banner). */
export interface WorkerPlan {
  readonly count: number;
  readonly note: string;
}

/**
 * The number of serving processes: `--workers` (`flag`), else BERTH_WORKERS, else one per core.
 * Decision: the embedded database (PGlite) serves one process, and its LISTEN/NOTIFY does not
 * reach other connections, so other processes would not see its changes: it runs 1, and an
 * explicit N > 1 is refused rather than silently lowered.
 * @throws ConfigError for a bad `flag`, or N > 1 on the embedded database.
 */
export function planWorkers(config: Config, flag: string | undefined): WorkerPlan {
  let requested = config.workers;
  let source = `BERTH_WORKERS=${requested}`;
  if (flag !== undefined) {
    const n = Number(flag);
    if (!/^\d+$/.test(flag) || n < 1 || n > MAX_WORKERS) {
      throw new ConfigError(
        `invalid --workers: '${flag}' is not a whole number from 1 to ${MAX_WORKERS}`,
      );
    }
    requested = n;
    source = `--workers ${n}`;
  }
  if (config.embedded) {
    if (requested !== undefined && requested > 1) {
      throw new ConfigError(
        `${source} needs DATABASE_URL: the embedded database (PGlite) serves one process, and ` +
          'other processes would not see its changes; leave it unset (one process), or set DATABASE_URL to a PostgreSQL server',
      );
    }
    return { count: 1, note: 'the embedded database serves one process' };
  }
  if (requested !== undefined) {
    return { count: requested, note: source };
  }
  return { count: availableParallelism(), note: 'one per core; --workers N or BERTH_WORKERS' };
}

/** This process's identity when it is a worker of `berth serve --workers N`; else undefined. */
export function clusterWorker(): WorkerIdentity | undefined {
  return cluster.isWorker && cluster.worker
    ? { id: cluster.worker.id, pid: process.pid }
    : undefined;
}

/** What a worker tells the primary. */
type Report =
  | { readonly berth: 'listening'; readonly url: string }
  | { readonly berth: 'failed'; readonly message: string };

function isReport(m: unknown): m is Report {
  return typeof m === 'object' && m !== null && 'berth' in m;
}

/** Worker side: tells the primary that this worker listens on `url`. */
export function announceListening(url: string): void {
  process.send?.({ berth: 'listening', url } satisfies Report);
}

/**
 * Worker side: hands the one-line reason this worker could not start to the primary (which
 * prints it once, whichever worker failed first), then exits 1.
 */
export function reportStartFailure(message: string): void {
  process.exitCode = 1;
  const exit = () => process.exit(1);
  setTimeout(exit, 2000).unref();
  process.send?.({ berth: 'failed', message } satisfies Report, undefined, {}, exit);
}

/** Options of {@link superviseWorkers}. */
export interface SuperviseOptions {
  readonly count: number;
  readonly log: Logger;
  /** BERTH_SHUTDOWN_TIMEOUT_MS: each worker's drain bound; the primary waits it plus a margin. */
  readonly shutdownTimeoutMs: number;
  /** Called once, when every worker listens for the first time. */
  readonly onListening: (url: string) => void;
}

function describeExit(code: number | null, signal: string | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/**
 * Primary side: forks `count` workers and supervises them until the process ends. It exits 1,
 * printing the first worker's reason on stderr, when a worker fails before every worker has
 * listened once (port in use, bad plugin configuration: restarting would not help), or when
 * {@link MAX_START_FAILURES} restarts in a row fail to start; it exits 0 after SIGTERM/SIGINT
 * once every worker has drained and exited cleanly (1 if one did not, or had to be killed).
 */
export function superviseWorkers(o: SuperviseOptions): void {
  const { count, log } = o;
  let phase: 'starting' | 'running' | 'stopping' = 'starting';
  const live = new Set<Worker>();
  // A scrape of /metrics on one worker: the primary sums every worker's metrics for it.
  const metricsMessage = primaryMetricsHandler(() => live);
  const listening = new Set<number>();
  const reasons = new Map<number, string>();
  const timers = new Set<NodeJS.Timeout>();
  const crashes: number[] = [];
  let startFailures = 0;
  let exitCode = 0;

  const finishIfDone = () => {
    if (phase === 'stopping' && live.size === 0) {
      log.info({ exitCode }, 'all workers exited');
      process.exit(exitCode);
    }
  };

  const stop = (code: number) => {
    exitCode = Math.max(exitCode, code);
    if (phase === 'stopping') {
      return;
    }
    phase = 'stopping';
    for (const t of timers) {
      clearTimeout(t);
    }
    for (const w of live) {
      w.process.kill('SIGTERM');
    }
    const bound = o.shutdownTimeoutMs + SHUTDOWN_MARGIN_MS;
    setTimeout(() => {
      log.error(
        { workers: [...live].map((w) => w.id), afterMs: bound },
        'workers still running: killed',
      );
      for (const w of live) {
        w.process.kill('SIGKILL');
      }
      process.exit(1);
    }, bound).unref();
    finishIfDone();
  };

  const giveUp = (message: string) => {
    if (phase !== 'stopping') {
      process.stderr.write(`berth: ${message}\n`);
    }
    stop(1);
  };

  const onGone = (w: Worker, code: number | null, signal: string | null) => {
    live.delete(w);
    const wasListening = listening.delete(w.id);
    const reason = reasons.get(w.id);
    reasons.delete(w.id);
    const exit = describeExit(code, signal);
    if (phase === 'stopping') {
      const clean = code === 0 || signal === 'SIGTERM' || signal === 'SIGINT';
      log.info({ worker: w.id, pid: w.process.pid, exit }, 'worker exited');
      exitCode = Math.max(exitCode, clean ? 0 : 1);
      finishIfDone();
      return;
    }
    if (!wasListening) {
      startFailures += 1;
      const why = reason ?? `worker ${w.id} ${exit} before it listened`;
      if (phase === 'starting') {
        giveUp(why);
        return;
      }
      if (startFailures >= MAX_START_FAILURES) {
        giveUp(`workers keep failing to start (${startFailures} in a row): ${why}`);
        return;
      }
    }
    const now = Date.now();
    crashes.push(now);
    while (crashes.length > 0 && crashes[0]! < now - CRASH_WINDOW_MS) {
      crashes.shift();
    }
    const delay = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** (crashes.length - 1));
    log.error(
      { worker: w.id, pid: w.process.pid, exit, reason, restartInMs: delay },
      'worker exited unexpectedly: restarting it',
    );
    const t = setTimeout(() => {
      timers.delete(t);
      if (phase !== 'stopping') {
        fork();
      }
    }, delay);
    timers.add(t);
  };

  const fork = () => {
    const w = cluster.fork();
    live.add(w);
    let exited: [number | null, string | null] | undefined;
    // Gone = exited and its IPC channel drained, so that a failure report sent just before
    // exiting is always read first.
    const maybeGone = () => {
      if (exited && !w.isConnected()) {
        const [code, signal] = exited;
        exited = undefined;
        onGone(w, code, signal);
      }
    };
    w.on('exit', (code: number | null, signal: string | null) => {
      exited = [code, signal];
      maybeGone();
    });
    w.on('disconnect', maybeGone);
    w.on('message', (m: unknown) => {
      if (metricsMessage(w, m) || !isReport(m)) {
        return;
      }
      if (m.berth === 'failed') {
        reasons.set(w.id, m.message);
        return;
      }
      listening.add(w.id);
      startFailures = 0;
      log.info({ worker: w.id, pid: w.process.pid }, 'worker listening');
      if (phase === 'starting' && listening.size === count) {
        phase = 'running';
        o.onListening(m.url);
      }
    });
  };

  const onSignal = (signal: NodeJS.Signals) => {
    if (phase === 'stopping') {
      log.warn({ signal }, 'second signal: killing the workers');
      for (const w of live) {
        w.process.kill('SIGKILL');
      }
      process.exit(1);
    }
    log.info({ signal }, 'signal received: stopping the workers');
    stop(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Each listening worker reloads its scheduler configuration (one still starting reads it anyway).
  process.on('SIGHUP', () => {
    log.info({ workers: listening.size }, 'SIGHUP: workers reload the scheduler configuration');
    for (const w of live) {
      if (listening.has(w.id)) {
        w.process.kill('SIGHUP');
      }
    }
  });

  // Round-robin in the primary (Node's default except on Windows), stated rather than assumed.
  cluster.schedulingPolicy = cluster.SCHED_RR;
  for (let i = 0; i < count; i++) {
    fork();
  }
}
