// Counters and latencies of a soak run, and the fault windows errors are attributed to.
import type { Outcome, Reply } from './client';

/** A period during which a fault was active (ms since epoch). */
export interface FaultWindow {
  readonly fault: string;
  readonly from: number;
  to: number;
}

/** Percentile `p` (0..100) of `xs` (nearest rank). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) {
    return 0;
  }
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** Everything counted while the claimers run. */
export class Stats {
  readonly outcomes: Record<Outcome, number> = {
    ok: 0,
    rejected: 0,
    retryable: 0,
    unexpected: 0,
    http5xx: 0,
    refused: 0,
    network: 0,
    timeout: 0,
  };
  readonly codes = new Map<string, number>();
  readonly ops = new Map<string, { requests: number; ok: number }>();
  readonly latencies: number[] = [];
  readonly windows: FaultWindow[] = [];
  /** Unclean outcomes (retryable/network/timeout) of requests sent outside every fault window. */
  outsideFaults = 0;
  /** Non-ok outcomes by the fault window they overlap ('none' outside every window). */
  readonly byWindow = new Map<string, Partial<Record<Outcome, number>>>();
  /** Examples of unclean answers, for the log. */
  readonly samples: string[] = [];
  claimAttempts = 0;
  claimsAcked = 0;
  releasesAcked = 0;
  resizesAcked = 0;
  noHost = 0;
  /** Releases of consumers the client held that answered "not found" (lost claims). */
  releaseNotFound = 0;
  pluginFailures = 0;
  startedAt = Date.now();
  endedAt = 0;

  /** Records one reply of operation `op`. */
  note(op: string, r: Reply, replica: string): void {
    this.outcomes[r.outcome]++;
    const o = this.ops.get(op) ?? { requests: 0, ok: 0 };
    o.requests++;
    if (r.outcome === 'ok') {
      o.ok++;
    }
    this.ops.set(op, o);
    if (r.status > 0) {
      this.latencies.push(r.ms);
    }
    if (r.code && r.outcome !== 'ok') {
      const key = `${r.outcome}:${r.code}`;
      this.codes.set(key, (this.codes.get(key) ?? 0) + 1);
    }
    const unclean = r.outcome !== 'ok' && r.outcome !== 'rejected';
    if (unclean) {
      const w = this.windowOf(r.sentAt, r.sentAt + r.ms) ?? 'none';
      const counts = this.byWindow.get(w) ?? {};
      counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
      this.byWindow.set(w, counts);
    }
    if (unclean && !this.inFaultWindow(r.sentAt, r.sentAt + r.ms)) {
      this.outsideFaults++;
    }
    if (unclean && this.samples.length < 20) {
      this.samples.push(
        `${new Date(r.sentAt).toISOString()} ${op} @${replica}: ${r.outcome} ${r.status} ${r.code ?? ''}`,
      );
    }
  }

  /** True when the request span [from, to] (ms) overlaps a fault window (with 1 s of slack). */
  inFaultWindow(from: number, to: number): boolean {
    return this.windowOf(from, to) !== undefined;
  }

  /**
   * The fault whose window the request span [from, to] (ms) overlaps: the latest window it
   * overlaps exactly (back-to-back faults: the one the answer came back in), else one within 1 s.
   */
  windowOf(from: number, to: number): string | undefined {
    const overlaps = (slack: number) =>
      this.windows.filter((w) => to >= w.from - slack && from <= (w.to || Date.now()) + slack);
    return (overlaps(0).at(-1) ?? overlaps(1000)[0])?.fault;
  }

  /** Total requests sent. */
  get requests(): number {
    return Object.values(this.outcomes).reduce((a, b) => a + b, 0);
  }
}
