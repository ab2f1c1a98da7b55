// The faults of the HA test, each with the figures that explain its outage:
// - postgres-crash: SIGKILL of the primary's postmaster (Patroni sees it and hands over);
// - primary-kill: SIGKILL of the primary member (Patroni and PostgreSQL: the machine died); the
//   leader lock must expire (Patroni's ttl), a replica is promoted, HAProxy's checks move over;
// - primary-hang: SIGSTOP of the (new) primary member: nothing answers, nothing resets; HAProxy
//   marks it down and cuts its sessions, Patroni promotes another member; SIGCONT later, and the
//   old primary rejoins as a replica;
// - connections-cut: pg_terminate_backend of every berth connection on the primary;
// - redis-failover: SIGKILL of the Redis master; Sentinel promotes its replica.
import { Client } from 'pg';
import type { HaCluster } from './cluster';
import type { Fault } from './phases';
import type { SentinelSet } from './redis-sentinel';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Ms from `at` until `probe()` holds (polled every 50 ms), or -1 after `timeoutMs`. */
async function until(
  at: number,
  probe: () => Promise<boolean>,
  timeoutMs = 60000,
): Promise<number> {
  while (Date.now() - at < timeoutMs) {
    if (await probe().catch(() => false)) {
      return Date.now() - at;
    }
    await sleep(50);
  }
  return -1;
}

/** True when a commit through HAProxy succeeds now (the primary port reaches a writable server). */
async function commitThroughHaproxy(cluster: HaCluster): Promise<boolean> {
  const c = new Client({
    connectionString: cluster.url('postgres'),
    connectionTimeoutMillis: 1000,
  });
  try {
    await c.connect();
    await c.query('SET statement_timeout = 1000');
    await c.query('CREATE TEMP TABLE IF NOT EXISTS ha_probe (x int)');
    await c.query('INSERT INTO ha_probe VALUES (1)');
    return true;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Figures of a primary that went away: new leader elected, HAProxy routing again. */
function measureFailover(cluster: HaCluster, old: string, at: number) {
  return (async () => {
    const leaderMs = await until(at, async () => {
      const p = await cluster.primary();
      return p !== undefined && p !== old;
    });
    const haproxyMs = await until(at, () => commitThroughHaproxy(cluster));
    return { oldPrimary: old, newPrimary: (await cluster.primary()) ?? '?', leaderMs, haproxyMs };
  })();
}

async function currentPrimary(cluster: HaCluster): Promise<string> {
  const p = await cluster.primary();
  if (!p) {
    throw new Error('no primary to inject the fault on');
  }
  return p;
}

/** SIGKILL of the primary member; healed by restarting it (it rejoins as a replica). */
export function primaryKill(cluster: HaCluster): Fault {
  let old = '';
  return {
    name: 'primary-kill',
    async inject() {
      old = await currentPrimary(cluster);
      const at = Date.now();
      await cluster.kill(old, 'member');
      return { at, measured: measureFailover(cluster, old, at) };
    },
    async heal() {
      await cluster.restart(old);
      await cluster.waitHealthy(90000);
    },
  };
}

/**
 * SIGKILL of the primary's postmaster only (PostgreSQL crashed, Patroni alive): with
 * primary_start_timeout 0 Patroni releases the lock at once, the sync standby is promoted, and the
 * old primary rejoins as a replica by itself.
 */
export function primaryCrash(cluster: HaCluster): Fault {
  return {
    name: 'postgres-crash',
    async inject() {
      const old = await currentPrimary(cluster);
      const at = Date.now();
      await cluster.kill(old, 'postmaster');
      return { at, measured: measureFailover(cluster, old, at) };
    },
    async heal() {
      await cluster.waitHealthy(90000);
    },
  };
}

/** SIGSTOP of the primary member for `holdMs` (or until berth recovered), then SIGCONT. */
export function primaryHang(cluster: HaCluster, holdMs: number): Fault {
  let old = '';
  let resumed: Promise<void> = Promise.resolve();
  return {
    name: 'primary-hang',
    async inject() {
      old = await currentPrimary(cluster);
      const at = Date.now();
      await cluster.stop(old);
      resumed = sleep(holdMs).then(() => cluster.cont(old));
      return { at, measured: measureFailover(cluster, old, at) };
    },
    async heal() {
      await resumed;
      await cluster.waitHealthy(90000);
    },
  };
}

/** Terminates every berth connection on the primary (pool and LISTEN connections). */
export function connectionsCut(cluster: HaCluster): Fault {
  return {
    name: 'connections-cut',
    async inject() {
      const c = new Client({ connectionString: cluster.url('postgres') });
      await c.connect();
      try {
        const at = Date.now();
        const r = await c.query<{ n: number }>(
          `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
            WHERE application_name IN ('berth', 'berth-listener') AND pid <> pg_backend_pid()`,
        );
        const terminated = r.rows[0]?.n ?? 0;
        return { at, measured: Promise.resolve({ terminated }) };
      } finally {
        await c.end();
      }
    },
  };
}

/** SIGKILL of the Redis master; Sentinel promotes the replica; the old master restarts after. */
export function redisFailover(sentinels: SentinelSet): Fault {
  let old = 0;
  return {
    name: 'redis-failover',
    async inject() {
      const at = Date.now();
      old = (await sentinels.killMaster()).oldPort;
      const measured = sentinels.waitFailover(old, 60000).then((f) => ({
        redisOldMaster: old,
        redisNewMaster: f.newPort,
        sentinelFailoverMs: f.ms,
      }));
      return { at, measured };
    },
    async heal() {
      await sentinels.restart(old);
    },
  };
}
