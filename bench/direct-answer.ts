// The direct GraphQL answer (src/graphql/direct-answer.ts: the root field executed alone, the
// selection below it written straight to JSON bytes) against the executor (graphql-jit) on the
// same query, and the gate that keeps the direct path only while it pays: the run fails when the
// direct path is not at least DIRECT_MIN_GAIN faster at the median. The executor answers the same
// document with `@include(if: true)` on the root field (the direct path leaves directives to it);
// both are asked in turn, in alternating order, through `yoga.fetch`, the body read as bytes.
import type { App } from '../src/app/app';
import { directAnswerStats } from '../src/graphql/direct-answer';

/**
 * How much faster (1 − direct p50 / executor p50) the direct path must be. Measured on 2 shared,
 * busy cores, 1,000 candidates (533 KB): 33–53 % faster (docs/benchmarks.md); the gate leaves room
 * for a noisy machine and fails when the path stops paying for its code.
 */
export const DIRECT_MIN_GAIN = 0.25;

/** The candidates answer of the bench (the fields a Nova-style caller reads). */
const QUERY = `query($r: AllocationCandidatesRequest!) { allocationCandidates(request: $r) ROOT {
  allocationRequests { allocations { provider { uuid } resources { resourceClass amount } } mappings { suffix providerUuids } }
  providerSummaries { provider { uuid } resources { resourceClass capacity used } traits } } }`;

const DIRECT = QUERY.replace('ROOT', '');
const EXECUTED = QUERY.replace('ROOT', '@include(if: true)');

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** One answer, timed to its last byte; how many answers the direct path wrote meanwhile. */
async function timed(app: App, query: string, variables: object) {
  const written = directAnswerStats.written;
  const t = performance.now();
  const res = await app.graphql.fetch('http://bench/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = await res.arrayBuffer();
  const ms = performance.now() - t;
  if (res.status !== 200 || new TextDecoder().decode(body.slice(0, 9)) !== '{"data":{') {
    throw new Error(`direct-answer bench: the query failed (${res.status})`);
  }
  return { ms, bytes: body.byteLength, direct: directAnswerStats.written - written };
}

/**
 * Times both paths `o.iterations` times each (after `o.warmup` unmeasured rounds) on candidates
 * of `o.request` and logs the medians.
 * @throws Error when the direct path did not answer, or is less than `o.minGain` faster.
 */
export async function runDirectAnswerGate(
  app: App,
  o: {
    request: object;
    iterations: number;
    warmup: number;
    minGain?: number;
    /** False under --smoke: too few iterations on a small cloud to judge; figures only. */
    enforce?: boolean;
    log: (line: string) => void;
  },
): Promise<void> {
  const minGain = o.minGain ?? DIRECT_MIN_GAIN;
  const variables = { r: o.request };
  const direct: number[] = [];
  const executed: number[] = [];
  let bytes = 0;
  for (let i = 0; i < o.warmup + o.iterations; i++) {
    // Alternating order, so neither path always runs on the heap the other left.
    const order = i % 2 === 0 ? [true, false] : [false, true];
    for (const isDirect of order) {
      const r = await timed(app, isDirect ? DIRECT : EXECUTED, variables);
      if (r.direct !== (isDirect ? 1 : 0)) {
        throw new Error(
          `direct-answer bench: the ${isDirect ? 'plain query was not' : '@include query was'} answered by the direct path`,
        );
      }
      if (i >= o.warmup) {
        (isDirect ? direct : executed).push(r.ms);
      }
      bytes = r.bytes;
    }
  }
  const d = median(direct);
  const e = median(executed);
  const gain = 1 - d / e;
  o.log(
    `GraphQL candidates ${(bytes / 1024).toFixed(0)} KB: direct answer p50 ${d.toFixed(2)} ms, executor p50 ${e.toFixed(2)} ms: ${(gain * 100).toFixed(1)} % faster (gate ≥ ${(minGain * 100).toFixed(0)} %)`,
  );
  if (o.enforce === false) {
    o.log('  (gate not applied under --smoke: run npm run bench, or --only-direct, to apply it)');
    return;
  }
  if (!(gain >= minGain)) {
    throw new Error(
      `direct-answer gate failed: the direct GraphQL answer is ${(gain * 100).toFixed(1)} % faster than the executor on the same query (p50 ${d.toFixed(2)} vs ${e.toFixed(2)} ms), below the required ${(minGain * 100).toFixed(0)} %: the direct path (src/graphql/direct-answer.ts) no longer pays for itself; see DIRECT_MIN_GAIN in bench/direct-answer.ts`,
    );
  }
}
