// Fault injection while the claimers run: PostgreSQL restart (probed with API tokens no replica
// has cached, so every probe needs the database), Redis crash, Redis hang (SIGSTOP), SIGTERM of
// one replica (then a restart), each measured through /readyz of every replica.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { OwnRedis, PgCluster } from './infra';
import { type Replica, spawnReplica, stopReplica, waitReady } from './replicas';
import type { Target } from './router';
import type { FaultWindow, Stats } from './stats';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The faults the harness knows. */
export const FAULTS = ['redis-kill', 'redis-hang', 'pg-restart', 'sigterm', 'plugin'] as const;
export type Fault = (typeof FAULTS)[number];

/** Measured outcome of one injected fault. */
export interface FaultResult {
  readonly fault: Fault;
  /** False with `skipped` when the fault could not be injected here. */
  readonly injected: boolean;
  readonly skipped?: string;
  /** Figures in milliseconds or counts, by name. */
  readonly figures: Record<string, number | string | boolean>;
}

/** What faults act on. */
export interface FaultContext {
  readonly stats: Stats;
  readonly targets: Target[];
  readonly replicas: Replica[];
  readonly cluster?: PgCluster;
  readonly redis?: OwnRedis;
  readonly replicaEnv: Record<string, string>;
  readonly logDir: string;
  readonly log: (m: string) => void;
  /** API tokens (reader) no replica has seen yet: each is sent once per replica. */
  readonly uncachedTokens: string[];
}

function openWindow(stats: Stats, fault: string): FaultWindow {
  const w: FaultWindow = { fault, from: Date.now(), to: 0 };
  stats.windows.push(w);
  return w;
}

/** Polls every replica's /readyz until `pred` holds for all; returns ms waited or -1 on timeout. */
async function untilAll(
  targets: Target[],
  pred: (status: number, checks: Record<string, string> | undefined) => boolean,
  timeoutMs: number,
): Promise<number> {
  const t0 = Date.now();
  const done = new Set<string>();
  while (Date.now() - t0 < timeoutMs) {
    for (const t of targets) {
      if (!done.has(t.name)) {
        const r = await t.client.readyz();
        if (pred(r.status, r.checks)) {
          done.add(t.name);
        }
      }
    }
    if (done.size === targets.length) {
      return Date.now() - t0;
    }
    await sleep(25);
  }
  return -1;
}

/**
 * Restarts the dedicated PostgreSQL cluster (fast mode: every session is terminated). Recovery
 * time = from PostgreSQL accepting connections again to every replica's /readyz answering 200.
 */
export async function pgRestart(ctx: FaultContext): Promise<FaultResult> {
  if (!ctx.cluster) {
    return { fault: 'pg-restart', injected: false, skipped: 'no dedicated cluster', figures: {} };
  }
  const c = ctx.cluster;
  const w = openWindow(ctx.stats, 'pg-restart');
  const before = ctx.stats.claimsAcked;
  ctx.log(`fault pg-restart: pg_ctlcluster ${c.version} ${c.name} restart`);
  // Watch readiness while the restart runs: a replica must report "not ready" while it is down.
  // Meanwhile probe GraphQL with tokens no replica has cached: each probe must look its token
  // up, so the only acceptable answers are 200 and a JSON 503, never another 5xx or a stack trace.
  let sawUnready = false;
  let watching = true;
  const probes = { sent: 0, ok: 0, unavailable: 0, bad: 0 };
  const watcher = (async () => {
    while (watching) {
      const token = ctx.uncachedTokens.pop();
      for (const t of ctx.targets) {
        if ((await t.client.readyz()).status === 503) {
          sawUnready = true;
        }
        if (token) {
          const r = await t.client.probeToken(token);
          probes.sent++;
          if (r.status === 200) {
            probes.ok++;
          } else if (r.status === 503 && r.json) {
            probes.unavailable++;
          } else if (r.status !== 0) {
            probes.bad++; // status 0: the replica itself was unreachable, not an answer
          }
        }
      }
      await sleep(25);
    }
  })();
  await run('pg_ctlcluster', [
    '--skip-systemctl-redirect',
    '--mode',
    'fast',
    c.version,
    c.name,
    'restart',
  ]);
  const restartMs = Date.now() - w.from;
  const recoveryMs = await untilAll(ctx.targets, (s) => s === 200, 30000);
  watching = false;
  await watcher;
  w.to = Date.now();
  ctx.log(`fault pg-restart: restart took ${restartMs} ms, replicas ready ${recoveryMs} ms later`);
  return {
    fault: 'pg-restart',
    injected: true,
    figures: {
      restartCommandMs: restartMs,
      recoveryMs,
      readyzReportedUnready: sawUnready,
      claimsAckedDuringWindow: ctx.stats.claimsAcked - before,
      uncachedTokenProbes: probes.sent,
      uncachedTokenProbes503: probes.unavailable,
      uncachedTokenProbesBad: probes.bad,
    },
  };
}

/**
 * Kills the harness's redis-server (SIGKILL), lets the claimers run uncached for `outageMs`,
 * then starts it again. Measures how soon every /readyz reports the cache degraded and ok again.
 */
export async function redisKill(ctx: FaultContext, outageMs: number): Promise<FaultResult> {
  if (!ctx.redis) {
    return { fault: 'redis-kill', injected: false, skipped: 'no harness-owned Redis', figures: {} };
  }
  ctx.log('fault redis-kill: SIGKILL redis-server');
  const t0 = Date.now();
  const before = ctx.stats.claimsAcked;
  await ctx.redis.kill();
  const degradedMs = await untilAll(
    ctx.targets,
    (s, checks) => s === 200 && /down|degraded/.test(checks?.cache ?? ''),
    10000,
  );
  await sleep(Math.max(0, outageMs - (Date.now() - t0)));
  const claimsWithoutRedis = ctx.stats.claimsAcked - before;
  await ctx.redis.start();
  const restartedAt = Date.now();
  const restoredMs = await untilAll(
    ctx.targets,
    (s, checks) => s === 200 && /redis ok/.test(checks?.cache ?? ''),
    15000,
  );
  ctx.log(
    `fault redis-kill: degraded on /readyz after ${degradedMs} ms; ${claimsWithoutRedis} claims acknowledged without Redis; redis ok again ${restoredMs} ms after restart`,
  );
  return {
    fault: 'redis-kill',
    injected: true,
    figures: {
      readyzDegradedAfterMs: degradedMs,
      outageMs: restartedAt - t0,
      claimsAckedWithoutRedis: claimsWithoutRedis,
      readyzRedisOkAfterRestartMs: restoredMs,
    },
  };
}

/**
 * Stops the harness's redis-server with SIGSTOP for `outageMs` (connections stay open, nothing
 * answers: a hung Redis), then SIGCONT. Every replica must keep answering: claims go on,
 * /readyz answers promptly and reports the cache degraded.
 */
export async function redisHang(ctx: FaultContext, outageMs: number): Promise<FaultResult> {
  if (!ctx.redis) {
    return { fault: 'redis-hang', injected: false, skipped: 'no harness-owned Redis', figures: {} };
  }
  ctx.log('fault redis-hang: SIGSTOP redis-server');
  const w = openWindow(ctx.stats, 'redis-hang');
  const before = ctx.stats.claimsAcked;
  ctx.redis.pause();
  let slowestReadyzMs = 0;
  const degradedMs = await untilAll(
    ctx.targets,
    (s, checks) => s === 200 && /down|degraded/.test(checks?.cache ?? ''),
    10000,
  );
  while (Date.now() - w.from < outageMs) {
    for (const t of ctx.targets) {
      const t0 = Date.now();
      await t.client.readyz();
      slowestReadyzMs = Math.max(slowestReadyzMs, Date.now() - t0);
    }
    await sleep(100);
  }
  const claimsDuringHang = ctx.stats.claimsAcked - before;
  ctx.redis.resume();
  const resumedAt = Date.now();
  w.to = resumedAt; // answers after SIGCONT must be clean again
  const restoredMs = await untilAll(
    ctx.targets,
    (s, checks) => s === 200 && /redis ok/.test(checks?.cache ?? ''),
    15000,
  );
  ctx.log(
    `fault redis-hang: degraded on /readyz after ${degradedMs} ms; slowest /readyz ${slowestReadyzMs} ms; ${claimsDuringHang} claims acknowledged while Redis hung; redis ok again ${restoredMs} ms after SIGCONT`,
  );
  return {
    fault: 'redis-hang',
    injected: true,
    figures: {
      readyzDegradedAfterMs: degradedMs,
      slowestReadyzMs,
      hangMs: resumedAt - w.from,
      claimsAckedWhileHung: claimsDuringHang,
      readyzRedisOkAfterResumeMs: restoredMs,
    },
  };
}

/**
 * SIGTERMs the last replica while claimers run, waits for it to exit, then starts it again on the
 * same port. Evidence about in-flight requests is gathered by the router.
 */
export async function sigterm(ctx: FaultContext): Promise<FaultResult> {
  const i = ctx.replicas.length - 1;
  const r = ctx.replicas[i]!;
  const t = ctx.targets[i]!;
  const w = openWindow(ctx.stats, 'sigterm');
  ctx.log(`fault sigterm: SIGTERM ${r.name} (pid ${r.child.pid})`);
  t.sigtermAt = Date.now();
  const code = await stopReplica(r);
  const shutdownMs = Date.now() - t.sigtermAt;
  const next = spawnReplica(r.name, r.port, ctx.replicaEnv, ctx.logDir);
  ctx.replicas[i] = next;
  const restartMs = await waitReady(t.client, 30000);
  w.to = Date.now();
  t.sigtermAt = 0;
  ctx.log(
    `fault sigterm: exited with ${code} after ${shutdownMs} ms; restarted, ready in ${restartMs} ms`,
  );
  return {
    fault: 'sigterm',
    injected: true,
    figures: { exitCode: code ?? 'signal', shutdownMs, restartReadyMs: restartMs },
  };
}
