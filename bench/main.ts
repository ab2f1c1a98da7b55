// `npm run bench`: end-to-end figures through GraphQL on a real database (DATABASE_URL, in a
// schema of its own, or embedded PGlite), plus the engine-only bench. Prints p50/p95/max,
// result counts, claims/s and RSS. `--smoke` runs small sizes (CI keeps it from rotting).
// Usage: npm run bench -- [--smoke] [--hosts 5000] [--nested 10000] [--clients 16] [--claims 2000]
//   scheduling scenario (bench/scheduling.ts): [--sched-hosts 10000] [--sched-clients 32]
//   [--sched-claims 3000] [--sched-limit 50 (0 = none)] [--sched-no-raw] [--sched-reuse-ms N]
//   [--sched-shared-cache gated|always|off] [--sched-no-full (skip the 15 filters + 6 weighers run)]
//   [--no-scheduling] [--only-scheduling]
//   "why no allocation candidates?" (bench/candidate-stage.ts): [--only-explain] [--explain-hosts 10000]
//   capacity planning (bench/planning.ts): [--only-planning] [--planning-hosts 10000] [--no-planning]
//   direct GraphQL answer against the executor, a gate (bench/direct-answer.ts): [--only-direct]
//   [--direct-hosts 1000]; part of the flat scenario otherwise
//   [--no-instrument] (no histograms or spans anywhere; also skips the overhead scenario)
//   instrumentation overhead scenario (bench/instrumentation.ts): [--overhead-hosts 2000]
//   [--overhead-calls 3000] [--no-overhead] [--only-instrumentation] [--overhead-aa (bare vs bare)]
//   embedded boot times, before the scaling table (bench/embedded-boot.ts; one round with --smoke):
//   [--no-embedded-boot]
//   scaling table, last in the run (bench/scaling.ts): [--scaling (only it)] [--no-scaling]
//   [--scaling-sizes 1000,10000,100000 (flat; add 1000000 for the million row)]
//   [--scaling-nested 100000] [--scaling-gpus 1] [--scaling-workers 1] [--scaling-claims 2000]
//   [--scaling-heap MiB (default: sized per row)] [--scaling-ready-timeout 600]
//   [--scaling-step-timeout 600] (seconds)
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { appRunner, type BenchApp } from './bench-app';
import { runCandidateStageEngineBench, timeExplainPlacement } from './candidate-stage';
import { runDirectAnswerGate } from './direct-answer';
import { runEmbeddedBoot } from './embedded-boot';
import { runEngineBench } from './engine';
import { gql, timeQuery, timeRollups } from './graphql-timing';
import { gqlRequest } from './http/scenarios';
import { runInstrumentationBench } from './instrumentation';
import { runPlanningBench } from './planning';
import { defaultScaling, runScaling } from './scaling';
import {
  compareRates,
  runSchedulingBench,
  SCHEDULING_ENV,
  SCHEDULING_FULL_ENV,
  tagAggregates,
} from './scheduling';
import { seedDataset } from './seed';
import { runSubscriptionBench } from './subscriptions';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const text = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? String(args[i + 1]) : dflt;
};
const num = (name: string, dflt: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const smoke = flag('smoke');
/** --no-instrument: apps without histograms or spans (createApp `instrument: false`). */
const instrument = !flag('no-instrument');

const list = (name: string, dflt: readonly number[]) =>
  args.includes(`--${name}`)
    ? text(name, '')
        .split(',')
        .filter((s) => s !== '')
        .map(Number)
    : dflt;

const SCHEDULE = `mutation($i: ScheduleInput!) { schedule(input: $i) { selections { consumerUuid host { uuid } reason } } }`;
const withApp = appRunner(instrument);

async function main(): Promise<void> {
  const flat = num('hosts', smoke ? 200 : 5000);
  const nested = num('nested', smoke ? 200 : 10000);
  const iterations = smoke ? 5 : 30;
  console.log(
    `berth bench (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, ${process.env.REDIS_URL ? 'Redis' : 'in-process cache'}, ${instrument ? 'metrics instrumented' : 'no instrumentation (--no-instrument)'})`,
  );

  const log = (l: string) => console.log(l);
  const scalingTable = () => {
    const d = defaultScaling(smoke, !process.env.DATABASE_URL);
    const heap = num('scaling-heap', 0);
    return runScaling(
      {
        sizes: list('scaling-sizes', d.sizes),
        nested: list('scaling-nested', d.nested),
        gpus: num('scaling-gpus', 1),
        workers: num('scaling-workers', 1),
        iterations: d.iterations,
        claims: num('scaling-claims', d.claims),
        writes: d.writes,
        heapMiB: heap > 0 ? heap : undefined,
        readyTimeoutMs: num('scaling-ready-timeout', 600) * 1000,
        stepTimeoutMs: num('scaling-step-timeout', 600) * 1000,
      },
      log,
    );
  };
  if (flag('scaling')) {
    await scalingTable();
    return;
  }
  const gate = (app: BenchApp) =>
    runDirectAnswerGate(app, {
      request: gqlRequest(1000),
      iterations,
      warmup: 5,
      enforce: !smoke || flag('only-direct'),
      log,
    });
  const explainBench = () => {
    const hosts = num('explain-hosts', smoke ? 300 : 10000);
    runCandidateStageEngineBench(hosts, iterations, log);
    return withApp('explain', async (app) => {
      await seedDataset(app.dataSource, { hosts, shape: 'flat', sharing: 2 });
      await app.services.candidates.current();
      await timeExplainPlacement(app, hosts, iterations);
    });
  };
  if (flag('only-explain')) {
    return explainBench();
  }
  const planningBench = () =>
    runPlanningBench(withApp, {
      hosts: num('planning-hosts', smoke ? 300 : 10000),
      iterations,
      smoke,
      log,
    });
  if (flag('only-planning')) {
    return planningBench();
  }
  if (flag('only-direct')) {
    const hosts = num('direct-hosts', 1000);
    return withApp('direct', async (app) => {
      await seedDataset(app.dataSource, { hosts, shape: 'flat', sharing: 2 });
      await gate(app);
    });
  }
  const overheadBench = () =>
    withApp(
      'instrumentation',
      async (app, replica) => {
        const seeded = await seedDataset(app.dataSource, {
          hosts: num('overhead-hosts', smoke ? 200 : 2000),
          shape: 'flat',
          sharing: 0,
        });
        await tagAggregates(app.dataSource, seeded.aggregates);
        // Two replicas of the same kind, so only the instrumentation differs between them (the
        // first app also ran the migrations and the seed).
        // --overhead-aa: both bare, the same measurement with nothing to find (its noise).
        const aa = flag('overhead-aa');
        const instrumented = await replica({ instrument: !aa });
        const bare = await replica({ instrument: false });
        try {
          await instrumented.services.candidates.current();
          await bare.services.candidates.current();
          await runInstrumentationBench(instrumented, bare, gql, {
            calls: num('overhead-calls', smoke ? 50 : 3000),
            warmup: smoke ? 20 : 300,
            ...(aa ? { label: 'A/A: bare' } : {}),
            log: (l) => console.log(l),
          });
        } finally {
          await instrumented.close();
          await bare.close();
        }
      },
      SCHEDULING_ENV,
    );
  if (flag('only-instrumentation')) {
    return overheadBench();
  }
  if (!flag('no-scheduling')) {
    const hosts = num('sched-hosts', smoke ? 300 : 10000);
    // Each plugin configuration on its own freshly seeded cloud, so both `schedule` loops start
    // from the same state; the second runs only the loops.
    const scenario = (label: string, env: Record<string, string>, loopsOnly: boolean) =>
      withApp(
        label,
        async (app, replica) => {
          const seeded = await seedDataset(app.dataSource, { hosts, shape: 'flat', sharing: 0 });
          await tagAggregates(app.dataSource, seeded.aggregates);
          await app.services.candidates.current();
          const limit = num('sched-limit', 50);
          return runSchedulingBench(app, gql, {
            hosts,
            iterations,
            clients: num('sched-clients', 32),
            claims: num('sched-claims', smoke ? 100 : 3000),
            limit: limit > 0 ? limit : undefined,
            raw: !loopsOnly && !flag('sched-no-raw'),
            replica,
            loopsOnly,
            tag: loopsOnly ? ` [${label}]` : '',
            log: (l) => console.log(l),
          });
        },
        {
          ...env,
          ...(flag('sched-reuse-ms')
            ? { BERTH_EVALUATION_REUSE_MS: String(num('sched-reuse-ms', 1000)) }
            : {}),
          ...(flag('sched-shared-cache')
            ? { BERTH_CANDIDATE_SHARED_CACHE: text('sched-shared-cache', 'gated') }
            : {}),
        },
      );
    if (instrument && !flag('no-overhead')) {
      await overheadBench();
    }
    const base = await scenario('scheduling', SCHEDULING_ENV, false);
    if (!flag('sched-no-full')) {
      const full = await scenario('scheduling, 15 filters + 6 weighers', SCHEDULING_FULL_ENV, true);
      compareRates(base, full, (l) => console.log(l));
    }
  }
  if (flag('only-scheduling')) {
    return;
  }

  await withApp('flat', async (app) => {
    const seeded = await seedDataset(app.dataSource, { hosts: flat, shape: 'flat', sharing: 2 });
    const t = performance.now();
    await app.services.candidates.current();
    console.log(
      `flat: ${flat} hosts seeded (${seeded.providers} providers); index load ${(performance.now() - t).toFixed(0)} ms`,
    );
    await timeQuery(app, `GraphQL ${flat} flat, full answer`, gqlRequest(), iterations, 45);
    await timeQuery(app, `GraphQL ${flat} flat, limit 10`, gqlRequest(10), iterations);
    await timeQuery(
      app,
      `GraphQL ${flat} flat, required AVX2`,
      gqlRequest(undefined, { required: ['HW_CPU_X86_AVX2'] }),
      iterations,
    );
    await timeQuery(
      app,
      `GraphQL ${flat} flat, member_of in:agg1,agg2`,
      gqlRequest(undefined, { memberOf: [`in:${seeded.aggregates[0]},${seeded.aggregates[1]}`] }),
      iterations,
    );
    await gate(app);

    // Scheduler loop: candidates limit 50 + claim, through `schedule`, C concurrent clients.
    const clients = num('clients', 16);
    const claims = num('claims', smoke ? 100 : 2000);
    let next = 0;
    let ok = 0;
    let failed = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (next < claims) {
          next++;
          const data = (await gql(app, SCHEDULE, {
            i: {
              consumerUuids: [randomUUID()],
              projectId: 'bench',
              userId: 'bench',
              consumerType: 'INSTANCE',
              request: gqlRequest(50),
            },
          })) as { schedule: { selections: { host: unknown }[] } };
          if (data.schedule.selections[0]!.host) {
            ok++;
          } else {
            failed++;
          }
        }
      }),
    );
    const secs = (performance.now() - started) / 1000;
    const over: { n: number }[] = await app.dataSource.query(
      `SELECT count(*) AS n FROM (SELECT i.resource_provider_id FROM inventories i
         JOIN allocations a ON a.resource_provider_id = i.resource_provider_id AND a.resource_class_id = i.resource_class_id
         GROUP BY i.resource_provider_id, i.resource_class_id, i.total, i.reserved, i.allocation_ratio
         HAVING sum(a.used) > (i.total - i.reserved) * i.allocation_ratio) x`,
    );
    console.log(
      `schedule loop, ${clients} clients, ${flat} flat hosts: ${(ok / secs).toFixed(0)} claims/s (${ok} ok, ${failed} no host) over ${secs.toFixed(1)} s; providers over capacity: ${over[0]!.n} (target ≥ 300 claims/s, 0 over)`,
    );
    const c = app.scheduling.cache.stats;
    console.log(`candidate cache: ${c.hits} hits / ${c.hits + c.misses} lookups`);
  });

  await explainBench();
  if (!flag('no-planning')) {
    await planningBench();
  }

  await withApp('nested', async (app) => {
    await seedDataset(app.dataSource, { hosts: nested, shape: 'nested', sharing: 2 });
    await timeQuery(app, `GraphQL ${nested} nested, limit 1000`, gqlRequest(1000), iterations, 25);
    await timeQuery(app, `GraphQL ${nested} nested, limit 10`, gqlRequest(10), iterations, 5);
    await timeRollups(app, iterations);
  });

  await withApp(
    'subscriptions',
    (app) =>
      runSubscriptionBench(
        app,
        { subscribers: smoke ? 20 : 200, rate: 100, claims: smoke ? 50 : 500 },
        (l) => console.log(l),
      ),
    { BERTH_MAX_SUBSCRIPTIONS: '1000' },
  );

  console.log('\nengine only (no GraphQL/DB), bench/engine.ts:');
  runEngineBench({
    iterations: smoke ? 3 : 30,
    warmup: 1,
    ...(smoke ? { only: ['flat-5k-full', 'pci8-1k-limit1000'] } : {}),
    log: (l) => console.log(l),
  });

  if (!flag('no-embedded-boot')) {
    await runEmbeddedBoot(log, smoke ? 1 : 3);
  }
  if (!flag('no-scaling')) {
    await scalingTable();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
