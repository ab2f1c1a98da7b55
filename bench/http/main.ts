// `npm run bench:http`: berth measured the way clients call it. Each dataset is bulk-seeded into
// a fresh database (DATABASE_URL's server, else an embedded data folder), `berth serve` is started
// as its own process on a real port, and keep-alive HTTP clients (undici) drive it over REST and
// GraphQL with an API token, as a scheduler or dashboard would.
// Usage: npm run bench:http -- [--smoke] [--workers 1,2] [--hosts 1000,5000] [--nested 10000]
//   [--sched-hosts 10000] [--claims 2000] [--iterations 50] [--big [--big-hosts 100000]]
import 'reflect-metadata';
import { createDataSource } from '../../src/db/data-source';
import { overCommitted, SCHEDULING_ENV, tagAggregates } from '../scheduling';
import { seedDataset } from '../seed';
import { runBig } from './big';
import { type BenchClient, tokenClient } from './client';
import {
  GQL_CANDIDATES,
  gqlCounts,
  gqlRequest,
  type Log,
  REST,
  REST_HEADERS,
  restClaimLoop,
  restCounts,
  restQueries,
  scheduleLoop,
  throughput,
  timeSequential,
} from './scenarios';
import { type BenchDatabase, prepareDatabase, type ServeProcess, startServe } from './server';

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const text = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? String(args[i + 1]) : dflt;
};
const list = (name: string, dflt: string) =>
  text(name, dflt)
    .split(',')
    .filter((s) => s !== '')
    .map(Number);
const smoke = flag('smoke');
const log: Log = (l) => console.log(l);

/** Server settings for the read scenarios: GraphQL answers as large as the REST ones. */
const LARGE_ANSWERS = { BERTH_GRAPHQL_MAX_RESULT_ITEMS: '1000000' };
const ITER = Number(text('iterations', smoke ? '5' : '50'));
const WORKERS = list('workers', '1');

async function withServe(
  db: BenchDatabase,
  workers: number,
  env: Record<string, string>,
  fn: (server: ServeProcess, client: BenchClient) => Promise<void>,
): Promise<void> {
  const server = await startServe(db, { workers, env });
  const client = tokenClient(server.url, db.tokens.admin);
  try {
    log(
      ` berth serve --workers ${workers}: ready in ${server.readyMs.toFixed(0)} ms, rss ${server.rssMiB().join('+')} MiB`,
    );
    await fn(server, client);
  } finally {
    await client.close();
    await server.stop();
  }
}

async function overCommitOf(db: BenchDatabase): Promise<number> {
  if (!db.url) {
    return -1;
  }
  const ds = createDataSource({ url: db.url, poolSize: 1 });
  await ds.initialize();
  try {
    return await overCommitted(ds);
  } finally {
    await ds.destroy();
  }
}

async function flatReads(hosts: number, claims: number): Promise<void> {
  let aggs: string[] = [];
  const db = await prepareDatabase(`berth_http_flat_${hosts}`, async (ds) => {
    aggs = (await seedDataset(ds, { hosts, shape: 'flat', sharing: 2 })).aggregates;
  });
  log(`\n${hosts} flat hosts (+2 sharing providers)`);
  try {
    for (const workers of WORKERS) {
      // A full GraphQL answer for 5,000 hosts holds ~66,000 list items: over the default budget
      // (BERTH_GRAPHQL_MAX_RESULT_ITEMS 50,000), which would refuse it.
      await withServe(db, workers, LARGE_ANSWERS, async (server, client) => {
        for (const [name, q] of restQueries(aggs)) {
          await timeSequential(
            `REST ${name}`,
            server,
            ITER,
            () => client.send('GET', `${REST}/allocation_candidates?${q}`, undefined, REST_HEADERS),
            log,
            restCounts,
          );
        }
        for (const [name, limit] of [
          ['full answer', undefined],
          ['limit 10', 10],
        ] as const) {
          await timeSequential(
            `GraphQL ${name}`,
            server,
            ITER,
            () => client.graphql(GQL_CANDIDATES, { r: gqlRequest(limit) }),
            log,
            gqlCounts,
          );
        }
        // The answers above are asked for again and again on unchanged data, so after the first
        // one they are the kept answer of the index revision (src/app/candidate-answers.ts). These
        // two ask for a different disk size each call (64 in turn, more than are kept): every
        // answer is computed and written.
        let n = 0;
        await timeSequential(
          'REST full answer, computed each call',
          server,
          ITER,
          () =>
            client.send(
              'GET',
              `${REST}/allocation_candidates?${restQueries(aggs, undefined, 20 + (n++ % 64))[0]![1]}`,
              undefined,
              REST_HEADERS,
            ),
          log,
          restCounts,
        );
        await timeSequential(
          'GraphQL full answer, computed each call',
          server,
          ITER,
          () => client.graphql(GQL_CANDIDATES, { r: gqlRequest(undefined, {}, 20 + (n++ % 64)) }),
          log,
          gqlCounts,
        );
        const plain = `${REST}/allocation_candidates?${restQueries(aggs)[0]![1]}`;
        await throughput(
          'REST plain, 8 concurrent clients',
          server,
          8,
          ITER * 4,
          () => client.send('GET', plain, undefined, REST_HEADERS),
          log,
        );
        if (claims > 0) {
          await restClaimLoop(client, server, { clients: 16, claims, limit: 50 }, log);
        }
      });
    }
    const over = await overCommitOf(db);
    log(`  providers over capacity after the claim loops: ${over < 0 ? 'n/a (embedded)' : over}`);
  } finally {
    await db.drop();
  }
}

async function nestedReads(hosts: number): Promise<void> {
  const db = await prepareDatabase(`berth_http_nested_${hosts}`, async (ds) => {
    await seedDataset(ds, { hosts, shape: 'nested', sharing: 2 });
  });
  log(`\n${hosts} nested hosts (root + 2 NUMA children each)`);
  try {
    for (const workers of WORKERS) {
      await withServe(db, workers, LARGE_ANSWERS, async (server, client) => {
        for (const limit of [1000, 10]) {
          await timeSequential(
            `REST plain limit=${limit}`,
            server,
            ITER,
            () =>
              client.send(
                'GET',
                `${REST}/allocation_candidates?resources=VCPU:2,MEMORY_MB:4096,DISK_GB:20&limit=${limit}`,
                undefined,
                REST_HEADERS,
              ),
            log,
            restCounts,
          );
          await timeSequential(
            `GraphQL limit ${limit}`,
            server,
            ITER,
            () => client.graphql(GQL_CANDIDATES, { r: gqlRequest(limit) }),
            log,
            gqlCounts,
          );
        }
      });
    }
  } finally {
    await db.drop();
  }
}

async function schedulingLoops(hosts: number, claims: number): Promise<void> {
  const db = await prepareDatabase(`berth_http_sched_${hosts}`, async (ds) => {
    const seeded = await seedDataset(ds, { hosts, shape: 'flat', sharing: 0 });
    await tagAggregates(ds, seeded.aggregates);
  });
  log(`\n${hosts} flat hosts, claim loops (scheduler: 5 filters + 3 weighers)`);
  try {
    for (const workers of WORKERS) {
      await withServe(db, workers, SCHEDULING_ENV, async (server, client) => {
        await scheduleLoop(
          client,
          server,
          {
            clients: 32,
            claims,
            limit: 50,
            extraSpecs: [{ key: 'aggregate_instance_extra_specs:tier', value: '<in> gold' }],
          },
          log,
        );
        await restClaimLoop(client, server, { clients: 16, claims, limit: 50 }, log);
      });
    }
    const over = await overCommitOf(db);
    log(`  providers over capacity after the claim loops: ${over < 0 ? 'n/a (embedded)' : over}`);
  } finally {
    await db.drop();
  }
}

async function main(): Promise<void> {
  log(
    `berth HTTP bench (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}, ${process.env.REDIS_URL ? 'Redis' : 'in-process cache'}); \`berth serve\` in its own process, undici keep-alive clients, ${ITER} iterations per line`,
  );
  const claims = Number(text('claims', smoke ? '100' : '2000'));
  for (const hosts of list('hosts', smoke ? '200' : '1000,5000')) {
    await flatReads(hosts, hosts === 1000 || smoke ? claims : 0);
  }
  for (const hosts of list('nested', smoke ? '200' : '10000')) {
    await nestedReads(hosts);
  }
  for (const hosts of list('sched-hosts', smoke ? '300' : '10000')) {
    await schedulingLoops(hosts, Number(text('sched-claims', smoke ? '100' : '3000')));
  }
  if (flag('big')) {
    await runBig(Number(text('big-hosts', '100000')), WORKERS.at(-1) ?? 1, ITER, log);
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
