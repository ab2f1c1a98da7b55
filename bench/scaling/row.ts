// One row of the scaling table: a fresh database bulk-seeded with `hosts` hosts, two `berth
// serve` replicas on it (one on the embedded database), and the row's figures. A step that fails
// (out of memory, timeout, an error answer) is recorded in the row, which the table prints as
// such; an out-of-memory or a timeout ends the row, the table goes on with the next one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDataSource } from '../../src/db/data-source';
import { tokenClient } from '../http/client';
import {
  GQL_CANDIDATES,
  gqlRequest,
  type Log,
  REST,
  REST_HEADERS,
  scheduleLoop,
} from '../http/scenarios';
import {
  type BenchDatabase,
  childPids,
  prepareDatabase,
  type ServeProcess,
  startServe,
} from '../http/server';
import { formatIndexMemory, type IndexMemory, measureIndexMemory } from '../index-memory';
import { overCommitted, SCHEDULING_ENV, tagAggregates } from '../scheduling';
import { seedDataset } from '../seed';
import {
  alive,
  authHeaders,
  crashReports,
  type FullAnswer,
  fullAnswer,
  killTree,
  p50Of,
  StepTimeout,
  stopWithin,
  withTimeout,
  workerRss,
} from './probes';
import { measureVisibility, type Visibility } from './visibility';

/** The data set of a row. */
export interface RowSpec {
  readonly hosts: number;
  readonly shape: 'flat' | 'nested';
  /** nested: GPU children per root. */
  readonly gpus: number;
}

/** How a row is measured. */
export interface RowOptions {
  /** `berth serve --workers`. */
  readonly workers: number;
  /** 2 on PostgreSQL, 1 on the embedded database. */
  readonly replicas: 1 | 2;
  /** Timed calls per p50. */
  readonly iterations: number;
  /** `schedule` claims (32 callers). */
  readonly claims: number;
  /** Trait writes timed for cross-replica visibility. */
  readonly writes: number;
  /** --max-old-space-size per serving process (MiB); undefined: sized from the providers. */
  readonly heapMiB: number | undefined;
  /** Longest wait for a replica's banner, and for any one measuring step (ms). */
  readonly readyTimeoutMs: number;
  readonly stepTimeoutMs: number;
  readonly log: Log;
}

/** The measured columns. */
export type Step =
  | 'seed'
  | 'index'
  | 'ready'
  | 'rest'
  | 'graphql'
  | 'fullRest'
  | 'fullGql'
  | 'schedule'
  | 'visibility';

/** A measured row: every figure it reached, and what failed how. */
export interface ScalingRow {
  readonly spec: RowSpec;
  providers?: number;
  seedS?: number;
  /** The capacity index alone, loaded in a fresh process (bench/index-memory.ts). */
  index?: IndexMemory;
  heapMiB: number;
  readyS?: number;
  rssReady?: number;
  rssAfter?: number;
  /** After the full answers too. */
  rssFull?: number;
  restP50?: number;
  gqlP50?: number;
  fullRest?: FullAnswer;
  fullGql?: FullAnswer;
  claimsPerS?: number;
  overCapacity?: number;
  visibility?: Visibility;
  /** Steps that failed: 'OOM', 'timeout', 'exited', 'error', 'n/a'. */
  readonly failed: Partial<Record<Step, string>>;
  /** One line per failure, with its reason. */
  readonly notes: string[];
}

/** Providers a row's data set has per host. */
export const providersPerHost = (s: RowSpec) => (s.shape === 'nested' ? 3 + s.gpus : 1);

/**
 * The V8 heap limit for a row: 1 GiB plus 6 KiB per provider, rounded up to 512 MiB (100,000 flat
 * hosts took ~500 MiB RSS per worker).
 */
export function heapFor(s: RowSpec): number {
  const mib = 1024 + (s.hosts * providersPerHost(s) * 6) / 1024;
  return Math.ceil(mib / 512) * 512;
}

/** BERTH_WATCHDOG_MS of the replicas (default 10,000). */
export const WATCHDOG_MS = 120_000;

/** The GraphQL request of the flavor with `disk` GB (no limit). */
const fullRequest = (disk: number) => ({
  groups: [
    {
      resources: [
        { resourceClass: 'VCPU', amount: 2 },
        { resourceClass: 'MEMORY_MB', amount: 4096 },
        { resourceClass: 'DISK_GB', amount: disk },
      ],
    },
  ],
});

const dbName = (s: RowSpec) => `berth_scaling_${s.shape}_${s.hosts}`;

/** Measures one row. Never throws for a failure of berth: records it. */
export async function measureRow(spec: RowSpec, o: RowOptions): Promise<ScalingRow> {
  const heapMiB = o.heapMiB ?? heapFor(spec);
  const row: ScalingRow = { spec, heapMiB, failed: {}, notes: [] };
  const reports = mkdtempSync(path.join(tmpdir(), 'berth-scaling-reports-'));
  const servers: ServeProcess[] = [];
  let db: BenchDatabase | undefined;
  let ended = false;
  const reported = new Set<string>();
  const fail = (step: Step, err: unknown) => {
    const crashes = crashReports(reports).filter((c) => !reported.has(c.file));
    for (const c of crashes) {
      reported.add(c.file);
    }
    const dead = servers.some((s) => !alive(s.pid));
    const kind = crashes.some((c) => c.oom)
      ? 'OOM'
      : crashes.length > 0
        ? 'crashed'
        : err instanceof StepTimeout
          ? 'timeout'
          : dead
            ? 'exited'
            : 'error';
    row.failed[step] = kind;
    const why =
      crashes.length > 0
        ? crashes.map((c) => c.text).join('; ')
        : String((err as Error)?.message ?? err).split('\n')[0];
    row.notes.push(`${step}: ${kind}: ${why}`);
    o.log(`  ${step} FAILED (${kind}): ${why}`);
    ended ||= kind !== 'error';
  };
  /**
   * Runs one step within the step timeout. After a timeout or a dead replica the row's other
   * steps are skipped, except the full answers (`anyReplica`), last in the row, which run on
   * whichever replica still lives.
   */
  const step = async <T>(
    name: Step,
    fn: () => Promise<T>,
    anyReplica = false,
  ): Promise<T | undefined> => {
    if (ended && !(anyReplica && servers.some((s) => alive(s.pid)))) {
      return undefined;
    }
    try {
      return await withTimeout(fn(), o.stepTimeoutMs, name);
    } catch (err) {
      fail(name, err);
      return undefined;
    }
  };
  o.log(
    `\nscaling: ${spec.hosts} ${spec.shape} hosts${spec.gpus ? ` (+2 NUMA, ${spec.gpus} GPU children each)` : spec.shape === 'nested' ? ' (+2 NUMA children each)' : ''}, ${o.replicas} replica(s) --workers ${o.workers}, --max-old-space-size=${heapMiB}`,
  );
  try {
    const t0 = performance.now();
    db = await prepareDatabase(dbName(spec), async (ds) => {
      const t = performance.now();
      const seeded = await seedDataset(ds, {
        hosts: spec.hosts,
        shape: spec.shape,
        gpus: spec.gpus,
        sharing: 0,
      });
      row.seedS = (performance.now() - t) / 1000;
      row.providers = seeded.providers;
      await tagAggregates(ds, seeded.aggregates);
    }).catch((err) => {
      fail('seed', err);
      return undefined;
    });
    if (!db) {
      return row;
    }
    o.log(
      `  seeded ${row.providers} providers in ${row.seedS?.toFixed(1)} s (database ready, analysed, in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    const database = db;
    if (database.url) {
      const url = database.url;
      await step('index', async () => {
        row.index = await measureIndexMemory(url);
        o.log(`  ${formatIndexMemory(row.index)}`);
      });
    }
    const env = {
      ...SCHEDULING_ENV,
      // Full answers: 100,000 flat hosts are 100,000 candidates (default bound 10,000) and a
      // GraphQL answer of ~1,300,000 list items (default budget 50,000); these are the maxima.
      BERTH_CANDIDATE_MAX_RESULTS: '1000000',
      BERTH_CANDIDATE_MAX_EXAMINED: '100000000',
      BERTH_GRAPHQL_MAX_RESULT_ITEMS: '10000000',
      // A full answer is written in one go: 400,000 candidates (100,000 nested hosts, 225 MB)
      // hold the event loop past the watchdog's default 10 s on a busy machine, and the replica
      // exits to be restarted. The wall time of each full answer is in the table.
      BERTH_WATCHDOG_MS: String(WATCHDOG_MS),
      NODE_OPTIONS:
        `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${heapMiB} --report-on-fatalerror --report-uncaught-exception --report-compact --report-directory=${reports}`.trim(),
    };
    const tokens = authHeaders(database.tokens.admin);
    await step('ready', async () => {
      for (let r = 0; r < o.replicas; r++) {
        const before = new Set(childPids('self'));
        const t = performance.now();
        const s = await withTimeout(
          startServe(database, { workers: o.workers, env }),
          o.readyTimeoutMs,
          `replica ${r + 1} start`,
        ).catch((err) => {
          for (const p of childPids('self').filter((p) => !before.has(p))) {
            killTree(p);
          }
          throw err;
        });
        servers.push(s);
        const c = tokenClient(s.url, database.tokens.admin);
        const first = await c.send(
          'GET',
          `${REST}/allocation_candidates?resources=VCPU:2&limit=1`,
          undefined,
          REST_HEADERS,
        );
        await c.close();
        if (first.status !== 200) {
          throw new Error(`first answer ${first.status}: ${first.body.slice(0, 200)}`);
        }
        const ready = (performance.now() - t) / 1000;
        row.readyS = Math.max(row.readyS ?? 0, ready);
        row.rssReady = Math.max(row.rssReady ?? 0, ...workerRss(s));
        o.log(
          `  replica ${r + 1}: banner after ${(s.readyMs / 1000).toFixed(1)} s, ready (first answer) after ${ready.toFixed(1)} s; rss ${s.rssMiB().join('+')} MiB`,
        );
      }
    });
    const [a, b] = servers;
    if (!a || ended) {
      return row;
    }
    const ca = tokenClient(a.url, database.tokens.admin);
    const cb = b ? tokenClient(b.url, database.tokens.admin) : undefined;
    try {
      const limited = `${REST}/allocation_candidates?resources=VCPU:2,MEMORY_MB:4096,DISK_GB:20&limit=1000`;
      const rest = await step('rest', () =>
        p50Of(o.iterations, () => ca.send('GET', limited, undefined, REST_HEADERS)),
      );
      const gql = await step('graphql', () =>
        p50Of(o.iterations, () => ca.graphql(GQL_CANDIDATES, { r: gqlRequest(1000) })),
      );
      row.restP50 = rest?.p50;
      row.gqlP50 = gql?.p50;
      o.log(
        `  limit=1000: REST p50 ${rest?.p50.toFixed(1) ?? '-'} ms (${rest?.kb.toFixed(0) ?? '-'} KB), GraphQL p50 ${gql?.p50.toFixed(1) ?? '-'} ms (${gql?.kb.toFixed(0) ?? '-'} KB), ${o.iterations} calls each`,
      );
      row.claimsPerS = await step('schedule', () =>
        scheduleLoop(
          ca,
          a,
          {
            clients: 32,
            claims: o.claims,
            limit: 50,
            extraSpecs: [{ key: 'aggregate_instance_extra_specs:tier', value: '<in> gold' }],
          },
          o.log,
        ),
      );
      if (cb && database.url) {
        const url = database.url;
        row.visibility = await step('visibility', () =>
          measureVisibility(ca, cb, url, o.log, o.writes),
        );
      } else {
        row.failed.visibility = 'n/a';
        row.notes.push('visibility: n/a: one replica (embedded database)');
      }
      if (!ended) {
        row.rssAfter = Math.max(...servers.flatMap(workerRss));
        o.log(`  rss after the run: ${servers.map((s) => s.rssMiB().join('+')).join(', ')} MiB`);
      }
      if (database.url) {
        const ds = createDataSource({ url: database.url, poolSize: 1 });
        await ds.initialize();
        row.overCapacity = await overCommitted(ds);
        await ds.destroy();
      }
      // Every call asks for a different disk size (all hosts have 2,000 GB): the same answer,
      // built anew each time.
      const flavor = (disk: number) => `VCPU:2,MEMORY_MB:4096,DISK_GB:${disk}`;
      // On the first replica still alive (a crash in one full answer leaves the other).
      const live = () => servers.find((s) => alive(s.pid)) ?? a;
      row.fullRest = await step(
        'fullRest',
        () => {
          const s = live();
          return fullAnswer(s, (i) => ({
            url: `${s.url}${REST}/allocation_candidates?resources=${flavor(20 + i)}`,
            opts: { method: 'GET', headers: tokens.rest },
          }));
        },
        true,
      );
      row.fullGql = await step(
        'fullGql',
        () => {
          const s = live();
          return fullAnswer(s, (i) => ({
            url: `${s.url}/graphql`,
            opts: {
              method: 'POST',
              headers: tokens.graphql,
              body: JSON.stringify({
                query: GQL_CANDIDATES,
                variables: { r: fullRequest(20 + i) },
              }),
            },
          }));
        },
        true,
      );
      for (const [name, f] of [
        ['REST', row.fullRest],
        ['GraphQL', row.fullGql],
      ] as const) {
        if (f) {
          o.log(
            `  full answer ${name}: ${(f.kb / 1024).toFixed(1)} MB, p50 ${(f.ms / 1000).toFixed(2)} s, server ${f.cpuUsPerKb.toFixed(1)} CPU-µs/KB (${f.calls} calls)`,
          );
        }
      }
      if (row.fullRest || row.fullGql) {
        row.rssFull = Math.max(...servers.flatMap(workerRss));
      }
      o.log(
        `  rss after the full answers: ${servers.map((s) => s.rssMiB().join('+')).join(', ')} MiB`,
      );
    } finally {
      await ca.close();
      await cb?.close();
    }
  } catch (err) {
    row.notes.push(`run: error: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
  } finally {
    await Promise.all(servers.map((s) => stopWithin(s)));
    await db?.drop();
    if (crashReports(reports).length > 0) {
      row.notes.push(`crash reports kept in ${reports}`);
    } else {
      rmSync(reports, { recursive: true, force: true });
    }
  }
  return row;
}
