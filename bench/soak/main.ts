// `npm run soak`: 3 berth replicas on one PostgreSQL + one Redis, 64 concurrent claimers doing
// ≥10,000 claims/resizes/releases through GraphQL and REST, optional faults (PostgreSQL restart,
// Redis crash, SIGTERM of a replica, failing plugins), then invariants checked from the database
// and a summary table (stdout + dist/soak-report.json). Loopback only; bounded in time/requests.
import 'reflect-metadata';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { TokenStore } from '../../src/auth/token-store';
import { DEFAULT_FILTERS } from '../../src/config/config';
import { parseArgsOrThrow, type SoakOptions, USAGE } from './args';
import { runClaimers } from './claimers';
import { ReplicaClient } from './client';
import { withSeededDatabase } from './dataset';
import {
  type Fault,
  type FaultContext,
  type FaultResult,
  pgRestart,
  redisHang,
  redisKill,
  sigterm,
} from './faults';
import {
  ensurePgCluster,
  type OwnRedis,
  type PgCluster,
  recreateDatabase,
  startOwnRedis,
} from './infra';
import { checkInvariants } from './invariants';
import { Ledger } from './ledger';
import { freePort, type Replica, spawnReplica, stopReplica, waitReady } from './replicas';
import { buildReport, printReport, writeReport } from './report';
import { Router, type Target } from './router';
import { Stats } from './stats';

const DB = 'berth_soak';
const RECOVERY_TARGET_MS = 5000;
const log = (m: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${m}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function database(o: SoakOptions): Promise<{ url: string; cluster?: PgCluster }> {
  const c = await ensurePgCluster('soak', o.pgPort, log);
  if ('unavailable' in c) {
    const base = process.env.DATABASE_URL;
    if (!base) {
      throw new Error(`needs PostgreSQL: ${c.unavailable}, and DATABASE_URL is not set`);
    }
    log(`no dedicated cluster (${c.unavailable}); using DATABASE_URL's server, pg-restart skipped`);
    const admin = new URL(base);
    admin.pathname = '/postgres';
    await recreateDatabase(admin.toString(), DB);
    admin.pathname = `/${DB}`;
    return { url: admin.toString() };
  }
  await recreateDatabase(c.url('postgres'), DB);
  return { url: c.url(DB), cluster: c };
}

/** Reader tokens no replica has seen: the PostgreSQL-restart fault probes with them. */
const UNCACHED_TOKENS = 300;

function seed(url: string, hosts: number): Promise<{ hosts: string[]; fresh: string[] }> {
  return withSeededDatabase(url, hosts, async (ds, seeded) => {
    // The replicas run with auth on (the default whenever DATABASE_URL is set): every claimer
    // uses one scheduler-role token, as a Nova scheduler would, unless SOAK_TOKEN is given.
    if (!process.env.SOAK_TOKEN) {
      const { token } = await new TokenStore(ds).create({ role: 'scheduler', name: 'soak' });
      process.env.SOAK_TOKEN = token;
    }
    const store = new TokenStore(ds);
    const fresh: string[] = [];
    for (let i = 0; i < UNCACHED_TOKENS; i++) {
      fresh.push((await store.create({ role: 'reader', name: `soak-probe-${i}` })).token);
    }
    return { hosts: seeded, fresh };
  });
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  const o = parseArgsOrThrow(argv);
  log(
    `mode ${o.mode}: ${o.claims} claims, ${o.clients} clients, ${o.replicas} replicas, faults: ${o.faults.join(', ') || 'none'}`,
  );
  const { url, cluster } = await database(o);
  let redis: OwnRedis | undefined;
  try {
    redis = await startOwnRedis(o.redisPort);
  } catch (err) {
    log(`own Redis not started: ${(err as Error).message}`);
  }
  const redisUrl = redis?.url ?? process.env.REDIS_URL;
  const { hosts, fresh } = await seed(url, o.hosts);
  log(`seeded ${hosts.length} hosts in ${url}; Redis ${redisUrl ?? 'none (in-process cache)'}`);

  const logDir = resolve('dist/soak-logs');
  rmSync(logDir, { recursive: true, force: true });
  const replicaEnv: Record<string, string> = {
    DATABASE_URL: url,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...(o.faults.includes('plugin')
      ? {
          BERTH_PLUGIN_DIRS: resolve(__dirname, 'fault-plugins'),
          BERTH_SCHEDULER_FILTERS: [
            ...DEFAULT_FILTERS,
            'SoakThrowingFilter',
            'SoakHangingFilter',
          ].join(','),
        }
      : {}),
  };
  const replicas: Replica[] = [];
  for (let i = 0; i < o.replicas; i++) {
    replicas.push(spawnReplica(`replica-${i + 1}`, await freePort(), replicaEnv, logDir));
  }
  const targets: Target[] = replicas.map((r) => ({
    name: r.name,
    client: new ReplicaClient(r.url),
    downUntil: 0,
    sigtermAt: 0,
  }));
  try {
    for (const t of targets) {
      const ms = await waitReady(t.client, 60000);
      log(`${t.name} ready at ${t.client.url} (${ms} ms)`);
    }
    const stats = new Stats();
    const ledger = new Ledger();
    const router = new Router(targets);
    const ctx: FaultContext = {
      stats,
      targets,
      replicas,
      cluster,
      redis,
      replicaEnv,
      logDir,
      log,
      uncachedTokens: fresh,
    };
    const results: FaultResult[] = [];
    let faultsDone = false;
    const runFaults = async () => {
      const at = async (frac: number) => {
        while (stats.claimAttempts < frac * o.claims && Date.now() < deadline) {
          await sleep(50);
        }
      };
      const plan: [Fault, number, () => Promise<FaultResult>][] = [
        ['redis-kill', 0.15, () => redisKill(ctx, o.mode === 'short' ? 3000 : 15000)],
        ['redis-hang', 0.3, () => redisHang(ctx, o.mode === 'short' ? 3000 : 15000)],
        ['pg-restart', 0.45, () => pgRestart(ctx)],
        ['sigterm', 0.7, () => sigterm(ctx)],
      ];
      for (const [fault, frac, inject] of plan) {
        if (o.faults.includes(fault)) {
          await at(frac);
          results.push(
            Date.now() < deadline
              ? await inject()
              : { fault, injected: false, skipped: 'deadline reached first', figures: {} },
          );
        }
      }
      faultsDone = true;
    };
    const deadline = Date.now() + o.maxSeconds * 1000;
    stats.startedAt = Date.now();
    const [leftovers] = await Promise.all([
      runClaimers(
        { ledger, stats, router, hosts, project: 'soak' },
        {
          clients: o.clients,
          claims: o.claims,
          deadline,
          maxHold: o.maxHold,
          done: () => faultsDone,
        },
      ),
      runFaults(),
    ]);
    stats.endedAt = Date.now();
    if (o.faults.includes('plugin')) {
      results.push({
        fault: 'plugin',
        injected: true,
        figures: {
          isolatedFailures: stats.pluginFailures,
          plugins: 'SoakThrowingFilter,SoakHangingFilter',
        },
      });
    }
    log(
      `claimers done: ${stats.claimAttempts} claims attempted, ${leftovers.length} consumers held at the end`,
    );
    for (const s of stats.samples) {
      log(`  unclean: ${s}`);
    }
    const inv = await checkInvariants(url, ledger);
    for (const e of inv.examples) {
      log(`  invariant: ${e}`);
    }
    const report = buildReport(
      { mode: o.mode, replicas: o.replicas, clients: o.clients, hosts: hosts.length },
      stats,
      inv,
      router.shutdown,
      results,
      RECOVERY_TARGET_MS,
    );
    printReport(report, (l) => console.log(l));
    writeReport(report, resolve(o.report));
    log(`report written to ${o.report}; replica logs in ${logDir}`);
    return report.passed ? 0 : 1;
  } finally {
    await Promise.all(replicas.map((r) => stopReplica(r)));
    for (const t of targets) {
      t.client.close();
    }
    await redis?.kill();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
