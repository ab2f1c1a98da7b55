// The scaling table of `npm run bench` (`--scaling` runs only it): for each size, flat hosts and
// nested trees (2 NUMA + GPU children per host), a fresh database is bulk-seeded (bench/seed.ts),
// two `berth serve` replicas start on it (bench/http/server.ts) and the row is measured: RSS per
// worker, time to ready, REST and GraphQL `limit=1000` p50, server CPU per KB of a full answer,
// `schedule` claims/s and how long a write on one replica takes to show on the other. The rows
// form a cost curve; a row that fails (out of memory, timeout) is printed as such.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Log } from './http/scenarios';
import { measureRow, type RowSpec, type ScalingRow, WATCHDOG_MS } from './scaling/row';
import { scalingTable } from './scaling/table';

/** What `--scaling` runs. */
export interface ScalingOptions {
  /** Flat host counts, one row each. */
  readonly sizes: readonly number[];
  /** Nested host counts (root + 2 NUMA + `gpus` GPU children), one row each. */
  readonly nested: readonly number[];
  readonly gpus: number;
  readonly workers: number;
  readonly iterations: number;
  readonly claims: number;
  readonly writes: number;
  /** --max-old-space-size of every serving process; undefined: sized per row (heapFor). */
  readonly heapMiB: number | undefined;
  readonly readyTimeoutMs: number;
  readonly stepTimeoutMs: number;
}

/**
 * The sizes a plain `npm run bench` measures: those that finish in minutes on 2 cores. The
 * 1,000,000-host row: `--scaling-sizes 1000,10000,100000,1000000`. The embedded database serves
 * one process, so its table has one replica and smaller sizes.
 */
export function defaultScaling(smoke: boolean, embedded: boolean) {
  if (smoke) {
    return { sizes: [200, 1000], nested: [200], claims: 100, writes: 5, iterations: 5 };
  }
  return embedded
    ? { sizes: [1000, 10000], nested: [10000], claims: 2000, writes: 0, iterations: 30 }
    : { sizes: [1000, 10000, 100000], nested: [100000], claims: 2000, writes: 50, iterations: 30 };
}

/** MemAvailable in GiB (from /proc/meminfo). */
function availableGiB(): string {
  const m = /MemAvailable:\s+(\d+) kB/.exec(readFileSync('/proc/meminfo', 'utf8'));
  return m ? (Number(m[1]) / 1024 / 1024).toFixed(1) : '?';
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** Measures every row, then prints the table. Returns the rows. */
export async function runScaling(o: ScalingOptions, log: Log): Promise<ScalingRow[]> {
  const embedded = !process.env.DATABASE_URL;
  log(
    `\nscaling table: flat ${o.sizes.join(', ') || 'none'}; nested ${o.nested.join(', ') || 'none'} (2 NUMA + ${o.gpus} GPU children per host); ${embedded ? 'embedded PGlite: ONE replica, no cross-replica visibility (set DATABASE_URL for two)' : 'PostgreSQL, two replicas'}; load ${load()}, ${availableGiB()} GiB available`,
  );
  const specs: RowSpec[] = [
    ...o.sizes.map((hosts) => ({ hosts, shape: 'flat' as const, gpus: 0 })),
    ...o.nested.map((hosts) => ({ hosts, shape: 'nested' as const, gpus: o.gpus })),
  ];
  const rows: ScalingRow[] = [];
  for (const spec of specs) {
    rows.push(
      await measureRow(spec, {
        workers: o.workers,
        replicas: embedded ? 1 : 2,
        iterations: o.iterations,
        claims: o.claims,
        writes: o.writes,
        heapMiB: o.heapMiB,
        readyTimeoutMs: o.readyTimeoutMs,
        stepTimeoutMs: o.stepTimeoutMs,
        log,
      }),
    );
  }
  log(
    `\nscaling table (berth serve --workers ${o.workers}, ${embedded ? 'embedded PGlite, one replica' : 'PostgreSQL, two replicas'}; load at the end ${load()}):`,
  );
  log(
    '  RSS/worker: after ready / after schedule + visibility / after the full answers (largest worker of both replicas); ready: spawn to first answer; 1000 = limit=1000 p50;',
  );
  log(
    `  full: server CPU µs per KB of a full (unlimited) answer, its size and wall p50 (BERTH_WATCHDOG_MS=${WATCHDOG_MS}); schedule: claims/s, 32 callers, limit 50; visible: write on A to B's next answer (B's answer alone)`,
  );
  for (const line of scalingTable(rows)) {
    log(line);
  }
  if (!o.sizes.includes(1_000_000)) {
    log(
      "  (the 1,000,000-host row: npm run bench -- --scaling --scaling-sizes 1000000 --scaling-nested '')",
    );
  }
  return rows;
}
