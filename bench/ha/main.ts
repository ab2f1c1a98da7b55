// `npm run test:ha`: berth on a Patroni-managed PostgreSQL cluster (three members, etcd, HAProxy:
// deploy/ha/) and Redis Sentinel, its three replicas running as containers of the image built from
// deploy/Containerfile, under the soak's claimers. Phases:
//   single             the same replicas on one plain PostgreSQL (the latency to compare with:
//                      one claimer, then loaded with all of them)
//   sync               the cluster with synchronous replication, no fault (the same two)
//   postgres-crash     SIGKILL of the primary's postmaster (Patroni hands over at once)
//   primary-kill       SIGKILL of the primary member (Patroni and PostgreSQL)
//   primary-hang       SIGSTOP of the new primary member, SIGCONT after Patroni replaced it
//   connections-cut    pg_terminate_backend of every berth connection on the primary
//   redis-failover     SIGKILL of the Redis master (Sentinel promotes its replica)
//   async              synchronous_mode off, no fault (the same two)
//   async postgres-crash twice, then async primary-kill: the acknowledged writes a failover loses
// After each phase the ledger of every answer is checked against the database: with synchronous
// replication no acknowledged write may be lost; nowhere may anything be over-committed; every
// replica keeps running. Prints the figures; writes dist/ha-report.json.
import 'reflect-metadata';
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { recreateDatabase } from '../soak/infra';
import { Ledger } from '../soak/ledger';
import { Router } from '../soak/router';
import { type HaCluster, haUnavailable, startHaCluster } from './cluster';
import { connectionsCut, primaryCrash, primaryHang, primaryKill, redisFailover } from './faults';
import { buildImage, podmanUnavailable } from './image';
import { type PhaseContext, type PhaseResult, runPhase } from './phases';
import { type SentinelSet, sentinelUnavailable, startSentinelSet } from './redis-sentinel';
import { type HaReplica, type ReplicaKind, startReplicas, targetsOf } from './replicas';
import { type HaReport, printReport, type ReportedPhase, verdict, writeReport } from './report';
import { seedHa } from './seed';

const USAGE = `usage: npm run test:ha -- [--processes] [--hosts N] [--clients N] [--report F]
  --processes  run the three replicas as processes instead of containers of the built image`;
const BASE = '/tmp/berth-ha';
/** One claimer in the latency phases: a claim's latency is then its path, not a queue. */
const LATENCY_CLIENTS = 1;
const DB = 'berth_ha';
const log = (m: string) => console.log(`[ha ${new Date().toISOString().slice(11, 19)}] ${m}`);

interface Options {
  readonly processes: boolean;
  readonly hosts: number;
  readonly clients: number;
  readonly report: string;
}

function parse(argv: readonly string[]): Options {
  const value = (f: string, d: string) => {
    const i = argv.indexOf(`--${f}`);
    return i >= 0 && argv[i + 1] ? argv[i + 1]! : d;
  };
  for (const a of argv) {
    if (a.startsWith('--') && !['--processes', '--hosts', '--clients', '--report'].includes(a)) {
      throw new Error(`unknown option ${a}\n${USAGE}`);
    }
  }
  return {
    processes: argv.includes('--processes'),
    hosts: Number(value('hosts', '300')),
    clients: Number(value('clients', '24')),
    report: value('report', 'dist/ha-report.json'),
  };
}

/** The plain PostgreSQL the `single` phase runs on: DATABASE_URL's server, or 127.0.0.1:5432. */
function singleServer(db: string): { admin: string; url: string } {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = '/postgres';
  const admin = base.toString();
  base.pathname = `/${db}`;
  return { admin, url: base.toString() };
}

/** Runs the claimers on fresh replicas over `dbUrl` through `phases`; stops the replicas. */
async function withReplicas(
  kind: ReplicaKind,
  o: Options,
  env: Record<string, string>,
  prefix: string,
  dbUrl: string,
  hosts: readonly string[],
  phases: (ctx: PhaseContext) => Promise<void>,
): Promise<void> {
  const logDir = resolve('dist/ha-logs');
  mkdirSync(logDir, { recursive: true });
  let replicas: HaReplica[] = [];
  try {
    replicas = await startReplicas(kind, 3, env, { prefix, logDir, log });
    const targets = targetsOf(replicas);
    const ctx: PhaseContext = {
      ledger: new Ledger(),
      router: new Router(targets),
      targets,
      replicas,
      hosts,
      clients: o.clients,
      maxHold: 8,
      dbUrl,
      log,
    };
    try {
      await phases(ctx);
    } finally {
      for (const t of targets) {
        t.client.close();
      }
    }
  } finally {
    await Promise.all(replicas.map((r) => r.stop().catch(() => undefined)));
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  const o = parse(argv);
  const missing = [
    haUnavailable(),
    sentinelUnavailable(),
    o.processes ? undefined : podmanUnavailable(),
  ].filter((m): m is string => m !== undefined);
  if (missing.length > 0) {
    console.error(`the HA test cannot run here: ${missing.join('; ')}`);
    return 2;
  }
  const setup: Record<string, number | string> = {};
  const t0 = Date.now();
  let kind: ReplicaKind = { processes: true };
  if (!o.processes) {
    const image = await buildImage({ repoRoot: resolve('.'), log });
    kind = { image: image.tag };
    setup.image = image.tag;
    setup.imageBaseSeconds = image.baseSeconds;
    setup.imageBuildSeconds = image.buildSeconds;
    setup.imageSizeMb = image.sizeMb;
  }
  rmSync(BASE, { recursive: true, force: true });
  mkdirSync(BASE, { recursive: true });
  const phases: ReportedPhase[] = [];
  let lostSoFar = 0;
  const record = (mode: ReportedPhase['mode'], p: PhaseResult) => {
    const lost =
      p.invariants.lostClaims + p.invariants.phantomAllocations + p.invariants.auditMissing;
    phases.push({ ...p, mode, lostThisPhase: lost - lostSoFar });
    lostSoFar = lost;
    log(
      `${p.name}: ${p.claimsAcked} claims acknowledged, lost ${lost}, over-committed ${p.invariants.overCapacity}`,
    );
  };
  /** The latency phase (one claimer) and the loaded phase (all claimers), no fault. */
  const baseline = async (ctx: PhaseContext, mode: ReportedPhase['mode']) => {
    record(mode, await runPhase(ctx, { name: mode, seconds: 10, clients: LATENCY_CLIENTS }));
    record(mode, await runPhase(ctx, { name: `${mode} loaded`, seconds: 8 }));
  };

  let sentinels: SentinelSet | undefined;
  let cluster: HaCluster | undefined;
  try {
    sentinels = await startSentinelSet({ baseDir: `${BASE}/redis`, basePort: 26500, log });
    // Each database its own Redis database: cached answers never cross from one to the other.
    const redisUrl = sentinels.url(1);

    // 1. One plain PostgreSQL: the latency the cluster is compared with.
    const single = singleServer(`${DB}_single`);
    await recreateDatabase(single.admin, `${DB}_single`);
    const singleHosts = await seedHa(single.url, o.hosts);
    await withReplicas(
      kind,
      o,
      { DATABASE_URL: single.url, REDIS_URL: sentinels.url(2) },
      'berth-ha-single',
      single.url,
      singleHosts,
      async (ctx) => {
        await baseline(ctx, 'single');
      },
    );
    lostSoFar = 0;

    // 2. The Patroni cluster, synchronous replication.
    const c0 = Date.now();
    cluster = await startHaCluster({
      basePort: 15500,
      baseDir: `${BASE}/pg`,
      synchronous: true,
      log,
      logDir: resolve('dist/ha-logs/cluster'),
    });
    await cluster.waitHealthy(120000);
    setup.clusterReadySeconds = Math.round((Date.now() - c0) / 100) / 10;
    const ha = cluster;
    await ha.createDatabase(DB);
    const url = ha.url(DB);
    const hosts = await seedHa(url, o.hosts);
    await withReplicas(
      kind,
      o,
      { DATABASE_URL: url, REDIS_URL: redisUrl },
      'berth-ha',
      url,
      hosts,
      async (ctx) => {
        await baseline(ctx, 'sync');
        record(
          'sync',
          await runPhase(ctx, {
            name: 'postgres-crash',
            seconds: 0,
            fault: primaryCrash(ha),
            commitProbe: true,
          }),
        );
        record(
          'sync',
          await runPhase(ctx, {
            name: 'primary-kill',
            seconds: 0,
            fault: primaryKill(ha),
            commitProbe: true,
          }),
        );
        record(
          'sync',
          await runPhase(ctx, {
            name: 'primary-hang',
            seconds: 0,
            fault: primaryHang(ha, 20000),
            commitProbe: true,
          }),
        );
        record(
          'sync',
          await runPhase(ctx, {
            name: 'connections-cut',
            seconds: 0,
            fault: connectionsCut(ha),
            afterSeconds: 5,
          }),
        );
        record(
          'sync',
          await runPhase(ctx, {
            name: 'redis-failover',
            seconds: 0,
            fault: redisFailover(sentinels!),
            afterSeconds: 5,
          }),
        );
        // 3. Asynchronous replication: what a failover can lose.
        await ha.setSynchronous(false);
        await ha.waitHealthy(60000);
        await baseline(ctx, 'async');
        const asyncFaults = [primaryCrash(ha), primaryCrash(ha), primaryKill(ha)];
        for (const [round, fault] of asyncFaults.entries()) {
          record(
            'async',
            await runPhase(ctx, {
              name: `async ${fault.name} ${round + 1}`,
              seconds: 0,
              fault,
              commitProbe: true,
            }),
          );
        }
      },
    );
  } finally {
    await cluster?.close().catch((err) => log(`cluster close: ${String(err)}`));
    await sentinels?.close().catch((err) => log(`sentinel close: ${String(err)}`));
  }
  setup.totalSeconds = Math.round((Date.now() - t0) / 1000);
  const failures = verdict(phases);
  const report: HaReport = {
    startedAt: new Date(t0).toISOString(),
    replicas: o.processes ? '3 processes' : `3 containers of ${String(setup.image)}`,
    setup,
    phases,
    failures,
    passed: failures.length === 0,
  };
  printReport(report, (l) => console.log(l));
  writeReport(report, resolve(o.report));
  log(`report written to ${o.report}; logs in dist/ha-logs`);
  return report.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(2);
  },
);
