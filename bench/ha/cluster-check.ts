// Self-check of bench/ha/cluster.ts and the deploy/ha files it runs: `node dist/bench/ha/cluster-check.js`
// (after `npm run build`; root, Patroni, etcd and HAProxy installed). Starts the cluster
// (synchronous_mode on), writes through HAProxy, then for each fault measures fault -> first
// commit acknowledged through HAProxy: SIGKILL of the primary's postmaster, SIGSTOP of the
// primary (a hung host; SIGCONT afterwards), SIGKILL of the primary's Patroni and PostgreSQL
// (started again afterwards). Then commit latency of a single-row insert from 8 clients through
// HAProxy with synchronous_mode on and off, directly on the primary, and on a standalone
// PostgreSQL 15 without replicas (same binaries and defaults). Everything under
// /tmp/patroni-check (HA_CHECK_DIR; the processes' logs stay in its logs/), ports 15400-15460
// (HA_CHECK_PORT).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { type HaCluster, haUnavailable, startHaCluster } from './cluster';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dir = process.env.HA_CHECK_DIR ?? '/tmp/patroni-check';
const basePort = Number(process.env.HA_CHECK_PORT ?? 15400);
const log = (m: string) => console.log(`${new Date().toISOString().slice(11, 23)} ${m}`);

/** The probe rows whose insert was acknowledged: each must survive every failover. */
const acknowledged: string[] = [];
let probeSeq = 0;

/** One insert on a fresh connection, bounded so that a hung server counts as a failure. */
async function insertOnce(url: string, label: string): Promise<void> {
  const what = `${label} #${++probeSeq}`;
  const c = new Client({
    connectionString: url,
    connectionTimeoutMillis: 1000,
    query_timeout: 2000,
  });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('INSERT INTO probe (what) VALUES ($1)', [what]);
    acknowledged.push(what);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Runs `fault`, then starts an insert through HAProxy every 100 ms (each on its own connection,
 * bounded) until one commits; returns the seconds from the fault to that commit.
 */
async function failover(url: string, name: string, fault: () => Promise<void>) {
  await insertOnce(url, `before ${name}`);
  const t0 = Date.now();
  await fault();
  const errors = new Map<string, number>();
  let done: number | undefined;
  const pending: Promise<void>[] = [];
  while (done === undefined) {
    if (Date.now() - t0 > 90_000) {
      throw new Error(`${name}: no commit within 90 s (${[...errors.keys()].join('; ')})`);
    }
    pending.push(
      insertOnce(url, name).then(
        () => {
          done ??= Date.now();
        },
        (e: { code?: string; message: string }) => {
          const key = e.code ?? e.message.slice(0, 60);
          errors.set(key, (errors.get(key) ?? 0) + 1);
        },
      ),
    );
    await sleep(100);
  }
  await Promise.all(pending);
  const s = (done - t0) / 1000;
  log(
    `${name}: first commit ${s.toFixed(2)} s after the fault; failed attempts ${JSON.stringify(Object.fromEntries(errors))}`,
  );
  return s;
}

/** p50/p95/mean (ms) of `total` single-row insert commits from `clients` connections. */
async function latency(url: string, label: string, clients = 8, total = 4000) {
  const conns = await Promise.all(
    Array.from({ length: clients }, async () => {
      const c = new Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  const times: number[] = [];
  let left = total;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    conns.map(async (c) => {
      while (left-- > 0) {
        const t = process.hrtime.bigint();
        await c.query('INSERT INTO probe (what) VALUES ($1)', [label]);
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  await Promise.all(conns.map((c) => c.end()));
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  const row = {
    label,
    p50: q(0.5).toFixed(2),
    p95: q(0.95).toFixed(2),
    mean: (times.reduce((a, b) => a + b, 0) / times.length).toFixed(2),
    commitsPerS: Math.round(times.length / wall),
  };
  log(
    `latency ${label}: p50 ${row.p50} ms, p95 ${row.p95} ms, mean ${row.mean} ms, ${row.commitsPerS} commits/s`,
  );
  return row;
}

const CREATE =
  'CREATE TABLE IF NOT EXISTS probe (id bigserial PRIMARY KEY, what text, at timestamptz DEFAULT now())';

async function query(url: string, sql: string) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

/** A standalone PostgreSQL 15 (initdb defaults, no replicas) under `root`, for comparison. */
async function plainLatency(root: string, port: number) {
  const bin = '/usr/lib/postgresql/15/bin';
  const data = path.join(root, 'data');
  fs.mkdirSync(root, { recursive: true });
  fs.chmodSync(root, 0o755);
  spawnSync('chown', ['postgres:postgres', root]);
  const pg = (args: string[]) => {
    const r = spawnSync('runuser', ['-u', 'postgres', '--', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    if (r.status !== 0) {
      throw new Error(`${args.join(' ')}: ${r.stderr}`);
    }
  };
  pg([`${bin}/initdb`, '-D', data, '-U', 'postgres', '--auth=trust', '--data-checksums']);
  pg([
    `${bin}/pg_ctl`,
    '-D',
    data,
    '-l',
    path.join(root, 'log'),
    '-w',
    '-o',
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1`,
    'start',
  ]);
  try {
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await query(url, CREATE);
    return await latency(url, 'standalone PostgreSQL 15 (no replicas)');
  } finally {
    pg([`${bin}/pg_ctl`, '-D', data, '-m', 'fast', 'stop']);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

async function main() {
  const why = haUnavailable();
  if (why) {
    console.log(`skipped: ${why}`);
    return;
  }
  const t0 = Date.now();
  const logDir = path.join(dir, 'logs');
  fs.rmSync(logDir, { recursive: true, force: true });
  const c: HaCluster = await startHaCluster({
    logDir,
    baseDir: path.join(dir, 'cluster'),
    basePort,
    synchronous: true,
    log,
  });
  const setup = (Date.now() - t0) / 1000;
  const results: Record<string, unknown> = { setupSeconds: setup };
  try {
    await c.createDatabase('hacheck');
    const url = c.url('hacheck');
    await query(url, CREATE);

    const p1 = await c.primary();
    if (!p1) throw new Error('no primary');
    results.postmasterKill = await failover(url, `SIGKILL postmaster of ${p1}`, () =>
      c.kill(p1, 'postmaster'),
    );
    await c.waitHealthy();

    const p2 = (await c.primary()) ?? '';
    results.primaryStopped = await failover(url, `SIGSTOP ${p2}`, () => c.stop(p2));
    await c.cont(p2);
    await c.waitHealthy();

    const p3 = (await c.primary()) ?? '';
    results.memberKill = await failover(url, `SIGKILL Patroni+PostgreSQL of ${p3}`, () =>
      c.kill(p3, 'member'),
    );
    await c.restart(p3);
    await c.waitHealthy();
    const rows = await query(url, 'SELECT what FROM probe');
    const present = new Set(rows.map((r) => r.what as string));
    const lost = acknowledged.filter((w) => !present.has(w));
    results.lostAcknowledgedProbes = lost;
    log(
      `probe inserts acknowledged: ${acknowledged.length}, lost after the faults: ${lost.length} ${lost.join(', ')}`,
    );

    const leader = (await c.primary()) ?? '';
    const lat = [await latency(url, 'HAProxy, synchronous_mode on')];
    await c.setSynchronous(false);
    lat.push(await latency(url, 'HAProxy, synchronous_mode off'));
    lat.push(
      await latency(c.directUrl(leader, 'hacheck'), `directly on ${leader}, synchronous_mode off`),
    );
    await c.setSynchronous(true);
    lat.push(await plainLatency(path.join(dir, 'plain'), basePort + 50));
    results.latency = lat;
  } finally {
    const t1 = Date.now();
    await c.close();
    results.closeSeconds = (Date.now() - t1) / 1000;
  }
  results.totalSeconds = (Date.now() - t0) / 1000;
  console.log(JSON.stringify(results, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
