// PostgreSQL pool wait: how long each request for a client waited for the pg pool (TypeORM's
// PostgresDriver.master) to hand one over, plus the pool's client counts at scrape time. The
// pool's connect() is wrapped once per pool; every app observing it gets each wait.
import { Gauge, type Histogram, type Registry } from 'prom-client';
import type { DataSource } from 'typeorm';

type Callback = (err: unknown, client: unknown, release: unknown) => void;

/** The part of pg-pool this reads. */
interface PgPool {
  connect(cb?: Callback): unknown;
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

const observers = new WeakMap<PgPool, Set<(seconds: number) => void>>();

function wrap(pool: PgPool): Set<(seconds: number) => void> {
  const existing = observers.get(pool);
  if (existing) {
    return existing;
  }
  const set = new Set<(seconds: number) => void>();
  observers.set(pool, set);
  const connect = pool.connect.bind(pool);
  const done = (started: number) => {
    const seconds = (performance.now() - started) / 1000;
    for (const o of set) {
      o(seconds);
    }
  };
  pool.connect = (cb?: Callback) => {
    const started = performance.now();
    if (cb) {
      return connect((err, client, release) => {
        done(started);
        cb(err, client, release);
      });
    }
    const p = connect() as Promise<unknown>;
    p.then(
      () => done(started),
      () => done(started),
    );
    return p;
  };
  return set;
}

/** The pg pool of `ds`, when it is an initialised PostgreSQL DataSource. */
function poolOf(ds: DataSource): PgPool | undefined {
  const master = (ds.driver as { master?: Partial<PgPool> }).master;
  return typeof master?.connect === 'function' ? (master as PgPool) : undefined;
}

/**
 * Observes `ds`'s pool waits into `histogram` and registers `berth_db_pool_clients{state}`.
 * @returns the function that stops observing (the app's close()).
 */
export function observePool(ds: DataSource, histogram: Histogram, registry: Registry): () => void {
  const pool = poolOf(ds);
  if (!pool) {
    return () => {};
  }
  const observer = (seconds: number) => histogram.observe(seconds);
  const set = wrap(pool);
  set.add(observer);
  new Gauge({
    name: 'berth_db_pool_clients',
    help: 'PostgreSQL pool clients: total open, idle, and requests waiting for one.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  return () => set.delete(observer);
}
