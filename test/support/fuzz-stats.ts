// Counters and examples of a fuzz run, and the checks shared by the GraphQL and REST fuzzers.

/** Totals of one fuzz target. */
export interface FuzzStats {
  generated: number;
  /** Requests answered with an error (the expected outcome for bad input). */
  rejected: number;
  /** HTTP 5xx, or a GraphQL INTERNAL_SERVER_ERROR (a masked unexpected exception). */
  serverErrors: number;
  /** Errors without a stable code, or leaking internals (stack, SQL, driver messages). */
  unmasked: number;
  /** Rejected writes after which the database fingerprint changed. */
  partialWrites: number;
  /** The first few failures, for the assertion message. */
  examples: string[];
  /** How often each error code (or HTTP status) answered: shows how deep the inputs reach. */
  codes: Record<string, number>;
}

/** Fresh counters. */
export function newStats(): FuzzStats {
  return {
    generated: 0,
    rejected: 0,
    serverErrors: 0,
    unmasked: 0,
    partialWrites: 0,
    examples: [],
    codes: {},
  };
}

/** Messages that mean an internal error escaped its mask. */
export const LEAK =
  /\n\s+at |QueryFailedError|violates .* constraint|invalid input syntax|out of range for type|relation "|column "|TypeError|ReferenceError|Cannot read prop|undefined is not|\bnull value in column/;

/** Records a failure example (bounded). */
export function note(stats: FuzzStats, kind: string, detail: unknown): void {
  if (stats.examples.length < Number(process.env.BERTH_FUZZ_EXAMPLES ?? 8)) {
    stats.examples.push(`${kind}: ${JSON.stringify(detail).slice(0, 600)}`);
  }
}

/** How many cases each fuzz target runs (BERTH_FUZZ_RUNS, default 200). */
export function fuzzRuns(): number {
  const n = Number(process.env.BERTH_FUZZ_RUNS ?? 200);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 200;
}

/** fast-check seed (BERTH_FUZZ_SEED, else random; printed so a failure can be replayed). */
export function fuzzSeed(): number {
  const s = Number(process.env.BERTH_FUZZ_SEED);
  return Number.isFinite(s) && process.env.BERTH_FUZZ_SEED
    ? s
    : Math.floor(Math.random() * 2 ** 31);
}

/** Counts one answer code. */
export function countCode(stats: FuzzStats, code: string): void {
  stats.codes[code] = (stats.codes[code] ?? 0) + 1;
}

/** The `n` most frequent answer codes, as `code×count` text. */
export function topCodes(s: FuzzStats, n = 8): string {
  return Object.entries(s.codes)
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
}

/** One summary line. */
export function summary(name: string, s: FuzzStats): string {
  return `${name.padEnd(22)} generated ${String(s.generated).padStart(6)}  rejected ${String(s.rejected).padStart(6)}  5xx ${s.serverErrors}  unmasked ${s.unmasked}  partial writes ${s.partialWrites}`;
}
