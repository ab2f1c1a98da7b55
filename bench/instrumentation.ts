// What instrumentation costs, as `npm run bench` measures it: two replicas in one process on one
// seeded cloud, one with berth's metrics (histograms: the GraphQL operation, the scheduler's
// stages and plugins, pool waits; tracing off, as berth runs unless OTEL_* is set) and one bare
// (`instrument: false`: no histograms, no spans). They answer `explainPlacement` in turn, call by
// call in ABBA order, each call a request nobody asked before (so candidates, every filter and
// every weigher run: no memo or cache hit). Reads only: no write, so neither app's capacity index
// has change-feed work that would land in the other's turn, as concurrent `schedule` loops of two
// apps on one database do. The claim transaction adds four observations per claim (the claim
// stage, its transaction, the batch size, the pool wait), not measured here.
//
// Two replicas differ by more than the instrumentation: on a busy 2-core machine two bare
// replicas (`--overhead-aa`) differ by up to ±7 % from run to run. So the scenario also swaps the
// stage seam of one replica call by call, and computes the cost from its parts: the
// observations a call makes (counted on /metrics) times what one observation through the app's
// stage seam costs (timed here against the bare seam). docs/benchmarks.md has the figures.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '../src/app/app';
import { createAppMetrics } from '../src/observability/app-metrics';
import { BARE_STAGES, type StageObserver } from '../src/observability/stage';
import { scheduleInput } from './scheduling';

type Gql = (app: App, query: string, variables: object) => Promise<Record<string, unknown>>;

const EXPLAIN = `query($i: ScheduleInput!) { explainPlacement(input: $i) {
  selections { host { uuid } } filterSteps { filter after } } }`;

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * `calls` explainPlacement calls per app after `warmup` unmeasured ones each; logs berth's CPU
 * per call (this process's user + system time) and the wall time, instrumented vs bare.
 */
export async function runInstrumentationBench(
  instrumented: App,
  bare: App,
  gql: Gql,
  o: { calls: number; warmup: number; label?: string; log: (l: string) => void },
): Promise<void> {
  let k = 0;
  const one = async (app: App): Promise<Call> => {
    // A MEMORY_MB amount no call asked before: a fresh evaluation every time.
    const input = scheduleInput(50, 20, 4096 + k++);
    const cpu = cpuNow();
    const t = performance.now();
    const data = (await gql(app, EXPLAIN, { i: input })) as {
      explainPlacement: { selections: { host: unknown }[] };
    };
    if (data.explainPlacement.selections[0]?.host == null) {
      throw new Error('instrumentation bench: explainPlacement found no host');
    }
    return { cpu: cpuNow() - cpu, wall: performance.now() - t };
  };
  for (let i = 0; i < o.warmup; i++) {
    await one(instrumented);
    await one(bare);
  }
  const observedBefore = await observations(instrumented);
  const two = await compare(
    o.calls,
    () => one(instrumented),
    () => one(bare),
  );
  const observed = (await observations(instrumented)) - observedBefore;
  // One replica, its stage seam swapped per call: no difference between two replicas' heaps and
  // caches, only the scheduler's stages (the GraphQL operation and pool waits stay observed).
  const service = instrumented.scheduling.service as unknown as { stages: StageObserver };
  const seam = service.stages;
  const swapped = await compare(
    o.calls,
    () => one(instrumented),
    () => {
      service.stages = BARE_STAGES;
      return one(instrumented).finally(() => {
        service.stages = seam;
      });
    },
  );
  const seamNs = await seamCostNs();
  const offCpu = two.offCpu;
  o.log(
    `instrumentation (${o.label ?? 'metrics on, tracing off'}) vs bare: ${o.calls} explainPlacement calls each, interleaved, every one a fresh evaluation`,
  );
  o.log(`  two replicas, instrumented vs bare: ${two.line}`);
  o.log(`  one replica, stage seam vs bare seam: ${swapped.line}`);
  const perCall = observed / o.calls;
  const costUs = (perCall * seamNs) / 1000;
  o.log(
    `  from its parts: ${perCall.toFixed(1)} observations per call × ${seamNs.toFixed(0)} ns each (the stage seam vs bare, timed alone) = ${costUs.toFixed(1)} µs = ${((costUs / (offCpu / o.calls)) * 100).toFixed(2)} % of a bare call's CPU (two-replica figure)`,
  );
}

/**
 * `calls` calls of `on` and of `off`, interleaved in ABBA order: berth CPU per call (total, and
 * the median), and the spread of the overhead over six blocks of calls.
 */
async function compare(
  calls: number,
  on: () => Promise<Call>,
  off: () => Promise<Call>,
): Promise<{ offCpu: number; line: string }> {
  const a: Call[] = [];
  const b: Call[] = [];
  for (let i = 0; i < calls; i++) {
    if (i % 2 === 0) {
      a.push(await on());
      b.push(await off());
    } else {
      b.push(await off());
      a.push(await on());
    }
  }
  const total = (xs: readonly Call[], k: keyof Call) => xs.reduce((n, c) => n + c[k], 0);
  const pct = (x: number, y: number) => `${((x / y - 1) * 100).toFixed(1)} %`;
  const ms = (us: number) => (us / 1000).toFixed(3);
  // GC and the machine's other work land on whichever call runs: the medians, and the spread
  // of the overhead over blocks of calls, show how much of the figure is noise.
  const blocks: number[] = [];
  const size = Math.max(1, Math.floor(calls / 6));
  for (let from = 0; from + size <= calls; from += size) {
    const cpu = (xs: readonly Call[]) => total(xs.slice(from, from + size), 'cpu');
    blocks.push((cpu(a) / cpu(b) - 1) * 100);
  }
  const [onCpu, offCpu] = [total(a, 'cpu'), total(b, 'cpu')];
  const [onMedian, offMedian] = [median(a.map((c) => c.cpu)), median(b.map((c) => c.cpu))];
  return {
    offCpu,
    line: `CPU per call ${ms(onCpu / calls)} vs ${ms(offCpu / calls)} ms: ${pct(onCpu, offCpu)} (target ≤ 1 %), median ${ms(onMedian)} vs ${ms(offMedian)} ms: ${pct(onMedian, offMedian)}, over ${blocks.length} blocks of ${size}: ${Math.min(...blocks).toFixed(1)} to ${Math.max(...blocks).toFixed(1)} %; wall ${pct(total(a, 'wall'), total(b, 'wall'))}`,
  };
}

interface Call {
  /** Berth CPU (µs). */
  readonly cpu: number;
  /** Wall time (ms). */
  readonly wall: number;
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Observations recorded so far in `app`'s histograms (the sum of their `_count` series). */
async function observations(app: App): Promise<number> {
  const server = createServer(app.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let text: string;
  try {
    text = await (await fetch(`http://127.0.0.1:${port}/metrics?scope=worker`)).text();
  } finally {
    server.close();
  }
  let n = 0;
  for (const m of text.matchAll(/^berth_\w+_count(?:\{[^}]*\})? (\S+)$/gm)) {
    n += Number(m[1]);
  }
  return n;
}

/**
 * What one stage observation adds (ns): an app's instrumented seam (timer, histogram, tracing
 * check, outcome counter) minus the bare one, around a stage that does nothing; the fastest of
 * five runs of 200,000.
 */
async function seamCostNs(): Promise<number> {
  const timed = createAppMetrics({ restPrefix: '/placement' }).stages;
  const n = 200_000;
  const run = async (seam: StageObserver) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      await seam.observe('filter', 'RamFilter', undefined, async () => i);
    }
    return ((performance.now() - t) * 1e6) / n;
  };
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 5; r++) {
    best = Math.min(best, (await run(timed)) - (await run(BARE_STAGES)));
  }
  return best;
}
