// One phase of the HA test: the soak's claimers run against the replicas while, optionally, one
// fault is injected; the phase ends `afterSeconds` after berth acknowledged a claim sent after the
// fault. Then the ledger of every answer is checked against the database (invariants.ts).

import { runClaimers } from '../soak/claimers';
import type { Reply } from '../soak/client';
import { checkInvariants } from '../soak/invariants';
import type { Ledger } from '../soak/ledger';
import type { Router, Target } from '../soak/router';
import { percentile, Stats } from '../soak/stats';
import { startCommitProbe } from './commit-probe';
import type { HaReplica } from './replicas';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stats that also keep every acknowledged claim's times (claims/s per window, latency). */
class ClaimStats extends Stats {
  readonly acks: { sentAt: number; doneAt: number; ms: number }[] = [];

  override note(op: string, r: Reply, replica: string): void {
    super.note(op, r, replica);
    if (op.startsWith('claim:') && r.outcome === 'ok') {
      this.acks.push({ sentAt: r.sentAt, doneAt: r.sentAt + r.ms, ms: r.ms });
    }
  }
}

/** A fault: `inject` returns once it is injected, with a promise of its own figures. */
export interface Fault {
  readonly name: string;
  inject(): Promise<{ at: number; measured: Promise<Record<string, number | string | boolean>> }>;
  /** Undoes what is left of the fault after the phase (restart a killed member, ...). */
  heal?(): Promise<void>;
}

/** What a phase needs. */
export interface PhaseContext {
  readonly ledger: Ledger;
  readonly router: Router;
  readonly targets: Target[];
  readonly replicas: readonly HaReplica[];
  readonly hosts: readonly string[];
  readonly clients: number;
  readonly maxHold: number;
  /** Where the invariants are read (through HAProxy: the current primary). */
  readonly dbUrl: string;
  readonly log: (m: string) => void;
}

/** Claims per second in a window. */
interface Window {
  readonly seconds: number;
  readonly claims: number;
  readonly perSecond: number;
}

/** What one phase measured. */
export interface PhaseResult {
  readonly name: string;
  readonly fault?: string;
  readonly clients: number;
  readonly seconds: number;
  readonly claimsAcked: number;
  /** Acknowledged claims' latency (ms), sent before the fault (the whole phase without one). */
  readonly latency: { readonly p50: number; readonly p95: number; readonly n: number };
  readonly before: Window;
  /** From the fault to the first acknowledged claim sent after it (the outage seen by clients). */
  readonly during?: Window;
  readonly after?: Window;
  /** Fault to the first acknowledged claim sent after it, ms (-1: none within the phase). */
  readonly recoveryMs?: number;
  readonly faultFigures: Record<string, number | string | boolean>;
  /** Single-row commits acknowledged through HAProxy during the phase, and those lost. */
  readonly commitProbe?: { readonly acknowledged: number; readonly lost: number };
  /** Answers by outcome (ok, rejected, retryable, network, timeout, http5xx, unexpected...). */
  readonly outcomes: Record<string, number>;
  readonly codes: Record<string, number>;
  readonly readyzUnreadySeen: boolean;
  /** Every replica's LISTEN connection up again after the phase (its /readyz `changes`). */
  readonly listening: boolean;
  readonly replicasAlive: boolean;
  readonly invariants: {
    readonly overCapacity: number;
    readonly lostClaims: number;
    readonly phantomAllocations: number;
    readonly generationErrors: number;
    readonly auditMissing: number;
    readonly auditUnexpected: number;
    readonly inDoubtConsumers: number;
  };
  readonly examples: readonly string[];
}

function windowOf(acks: ClaimStats['acks'], from: number, to: number): Window {
  const seconds = Math.max(0.001, (to - from) / 1000);
  const claims = acks.filter((a) => a.doneAt >= from && a.doneAt < to).length;
  return { seconds: round(seconds), claims, perSecond: round(claims / seconds) };
}

const round = (x: number) => Math.round(x * 10) / 10;

/**
 * Runs one phase: `seconds` of claims without a fault; with one, the fault at `faultAtSeconds`
 * and the end `afterSeconds` after recovery (bounded by `maxSeconds`).
 */
export async function runPhase(
  ctx: PhaseContext,
  spec: {
    readonly name: string;
    readonly seconds: number;
    readonly fault?: Fault;
    readonly faultAtSeconds?: number;
    readonly afterSeconds?: number;
    readonly maxSeconds?: number;
    /** Claimers of this phase (default ctx.clients): few, for latency without queueing. */
    readonly clients?: number;
    /** Also run the commit probe (commit-probe.ts) through the phase. */
    readonly commitProbe?: boolean;
  },
): Promise<PhaseResult> {
  const stats = new ClaimStats();
  const probe = spec.commitProbe ? await startCommitProbe(ctx.dbUrl) : undefined;
  const start = Date.now();
  let over = false;
  const deadline = start + (spec.maxSeconds ?? spec.seconds + 120) * 1000;
  stats.startedAt = start;
  const claimers = runClaimers(
    { ledger: ctx.ledger, stats, router: ctx.router, hosts: ctx.hosts, project: 'ha' },
    {
      clients: spec.clients ?? ctx.clients,
      claims: 0,
      deadline,
      maxHold: ctx.maxHold,
      done: () => over,
    },
  );
  let at: number | undefined;
  let recoveryMs: number | undefined;
  let faultFigures: Record<string, number | string | boolean> = {};
  let unready = false;
  if (spec.fault) {
    await sleep((spec.faultAtSeconds ?? 5) * 1000);
    ctx.log(`${spec.name}: injecting ${spec.fault.name}`);
    const injected = await spec.fault.inject();
    at = injected.at;
    stats.windows.push({ fault: spec.fault.name, from: at, to: 0 });
    const watch = watchReadyz(ctx.targets, () => recoveryMs !== undefined);
    recoveryMs = await firstAckAfter(stats, at, deadline);
    faultFigures = await injected.measured;
    unready = await watch;
    stats.windows[stats.windows.length - 1]!.to = Date.now();
    ctx.log(`${spec.name}: first claim acknowledged ${recoveryMs} ms after the fault`);
    await sleep((spec.afterSeconds ?? 6) * 1000);
  } else {
    await sleep(spec.seconds * 1000);
  }
  over = true;
  await claimers;
  const end = Date.now();
  if (spec.fault?.heal) {
    await spec.fault.heal();
  }
  const listening = await allListening(ctx.targets, 30000);
  const probed = await probe?.stop();
  const inv = await checkInvariants(ctx.dbUrl, ctx.ledger);
  const beforeEnd = at ?? end;
  const lat = stats.acks.filter((a) => a.doneAt < beforeEnd).map((a) => a.ms);
  const recoveredAt = at !== undefined && recoveryMs !== undefined ? at + recoveryMs : undefined;
  return {
    name: spec.name,
    fault: spec.fault?.name,
    clients: spec.clients ?? ctx.clients,
    seconds: round((end - start) / 1000),
    claimsAcked: stats.acks.length,
    latency: { p50: round(percentile(lat, 50)), p95: round(percentile(lat, 95)), n: lat.length },
    before: windowOf(stats.acks, start, beforeEnd),
    during: at !== undefined && recoveredAt ? windowOf(stats.acks, at, recoveredAt) : undefined,
    after: recoveredAt ? windowOf(stats.acks, recoveredAt, end) : undefined,
    recoveryMs,
    faultFigures,
    commitProbe: probed,
    outcomes: { ...stats.outcomes },
    codes: Object.fromEntries(stats.codes),
    readyzUnreadySeen: unready,
    listening,
    replicasAlive: ctx.replicas.every((r) => r.alive()),
    invariants: {
      overCapacity: inv.overCapacity,
      lostClaims: inv.lostClaims,
      phantomAllocations: inv.phantomAllocations,
      generationErrors: inv.generationErrors,
      auditMissing: inv.audit.missing,
      auditUnexpected: inv.audit.unexpected,
      inDoubtConsumers: inv.inDoubtConsumers,
    },
    examples: [...inv.examples, ...stats.samples].slice(0, 12),
  };
}

/** Ms from `at` to the first acknowledged claim that was sent after it (-1 by `deadline`). */
async function firstAckAfter(stats: ClaimStats, at: number, deadline: number): Promise<number> {
  let seen = 0;
  while (Date.now() < deadline) {
    for (; seen < stats.acks.length; seen++) {
      const a = stats.acks[seen]!;
      if (a.sentAt > at) {
        return Math.round(a.doneAt - at);
      }
    }
    await sleep(20);
  }
  return -1;
}

/** True once every replica's /readyz says `changes: listening` (false after `timeoutMs`). */
async function allListening(targets: readonly Target[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answers = await Promise.all(targets.map((t) => t.client.readyz()));
    if (answers.every((a) => a.checks?.changes === 'listening')) {
      return true;
    }
    await sleep(200);
  }
  return false;
}

/** Polls every replica's /readyz until `stop()`; true when any said 503 meanwhile. */
async function watchReadyz(targets: readonly Target[], stop: () => boolean): Promise<boolean> {
  let unready = false;
  while (!stop()) {
    const answers = await Promise.all(targets.map((t) => t.client.readyz()));
    if (answers.some((a) => a.status === 503)) {
      unready = true;
    }
    await sleep(100);
  }
  return unready;
}
