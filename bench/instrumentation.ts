// What instrumentation costs, as `npm run bench` measures it: two replicas in one process on one
// seeded cloud, one with berth's metrics (prom-client histograms: the GraphQL operation, the
// scheduler's stages and plugins; tracing off, as berth runs unless OTEL_* is set) and one bare
// (`instrument: false`: no histograms, no spans). They answer `explainPlacement` in turn, call by
// call in ABBA order, each call a request nobody asked before (so candidates, every filter and
// every weigher run: no memo or cache hit). Reads only: no write, so neither app's capacity index
// has change-feed work that would land in the other's turn, as concurrent `schedule` loops of two
// apps on one database do. The claim transaction adds four observations per claim (the claim
// stage, its transaction, the batch size, the pool wait), not measured here.
//
// The end-to-end figure moves by a few per cent from run to run (GC lands on whichever call
// runs), so the scenario also prints the cost computed from its parts: the observations a call
// makes (counted on /metrics) times what one observation through the stage seam costs (timed
// here against the bare seam). The two disagree (about 3 % against 1 %); README says so.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Histogram, Registry } from 'prom-client';
import type { App } from '../src/app/app';
import { FINE_SECONDS } from '../src/observability/metrics';
import { BARE_STAGES, type StageObserver, stageObserver } from '../src/observability/stage';
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
  o: { calls: number; warmup: number; log: (l: string) => void },
): Promise<void> {
  let k = 0;
  const one = async (app: App) => {
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
  const on = { cpu: 0, wall: 0 };
  const off = { cpu: 0, wall: 0 };
  const observedBefore = await observations(instrumented);
  for (let i = 0; i < o.calls; i++) {
    const order = i % 2 === 0 ? ([instrumented, bare] as const) : ([bare, instrumented] as const);
    for (const app of order) {
      const r = await one(app);
      const into = app === instrumented ? on : off;
      into.cpu += r.cpu;
      into.wall += r.wall;
    }
  }
  const observed = (await observations(instrumented)) - observedBefore;
  const seamNs = await seamCostNs();
  const cpuOverheadPct = (on.cpu / off.cpu - 1) * 100;
  const wallOverheadPct = (on.wall / off.wall - 1) * 100;
  const per = (us: number) => (us / 1000 / o.calls).toFixed(3);
  o.log(
    `instrumentation (metrics on, tracing off) vs bare: ${o.calls} explainPlacement calls each, interleaved, every one a fresh evaluation`,
  );
  o.log(
    `  berth CPU per call ${per(on.cpu)} ms vs ${per(off.cpu)} ms bare: overhead ${cpuOverheadPct.toFixed(1)} % (target ≤ 2 %); wall ${(on.wall / o.calls).toFixed(3)} ms vs ${(off.wall / o.calls).toFixed(3)} ms: ${wallOverheadPct.toFixed(1)} %`,
  );
  const perCall = observed / o.calls;
  const costUs = (perCall * seamNs) / 1000;
  o.log(
    `  from its parts: ${perCall.toFixed(1)} observations per call × ${seamNs.toFixed(0)} ns each (the stage seam vs bare, timed alone) = ${costUs.toFixed(1)} µs = ${((costUs / (off.cpu / o.calls)) * 100).toFixed(2)} % of a bare call's CPU`,
  );
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
 * What one stage observation adds (ns): the instrumented seam (timer, histogram, tracing check)
 * minus the bare one, around a stage that does nothing; the fastest of five runs of 200,000.
 */
async function seamCostNs(): Promise<number> {
  const histogram = new Histogram({
    name: 'bench_stage_seconds',
    help: 'scratch',
    labelNames: ['stage', 'plugin'],
    buckets: FINE_SECONDS,
    registers: [new Registry()],
  });
  const timed = stageObserver(histogram);
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
