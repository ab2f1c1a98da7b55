// The HA test's report: one row per phase (claims/s before, during and after its fault, the
// recovery split, latency, unclean answers, and what the ledger check found), the verdict, and
// dist/ha-report.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PhaseResult } from './phases';

/** A phase and the replication mode it ran under. */
export interface ReportedPhase extends PhaseResult {
  readonly mode: 'single' | 'sync' | 'async';
  /** Acknowledged writes this phase lost (lost claims + phantom allocations + audit missing). */
  readonly lostThisPhase: number;
}

/** Every phase and the verdict. */
export interface HaReport {
  readonly startedAt: string;
  readonly replicas: string;
  readonly setup: Record<string, number | string>;
  readonly phases: readonly ReportedPhase[];
  readonly failures: readonly string[];
  readonly passed: boolean;
}

const UNCLEAN = ['http5xx', 'unexpected'] as const;

/** Why the run fails (empty: passed). Async phases may lose writes: that is what they measure. */
export function verdict(phases: readonly ReportedPhase[]): string[] {
  const out: string[] = [];
  for (const p of phases) {
    const i = p.invariants;
    if (i.overCapacity > 0) {
      out.push(`${p.name}: ${i.overCapacity} over-committed (provider, class) pairs`);
    }
    if (p.mode !== 'async' && (p.commitProbe?.lost ?? 0) > 0) {
      out.push(`${p.name}: ${p.commitProbe?.lost} acknowledged probe commits lost`);
    }
    if (p.mode !== 'async' && p.lostThisPhase > 0) {
      out.push(`${p.name}: ${p.lostThisPhase} acknowledged writes lost`);
    }
    if (p.mode !== 'async' && (i.generationErrors > 0 || i.auditUnexpected > 0)) {
      out.push(
        `${p.name}: ${i.generationErrors} generation errors, ${i.auditUnexpected} unexpected audit events`,
      );
    }
    for (const o of UNCLEAN) {
      if ((p.outcomes[o] ?? 0) > 0) {
        out.push(
          `${p.name}: ${p.outcomes[o]} ${o} answers (a fault must give clean, retryable errors)`,
        );
      }
    }
    if (!p.listening) {
      out.push(`${p.name}: a replica's LISTEN connection was not back within 30 s`);
    }
    if (!p.replicasAlive) {
      out.push(`${p.name}: a replica exited`);
    }
    if (p.fault && (p.recoveryMs === undefined || p.recoveryMs < 0)) {
      out.push(`${p.name}: berth did not acknowledge a claim after ${p.fault}`);
    }
    if (
      ['postgres-crash', 'primary-kill', 'primary-hang'].includes(p.fault ?? '') &&
      !p.readyzUnreadySeen
    ) {
      out.push(`${p.name}: /readyz never said not ready while there was no primary`);
    }
    if (p.claimsAcked === 0) {
      out.push(`${p.name}: no claim acknowledged`);
    }
  }
  return out;
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);

/** Prints the report as tables. */
export function printReport(r: HaReport, out: (l: string) => void): void {
  out('');
  out(`HA test: replicas ${r.replicas}`);
  out(
    `setup: ${Object.entries(r.setup)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  out('');
  const cols = [24, 8, 9, 24, 13, 15, 19];
  const row = (cells: (string | number)[]) =>
    out(cells.map((c, i) => (i < cols.length ? pad(c, cols[i]!) : String(c))).join(''));
  row([
    'phase',
    'mode',
    'clients',
    'claims/s bef|dur|aft',
    'recovery ms',
    'p50/p95 ms',
    'retry/net/timeout',
    'lost/over/phantom',
  ]);
  for (const p of r.phases) {
    const rate = [p.before, p.during, p.after].map((w) => (w ? w.perSecond : '-')).join(' | ');
    const o = p.outcomes;
    const i = p.invariants;
    row([
      p.name,
      p.mode,
      p.clients,
      rate,
      p.recoveryMs ?? '-',
      `${p.latency.p50}/${p.latency.p95}`,
      `${o.retryable ?? 0}/${o.network ?? 0}/${o.timeout ?? 0}`,
      `${p.lostThisPhase}/${i.overCapacity}/${i.phantomAllocations}`,
    ]);
  }
  out('');
  for (const p of r.phases) {
    if (p.fault) {
      const probe = p.commitProbe
        ? `; commit probe ${p.commitProbe.lost} lost of ${p.commitProbe.acknowledged} acknowledged`
        : '';
      out(`${p.name}: ${JSON.stringify(p.faultFigures)}${probe}; codes ${JSON.stringify(p.codes)}`);
    }
  }
  out('');
  out(r.passed ? 'HA test PASSED' : `HA test FAILED:\n  ${r.failures.join('\n  ')}`);
}

export function writeReport(r: HaReport, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(r, null, 2)}\n`);
}
