// The soak summary: one table on stdout and the same figures as JSON (dist/soak-report.json),
// plus the verdict against the targets (0 violations, 0 lost, 0 5xx, recovery ≤ 5 s).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FaultResult } from './faults';
import type { InvariantReport } from './invariants';
import type { ShutdownEvidence } from './router';
import { percentile, type Stats } from './stats';

/** The whole report. */
export interface SoakReport {
  readonly mode: string;
  readonly replicas: number;
  readonly clients: number;
  readonly hosts: number;
  readonly seconds: number;
  readonly requests: number;
  readonly claimAttempts: number;
  readonly claimsAcked: number;
  readonly releasesAcked: number;
  readonly resizesAcked: number;
  readonly noHost: number;
  readonly claimsPerSecond: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  readonly outcomes: Stats['outcomes'];
  readonly http5xx: number;
  readonly unexpectedErrors: number;
  readonly retryableErrors: number;
  readonly uncleanOutsideFaultWindows: number;
  readonly pluginFailuresIsolated: number;
  readonly ops: Record<string, { requests: number; ok: number }>;
  readonly errorCodes: Record<string, number>;
  /** Unclean outcomes by the fault window they fell in ('none' = outside every window). */
  readonly uncleanByFaultWindow: Record<string, Record<string, number>>;
  readonly invariants: InvariantReport;
  readonly shutdown: ShutdownEvidence;
  readonly faults: FaultResult[];
  readonly recoveryMs: number | null;
  readonly failures: string[];
  readonly passed: boolean;
}

/** Builds the report and the list of failed targets. */
export function buildReport(
  base: { mode: string; replicas: number; clients: number; hosts: number },
  stats: Stats,
  inv: InvariantReport,
  shutdown: ShutdownEvidence,
  faults: FaultResult[],
  recoveryTargetMs: number,
): SoakReport {
  const seconds = (stats.endedAt - stats.startedAt) / 1000;
  const recovery = faults.find((f) => f.fault === 'pg-restart' && f.injected)?.figures.recoveryMs;
  const failures: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) {
      failures.push(what);
    }
  };
  check(inv.overCapacity === 0, `${inv.overCapacity} providers over capacity`);
  check(inv.lostClaims === 0, `${inv.lostClaims} acknowledged claims lost`);
  check(inv.phantomAllocations === 0, `${inv.phantomAllocations} phantom allocations`);
  check(inv.generationErrors === 0, `${inv.generationErrors} consumer generation errors`);
  check(inv.orphanConsumers === 0, `${inv.orphanConsumers} consumers without allocations`);
  check(inv.audit.missing === 0, `${inv.audit.missing} acknowledged writes without audit event`);
  check(inv.audit.unexpected === 0, `${inv.audit.unexpected} audit events for no committed write`);
  check(
    inv.audit.stateMismatch === 0,
    `${inv.audit.stateMismatch} consumers whose allocations disagree with their last audit event`,
  );
  check(stats.outcomes.http5xx === 0, `${stats.outcomes.http5xx} HTTP 5xx (other than 503)`);
  check(stats.outcomes.unexpected === 0, `${stats.outcomes.unexpected} masked internal errors`);
  check(stats.outsideFaults === 0, `${stats.outsideFaults} unclean answers outside fault windows`);
  check(stats.releaseNotFound === 0, `${stats.releaseNotFound} held consumers not found`);
  check(
    shutdown.inFlightBroken === 0,
    `${shutdown.inFlightBroken} in-flight requests cut by SIGTERM`,
  );
  for (const f of faults) {
    if (f.fault === 'pg-restart' && f.injected) {
      const ms = Number(f.figures.recoveryMs);
      check(
        ms >= 0 && ms <= recoveryTargetMs,
        `pg-restart recovery ${ms} ms > ${recoveryTargetMs} ms`,
      );
    }
    if (f.fault === 'pg-restart' && f.injected) {
      check(
        Number(f.figures.uncachedTokenProbesBad) === 0,
        `${f.figures.uncachedTokenProbesBad} uncached-token requests answered other than 200 or a JSON 503 during the PostgreSQL restart`,
      );
    }
    if (f.fault === 'redis-hang' && f.injected) {
      check(Number(f.figures.readyzDegradedAfterMs) >= 0, 'readyz never reported the hung Redis');
      check(Number(f.figures.claimsAckedWhileHung) > 0, 'no claim succeeded while Redis hung');
      check(
        Number(f.figures.slowestReadyzMs) < 5000,
        `/readyz took ${f.figures.slowestReadyzMs} ms while Redis hung`,
      );
    }
    if (f.fault === 'redis-kill' && f.injected) {
      check(Number(f.figures.readyzDegradedAfterMs) >= 0, 'readyz never reported Redis degraded');
      check(Number(f.figures.claimsAckedWithoutRedis) > 0, 'no claim succeeded without Redis');
    }
    if (f.fault === 'plugin' && f.injected) {
      check(stats.pluginFailures > 0, 'fault plugins enabled but no isolated failure reported');
    }
  }
  return {
    ...base,
    seconds,
    requests: stats.requests,
    claimAttempts: stats.claimAttempts,
    claimsAcked: stats.claimsAcked,
    releasesAcked: stats.releasesAcked,
    resizesAcked: stats.resizesAcked,
    noHost: stats.noHost,
    claimsPerSecond: stats.claimsAcked / seconds,
    requestsPerSecond: stats.requests / seconds,
    p50Ms: percentile(stats.latencies, 50),
    p95Ms: percentile(stats.latencies, 95),
    maxMs: Math.max(0, ...stats.latencies),
    outcomes: stats.outcomes,
    http5xx: stats.outcomes.http5xx,
    unexpectedErrors: stats.outcomes.unexpected,
    retryableErrors: stats.outcomes.retryable,
    uncleanOutsideFaultWindows: stats.outsideFaults,
    pluginFailuresIsolated: stats.pluginFailures,
    ops: Object.fromEntries(stats.ops),
    errorCodes: Object.fromEntries([...stats.codes].sort((a, b) => b[1] - a[1])),
    uncleanByFaultWindow: Object.fromEntries(stats.byWindow) as Record<
      string,
      Record<string, number>
    >,
    invariants: inv,
    shutdown,
    faults,
    recoveryMs: recovery === undefined ? null : Number(recovery),
    failures,
    passed: failures.length === 0,
  };
}

/** Prints the summary table. */
export function printReport(r: SoakReport, log: (l: string) => void): void {
  const rows: [string, string][] = [
    ['mode', `${r.mode} (${r.replicas} replicas, ${r.clients} clients, ${r.hosts} hosts)`],
    ['duration', `${r.seconds.toFixed(1)} s`],
    ['requests', `${r.requests} (${r.requestsPerSecond.toFixed(0)}/s)`],
    [
      'claims',
      `${r.claimAttempts} attempted, ${r.claimsAcked} acknowledged (${r.claimsPerSecond.toFixed(0)}/s), ${r.noHost} no host`,
    ],
    ['releases / resizes', `${r.releasesAcked} / ${r.resizesAcked} acknowledged`],
    [
      'latency',
      `p50 ${r.p50Ms.toFixed(1)} ms, p95 ${r.p95Ms.toFixed(1)} ms, max ${r.maxMs.toFixed(0)} ms`,
    ],
    ['over-capacity violations', String(r.invariants.overCapacity)],
    ['lost acknowledged claims', String(r.invariants.lostClaims)],
    ['phantom allocations', String(r.invariants.phantomAllocations)],
    ['generation errors', String(r.invariants.generationErrors)],
    ['orphan consumers', String(r.invariants.orphanConsumers)],
    [
      'audit events: writes without / unexplained / final state wrong',
      `${r.invariants.audit.events}: ${r.invariants.audit.missing} / ${r.invariants.audit.unexpected} / ${r.invariants.audit.stateMismatch}`,
    ],
    [
      'consumers with an unanswered write (unsettled)',
      `${r.invariants.inDoubtConsumers} (${r.invariants.inDoubtUnsettled})`,
    ],
    ['5xx (non-503)', String(r.http5xx)],
    ['masked internal errors', String(r.unexpectedErrors)],
    ['retryable errors (503 / berth.unavailable)', String(r.retryableErrors)],
    [
      'network errors / refused / timeouts',
      `${r.outcomes.network} / ${r.outcomes.refused} / ${r.outcomes.timeout}`,
    ],
    ['unclean answers outside fault windows', String(r.uncleanOutsideFaultWindows)],
    ['isolated plugin failures', String(r.pluginFailuresIsolated)],
    [
      'SIGTERM: in-flight completed / cut; new refused / answered',
      `${r.shutdown.inFlightCompleted} / ${r.shutdown.inFlightBroken}; ${r.shutdown.newRequestsRefused} / ${r.shutdown.answeredWhileStopping}`,
    ],
    ['recovery after pg-restart', r.recoveryMs === null ? 'n/a' : `${r.recoveryMs} ms`],
  ];
  for (const [w, counts] of Object.entries(r.uncleanByFaultWindow)) {
    rows.push([
      `unclean answers during ${w === 'none' ? 'no fault' : w}`,
      Object.entries(counts)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    ]);
  }
  for (const f of r.faults) {
    rows.push([
      `fault ${f.fault}`,
      f.injected
        ? Object.entries(f.figures)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')
        : `skipped: ${f.skipped}`,
    ]);
  }
  const w = Math.max(...rows.map(([k]) => k.length));
  log('');
  log(`${'metric'.padEnd(w)} | value`);
  log(`${'-'.repeat(w)}-|-${'-'.repeat(40)}`);
  for (const [k, v] of rows) {
    log(`${k.padEnd(w)} | ${v}`);
  }
  log('');
  log(r.passed ? 'SOAK PASSED' : `SOAK FAILED: ${r.failures.join('; ')}`);
}

/** Writes the report as JSON. */
export function writeReport(r: SoakReport, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(r, null, 2)}\n`);
}
