// `--big`: 100,000 flat hosts end to end. Two `berth serve` processes (replicas) on one
// PostgreSQL: time to ready, RSS, REST `limit=1000`, `schedule` throughput, and how long a
// provider write through one replica takes to show in the next candidates answer of the other.
import { createDataSource } from '../../src/db/data-source';
import { overCommitted, SCHEDULING_ENV, tagAggregates } from '../scheduling';
import { seedDataset } from '../seed';
import { type BenchClient, fmt, pct, tokenClient } from './client';
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
    await visibility(ca, cb, db.url, log);
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

/**
 * 50 times: tag one more provider with CUSTOM_VISIBLE through replica A, then ask replica B for
 * candidates requiring that trait until the provider is in the answer. Prints p50/p95/max of the
 * delay from A's answer to B's first answer that shows it.
 */
async function visibility(ca: BenchClient, cb: BenchClient, url: string | undefined, log: Log) {
  if (!url) {
    log('  cross-replica visibility: n/a (embedded database, one replica)');
    return;
  }
  await ca.send('PUT', `${REST}/traits/CUSTOM_VISIBLE`, undefined, REST_HEADERS);
  const ds = createDataSource({ url, poolSize: 1 });
  await ds.initialize();
  const rows: { uuid: string }[] = await ds.query(
    'SELECT uuid FROM resource_providers WHERE parent_provider_id IS NULL ORDER BY id LIMIT 50',
  );
  await ds.destroy();
  const delays: number[] = [];
  for (const { uuid } of rows) {
    const path = `${REST}/resource_providers/${uuid}/traits`;
    const cur = JSON.parse((await ca.send('GET', path, undefined, REST_HEADERS)).body) as {
      traits: string[];
      resource_provider_generation: number;
    };
    const put = await ca.send(
      'PUT',
      path,
      {
        traits: [...cur.traits, 'CUSTOM_VISIBLE'],
        resource_provider_generation: cur.resource_provider_generation,
      },
      REST_HEADERS,
    );
    if (put.status !== 200) {
      throw new Error(`trait PUT ${put.status}: ${put.body}`);
    }
    const written = performance.now();
    for (;;) {
      const r = await cb.send(
        'GET',
        `${REST}/allocation_candidates?resources=VCPU:1&required=CUSTOM_VISIBLE`,
        undefined,
        REST_HEADERS,
      );
      if (r.body.includes(uuid)) {
        delays.push(performance.now() - written);
        break;
      }
      if (performance.now() - written > 10_000) {
        throw new Error(`provider ${uuid} not visible on replica B after 10 s`);
      }
    }
  }
  log(
    `  write on A visible to B's next candidates answer: p50 ${fmt(pct(delays, 50))} ms  p95 ${fmt(pct(delays, 95))}  max ${fmt(Math.max(...delays))}  (${delays.length} writes)`,
  );
}
