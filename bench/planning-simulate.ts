// Planning bench part (bench/planning.ts): what-if simulation (src/planning/simulation.ts) on
// o.hosts flat hosts. A trace of 1,000 requests of four flavors in turn (m1.small to m1.xlarge,
// each asking for at most 50 allocation candidates as bench/scheduling.ts's requests do) placed
// under the default profile: time per run (target ≤ 2 s) and memory per run (heap and RSS
// growth; the view copies only the usage column, stamps and consumer lists, whose size is
// printed). Then `schedule` throughput — 16 concurrent GraphQL callers, a fixed number of
// claims — without and with a simulation loop running beside it on the same app, twice each.
import { randomUUID } from 'node:crypto';
import { simulationPipeline } from '../src/planning/pipeline-config';
import { PlanningView } from '../src/planning/planning-view';
import { simulate } from '../src/planning/simulation';
import type { ScheduleRequest } from '../src/scheduler/schedule-types';
import type { BenchApp } from './bench-app';
import { gql } from './graphql-timing';
import { gqlRequest } from './http/scenarios';
import type { PlanningBenchOptions } from './planning';
import { concurrently } from './scheduling';
import { seedDataset } from './seed';

const FLAVORS = [
  { VCPU: 1, MEMORY_MB: 2048, DISK_GB: 20 },
  { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 40 },
  { VCPU: 4, MEMORY_MB: 8192, DISK_GB: 80 },
  { VCPU: 8, MEMORY_MB: 16384, DISK_GB: 160 },
];

const SCHEDULE = `mutation($i: ScheduleInput!) { schedule(input: $i) { selections { host { uuid } } } }`;

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function trace(n: number, limit: number | null = 50): ScheduleRequest[] {
  return Array.from({ length: n }, (_, i) => ({
    consumerUuids: [randomUUID()],
    projectId: 'bench-sim',
    userId: 'bench',
    request: {
      groups: [
        {
          suffix: '',
          resources: FLAVORS[i % FLAVORS.length]!,
          requiredTraits: [],
          forbiddenTraits: [],
          memberOf: [],
          forbiddenAggregates: [],
        },
      ],
      ...(limit === null ? {} : { limit }),
    },
    extraSpecs: {},
  }));
}

/** One simulation of `requests` under the default profile. */
async function simulateOnce(app: BenchApp, requests: readonly ScheduleRequest[]) {
  const pipeline = simulationPipeline(app.scheduling.pipelines.current, { profile: 'default' }, 1);
  const planning = app.scheduling.planning;
  return simulate(
    () => PlanningView.open(planning),
    requests,
    pipeline,
    undefined,
    () => planning.candidates.revision,
  );
}

/** `claims` schedule calls by 16 concurrent GraphQL callers: claims per second. */
async function scheduleRate(app: BenchApp, claims: number): Promise<number> {
  const r = await concurrently(16, claims, async () => {
    const data = (await gql(app, SCHEDULE, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'bench',
        userId: 'bench',
        request: gqlRequest(50),
      },
    })) as { schedule: { selections: { host: unknown }[] } };
    return data.schedule.selections[0]!.host !== null;
  });
  return r.ok / r.secs;
}

/** Seeds what this part needs on `app` and prints its figures. */
export async function benchSimulation(app: BenchApp, o: PlanningBenchOptions): Promise<void> {
  await seedDataset(app.dataSource, { hosts: o.hosts, shape: 'flat' });
  const requests = trace(1000);
  await simulateOnce(app, requests.slice(0, 50)); // warm-up: index, host views, compiled paths
  const view = await PlanningView.open(app.scheduling.planning);
  const own = view.index as unknown as {
    inventories: { used: Float64Array };
    stamp: Int32Array;
    consumers: unknown[];
  };
  const viewBytes =
    own.inventories.used.byteLength + own.stamp.byteLength + 5 * own.consumers.length * 8;
  const times: number[] = [];
  const heap: number[] = [];
  const rss: number[] = [];
  let placed = 0;
  for (let i = 0; i < Math.max(2, Math.min(o.iterations, 5)); i++) {
    const m0 = process.memoryUsage();
    const started = performance.now();
    const result = await simulateOnce(app, requests);
    times.push(performance.now() - started);
    const m1 = process.memoryUsage();
    heap.push(m1.heapUsed - m0.heapUsed);
    rss.push(m1.rss - m0.rss);
    placed = result.run.placed;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  o.log(
    `  simulate 1,000 requests (4 flavors, limit 50), default profile, ${o.hosts} hosts: ${median(times).toFixed(0)} ms median of ${times.length} (${times.map((t) => t.toFixed(0)).join(', ')}), ${placed} placed (target ≤ 2000 ms)`,
  );
  o.log(
    `  memory per run: heap +${heap.map(mib).join(', +')} MiB, RSS +${rss.map(mib).join(', +')} MiB; the view's own copy ${mib(viewBytes)} MiB (usage column, stamps, consumer lists) — the rest is the run's placements and evaluations`,
  );

  // What one request costs with more candidates: a simulation evaluates each request as
  // `schedule` would, so its cost follows the request's own candidate limit.
  const perRequest: string[] = [];
  for (const limit of [50, 1000, null]) {
    const few = trace(o.smoke ? 10 : 50, limit);
    const started = performance.now();
    await simulateOnce(app, few);
    perRequest.push(
      `limit ${limit ?? 'none'} ${((performance.now() - started) / few.length).toFixed(1)} ms`,
    );
  }
  o.log(`  simulate, per request by candidate limit (${o.hosts} hosts): ${perRequest.join(', ')}`);

  const claims = o.smoke ? 200 : 2000;
  let stop = false;
  let loops = 0;
  const simulationLoop = async () => {
    while (!stop) {
      await simulateOnce(app, requests);
      loops++;
    }
  };
  const without: number[] = [];
  const beside: number[] = [];
  await scheduleRate(app, Math.min(200, claims)); // warm-up
  for (let round = 0; round < 2; round++) {
    without.push(await scheduleRate(app, claims));
    stop = false;
    const loop = simulationLoop();
    beside.push(await scheduleRate(app, claims));
    stop = true;
    await loop;
  }
  o.log(
    `  schedule, 16 GraphQL callers, ${claims} claims: ${without.map((r) => r.toFixed(0)).join(', ')} claims/s alone; ${beside.map((r) => r.toFixed(0)).join(', ')} claims/s with a simulation loop beside it (${loops} simulations of 1,000 ran meanwhile)`,
  );
}
