// The soak harness's own infrastructure: a dedicated PostgreSQL cluster (so restarting it never
// touches the machine's main cluster) and a dedicated redis-server, both on loopback.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Client } from 'pg';

/** The dedicated PostgreSQL cluster (Debian postgresql-common tooling). */
export interface PgCluster {
  readonly version: string;
  readonly name: string;
  readonly port: number;
  /** postgres:// URL of `db` on this cluster. */
  url(db: string): string;
  /** `pg_ctlcluster <v> <name> restart` (fast shutdown: sessions are terminated). */
  restart(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function sh(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** True when a PostgreSQL server answers `select 1` at `url`. */
export async function pgAnswers(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * Makes sure the dedicated cluster `name` exists on `port` with trust auth on 127.0.0.1 and is
 * running; creates it with pg_createcluster when missing. Returns undefined (with the reason)
 * when the Debian cluster tools are not available, so callers can fall back to DATABASE_URL.
 * @throws when the cluster exists but cannot be started.
 */
export async function ensurePgCluster(
  name: string,
  port: number,
  log: (m: string) => void,
): Promise<PgCluster | { unavailable: string }> {
  if (!existsSync('/etc/postgresql') || !existsSync('/usr/bin/pg_ctlcluster')) {
    return { unavailable: 'no Debian PostgreSQL cluster tools (/etc/postgresql, pg_ctlcluster)' };
  }
  const version = readdirSync('/etc/postgresql').sort().pop();
  if (!version) {
    return { unavailable: 'no PostgreSQL version under /etc/postgresql' };
  }
  const dir = `/etc/postgresql/${version}/${name}`;
  if (!existsSync(dir)) {
    log(`creating dedicated PostgreSQL cluster ${version}/${name} on port ${port}`);
    try {
      sh('pg_createcluster', [version, name, '--port', String(port)]);
    } catch (err) {
      return { unavailable: `pg_createcluster failed: ${(err as Error).message.split('\n')[0]}` };
    }
    const hba = `${dir}/pg_hba.conf`;
    const rules = readFileSync(hba, 'utf8').replace(
      /^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/gm,
      '$1trust',
    );
    writeFileSync(hba, rules);
    // Keep the soak cluster small and fast to restart; it holds throw-away data only.
    writeFileSync(
      `${dir}/conf.d/soak.conf`,
      'max_connections = 200\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\nshared_buffers = 64MB\n',
    );
  }
  const cluster: PgCluster = {
    version,
    name,
    port,
    url: (db) => `postgres://postgres@127.0.0.1:${port}/${db}`,
    restart: () => {
      sh('pg_ctlcluster', [
        '--skip-systemctl-redirect',
        '--mode',
        'fast',
        version,
        name,
        'restart',
      ]);
    },
  };
  if (!(await pgAnswers(cluster.url('postgres')))) {
    log(`starting PostgreSQL cluster ${version}/${name}`);
    sh('pg_ctlcluster', ['--skip-systemctl-redirect', version, name, 'start']);
    for (let i = 0; i < 50 && !(await pgAnswers(cluster.url('postgres'))); i++) {
      await sleep(200);
    }
    if (!(await pgAnswers(cluster.url('postgres')))) {
      throw new Error(`PostgreSQL cluster ${version}/${name} did not start on port ${port}`);
    }
  }
  return cluster;
}

/** Drops and re-creates database `db` through the cluster's `postgres` database. */
export async function recreateDatabase(adminUrl: string, db: string): Promise<void> {
  const c = new Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${db}`);
  } finally {
    await c.end();
  }
}

/** A redis-server child process owned by the harness. */
export interface OwnRedis {
  readonly url: string;
  /** SIGKILL (no shutdown, as a crash). */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: no persistence). */
  start(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing answers (a hung Redis). */
  pause(): void;
  /** SIGCONT after {@link pause}. */
  resume(): void;
}

async function redisAnswers(port: number): Promise<boolean> {
  try {
    return sh('redis-cli', ['-p', String(port), 'ping']).trim() === 'PONG';
  } catch {
    return false;
  }
}

/**
 * Starts a throw-away redis-server on 127.0.0.1:`port` (no persistence). Returns undefined when
 * redis-server is not installed.
 * @throws when something else already listens on `port`.
 */
export async function startOwnRedis(port: number): Promise<OwnRedis | undefined> {
  if (!existsSync('/usr/bin/redis-server')) {
    return undefined;
  }
  if (await redisAnswers(port)) {
    throw new Error(`port ${port} already has a Redis that the harness did not start`);
  }
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 50 && !(await redisAnswers(port)); i++) {
      await sleep(100);
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    start,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    async kill() {
      const c = child;
      child = undefined;
      if (c && c.exitCode === null) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGCONT');
        c.kill('SIGKILL');
        await exited;
      }
    },
  };
}
