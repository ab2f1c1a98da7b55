// The server side of the HTTP bench: a fresh database seeded in bulk, then `berth serve` started
// as its own process (the built CLI, as users run it) on a free port, with an API token. Reads
// the server's CPU time and RSS from /proc (the primary and its cluster workers together).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { TokenStore } from '../../src/auth/token-store';
import { createDataSource } from '../../src/db/data-source';
import { startEmbeddedPg } from '../../src/db/embedded-pg';
import { seedStandard } from '../../src/db/seed';

const CLI = path.resolve(__dirname, '../../src/cli/main.js');

/** A database prepared for one scenario. */
export interface BenchDatabase {
  /** DATABASE_URL for `berth serve`, or undefined = embedded in `dataDir`. */
  readonly url: string | undefined;
  readonly dataDir: string | undefined;
  /** An admin token and a scheduler token. */
  readonly tokens: { readonly admin: string; readonly scheduler: string };
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Creates database `name` on DATABASE_URL's server (or an embedded data folder), migrates it and
 * runs `seed` on it.
 */
export async function prepareDatabase(
  name: string,
  seed: (ds: DataSource) => Promise<void>,
): Promise<BenchDatabase> {
  const base = process.env.DATABASE_URL;
  let url: string | undefined;
  let dataDir: string | undefined;
  let ds: DataSource;
  let embeddedStop: (() => Promise<void>) | undefined;
  if (base) {
    const admin = createDataSource({ url: base, poolSize: 1 });
    await admin.initialize();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.destroy();
    url = withDatabase(base, name);
    ds = createDataSource({ url, poolSize: 4 });
  } else {
    dataDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
    const pg = await startEmbeddedPg(dataDir, { maxConnections: 6 });
    embeddedStop = () => pg.stop();
    ds = createDataSource({ url: pg.url, poolSize: 4 });
  }
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await seedStandard(ds.manager);
  await seed(ds);
  await ds.query('ANALYZE');
  const store = new TokenStore(ds);
  const admin = (await store.create({ role: 'admin', name: 'bench' })).token;
  const scheduler = (await store.create({ role: 'scheduler', name: 'bench' })).token;
  await ds.destroy();
  await embeddedStop?.();
  return {
    url,
    dataDir,
    tokens: { admin, scheduler },
    async drop() {
      if (base) {
        const a = createDataSource({ url: base, poolSize: 1 });
        await a.initialize();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.destroy();
      } else if (dataDir) {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A running `berth serve`. */
export interface ServeProcess {
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the banner (listening, index loaded). */
  readonly readyMs: number;
  /** CPU ms (user + system) used so far by the server and its workers. */
  cpuMs(): number;
  /** RSS in MiB of each process (primary first). */
  rssMiB(): number[];
  stop(): Promise<void>;
}

/** The direct children of process `pid` (from /proc). */
export function childPids(pid: number | 'self'): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(/\s+/) : []) {
        out.push(Number(k));
      }
    }
  } catch {
    // gone
  }
  return out;
}

function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime are fields 14 and 15 (1-based) = index 11, 12 after the comm field.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

/** Starts `berth serve` on `db` with `env` (plus the port) and waits for its banner. */
export async function startServe(
  db: BenchDatabase,
  opts: {
    workers?: number;
    env?: Record<string, string>;
    port?: number;
    /** Extra node flags for the server process (e.g. `--cpu-prof`; NODE_OPTIONS refuses it). */
    nodeArgs?: readonly string[];
  } = {},
): Promise<ServeProcess> {
  const port = opts.port ?? (await freePort());
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    BERTH_HOST: '127.0.0.1',
    BERTH_AUTH: 'on',
    ...(opts.env ?? {}),
  };
  delete env.DATABASE_URL;
  if (db.url) {
    env.DATABASE_URL = db.url;
  } else {
    env.BERTH_DATA_DIR = db.dataDir!;
  }
  const started = performance.now();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--max-semi-space-size=64',
      ...(opts.nodeArgs ?? []),
      CLI,
      'serve',
      ...(opts.workers ? ['--workers', String(opts.workers)] : []),
    ],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const ready = await new Promise<boolean>((resolve) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      if (/listening on http/.test(output)) {
        resolve(true);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (b: Buffer) => {
      output += b.toString();
    });
    child.once('exit', () => resolve(false));
  });
  if (!ready) {
    throw new Error(`berth serve did not start:\n${output}`);
  }
  const readyMs = performance.now() - started;
  const pid = child.pid!;
  const all = () => [pid, ...childPids(pid)];
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    readyMs,
    cpuMs: () => all().reduce((s, p) => s + cpuOf(p), 0),
    rssMiB: () => all().map(rssOf),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
