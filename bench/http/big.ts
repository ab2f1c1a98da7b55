// `--big`: 100,000 flat hosts end to end. Two `berth serve` processes (replicas) on one
// PostgreSQL: time to ready, RSS, REST `limit=1000`, `schedule` throughput, and how long a
// provider write through one replica takes to show in the next candidates answer of the other.
// The same figures for several sizes, as a table: `npm run bench -- --scaling` (bench/scaling.ts).
import { createDataSource } from '../../src/db/data-source';
import { measureVisibility } from '../scaling/visibility';
import { overCommitted, SCHEDULING_ENV, tagAggregates } from '../scheduling';
import { seedDataset } from '../seed';
import { fmt, tokenClient } from './client';
import {
  GQL_CANDIDATES,
  gqlCounts,
  gqlRequest,
  type Log,
  REST,
  REST_HEADERS,
  restCounts,
  scheduleLoop,
  timeSequential,
} from './scenarios';
import { prepareDatabase, startServe } from './server';

/** Runs the 100,000-host scenario with `workers` per replica. */
export async function runBig(hosts: number, workers: number, iterations: number, log: Log) {
  const t0 = performance.now();
  const db = await prepareDatabase(`berth_http_big_${hosts}`, async (ds) => {
    const seeded = await seedDataset(ds, { hosts, shape: 'flat', sharing: 0 });
    await tagAggregates(ds, seeded.aggregates);
  });
  log(
    `\n${hosts} flat hosts end to end (seeded in bulk in ${((performance.now() - t0) / 1000).toFixed(1)} s), two replicas with --workers ${workers}`,
  );
  const a = await startServe(db, { workers, env: SCHEDULING_ENV });
  const b = await startServe(db, { workers, env: SCHEDULING_ENV });
  const ca = tokenClient(a.url, db.tokens.admin);
  const cb = tokenClient(b.url, db.tokens.admin);
  try {
    for (const [name, s] of [
      ['A', a],
      ['B', b],
    ] as const) {
      const t = performance.now();
      const first = await (name === 'A' ? ca : cb).send(
        'GET',
        `${REST}/allocation_candidates?resources=VCPU:2&limit=1`,
        undefined,
        REST_HEADERS,
      );
      log(
        `  replica ${name}: banner after ${fmt(s.readyMs / 1000)} s, first answer ${first.status} after ${fmt((performance.now() - t) / 1000)} s more (ready = ${fmt((s.readyMs + performance.now() - t) / 1000)} s); rss ${s.rssMiB().join('+')} MiB`,
      );
    }
    await timeSequential(
      'REST plain limit=1000',
      a,
      iterations,
      () =>
        ca.send(
          'GET',
          `${REST}/allocation_candidates?resources=VCPU:2,MEMORY_MB:4096,DISK_GB:20&limit=1000`,
          undefined,
          REST_HEADERS,
        ),
      log,
      restCounts,
    );
    await timeSequential(
      'GraphQL limit 1000',
      a,
      iterations,
      () => ca.graphql(GQL_CANDIDATES, { r: gqlRequest(1000) }),
      log,
      gqlCounts,
    );
    await scheduleLoop(
      ca,
      a,
      {
        clients: 32,
        claims: 3000,
        limit: 50,
        extraSpecs: [{ key: 'aggregate_instance_extra_specs:tier', value: '<in> gold' }],
      },
      log,
    );
    if (db.url) {
      await measureVisibility(ca, cb, db.url, log);
    } else {
      log('  cross-replica visibility: n/a (embedded database, one replica)');
    }
    log(`  rss after the run: A ${a.rssMiB().join('+')} MiB, B ${b.rssMiB().join('+')} MiB`);
    if (db.url) {
      const ds = createDataSource({ url: db.url, poolSize: 1 });
      await ds.initialize();
      log(`  providers over capacity: ${await overCommitted(ds)}`);
      await ds.destroy();
    }
  } finally {
    await ca.close();
    await cb.close();
    await a.stop();
    await b.stop();
    await db.drop();
  }
}
