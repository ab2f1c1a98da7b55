// A Redis Sentinel set of real redis-server processes on loopback, for the HA run and the tests:
// one master and one replica (ports basePort, basePort+1) watched by three Sentinels
// (basePort+2 .. basePort+4) with quorum 2, down-after-milliseconds 1000 and a short
// failover-timeout, so killing the master promotes the replica within a few seconds. Nothing is
// persisted (no RDB, no AOF, diskless replication); every config, log and working directory is
// under baseDir, which close() removes.
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const MASTER_NAME = 'berth';
const DOWN_AFTER_MS = 1500;
// Also how soon the Sentinels may fail the same group over again: 2 × this after the last start.
const FAILOVER_TIMEOUT_MS = 2000;

/** Why the Sentinel set cannot run here, or undefined when it can. */
export function sentinelUnavailable(): string | undefined {
  for (const cmd of ['redis-server', 'redis-cli']) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    if (r.error || r.status !== 0) {
      return `${cmd} not installed (apt-get install redis-server)`;
    }
  }
  return undefined;
}

export interface SentinelSet {
  readonly masterName: string;
  /** The Sentinels' ports. */
  readonly sentinels: readonly number[];
  /** The two data nodes' ports (the first is the master at start). */
  readonly nodes: readonly number[];
  /** REDIS_URL for this set: redis+sentinel://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3/berth/<db>. */
  url(db?: number): string;
  /** The current master's port, as a Sentinel answers it. */
  master(): Promise<number>;
  /** SIGKILLs the current master's redis-server. */
  killMaster(): Promise<{ oldPort: number }>;
  /**
   * Waits until every Sentinel names a master other than `oldPort` and that node answers as
   * master; `ms` counts from the kill (killMaster) or else from this call.
   */
  waitFailover(oldPort: number, timeoutMs?: number): Promise<{ newPort: number; ms: number }>;
  /** Starts a killed redis-server again, as a replica of the current master; waits until it is in sync. */
  restart(port: number): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One redis-cli command (raw output) against 127.0.0.1:port; rejects when it cannot connect or times out. */
function cli(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'redis-cli',
      ['-h', '127.0.0.1', '-p', String(port), '--raw', ...args],
      { timeout: 2000, encoding: 'utf8' },
      (err, stdout) => {
        if (err) {
          reject(err);
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/** The `field:value` lines of an INFO section. */
async function info(port: number, section: string): Promise<Record<string, string>> {
  const raw = await cli(port, 'INFO', section);
  return Object.fromEntries(
    raw
      .split(/\r?\n/)
      .filter((l) => l.includes(':') && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]),
  );
}

/**
 * The name/value records of a SENTINEL MASTER or REPLICAS reply, which redis-cli --raw prints
 * as one line per name and value, every record starting with `name`.
 */
function records(raw: string): Record<string, string>[] {
  const lines = raw.trim().split(/\r?\n/);
  const out: Record<string, string>[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    if (lines[i] === 'name' || out.length === 0) {
      out.push({});
    }
    out[out.length - 1]![lines[i]!] = lines[i + 1]!;
  }
  return out;
}

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes. */
async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined) {
        return v;
      }
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
    }
    await sleep(50);
  }
}

export async function startSentinelSet(o: {
  baseDir: string;
  basePort: number;
  log: (m: string) => void;
}): Promise<SentinelSet> {
  const nodes = [o.basePort, o.basePort + 1];
  const sentinels = [o.basePort + 2, o.basePort + 3, o.basePort + 4];
  const procs = new Map<number, ChildProcess>();
  const killedAt = new Map<number, number>();
  const dirOf = (port: number) => path.join(o.baseDir, String(port));
  const logTail = (port: number) => {
    const file = path.join(dirOf(port), 'redis.log');
    return existsSync(file)
      ? readFileSync(file, 'utf8').trim().split('\n').slice(-5).join('\n')
      : '';
  };

  const launch = async (port: number, args: string[]) => {
    mkdirSync(dirOf(port), { recursive: true });
    const child = spawn('redis-server', args, { stdio: 'ignore' });
    procs.set(port, child);
    child.on('exit', () => {
      if (procs.get(port) === child) {
        procs.delete(port);
      }
    });
    try {
      await until(`redis-server on port ${port} answering`, 10_000, async () =>
        procs.has(port) && (await cli(port, 'PING')).includes('PONG') ? true : undefined,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${logTail(port)}`);
    }
  };

  const startNode = (port: number, replicaOf?: number) =>
    launch(port, [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dirOf(port)],
      ...['--logfile', path.join(dirOf(port), 'redis.log')],
      ...['--save', '', '--appendonly', 'no'],
      ...['--repl-diskless-sync', 'yes', '--repl-diskless-sync-delay', '0'],
      ...(replicaOf === undefined ? [] : ['--replicaof', '127.0.0.1', String(replicaOf)]),
    ]);

  const startSentinel = (port: number) => {
    const conf = path.join(dirOf(port), 'sentinel.conf');
    mkdirSync(dirOf(port), { recursive: true });
    // Sentinel rewrites its configuration file (what it learns): one file per Sentinel.
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dirOf(port)}`,
        `logfile ${path.join(dirOf(port), 'redis.log')}`,
        `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${nodes[0]} 2`,
        `sentinel down-after-milliseconds ${MASTER_NAME} ${DOWN_AFTER_MS}`,
        `sentinel failover-timeout ${MASTER_NAME} ${FAILOVER_TIMEOUT_MS}`,
        `sentinel parallel-syncs ${MASTER_NAME} 1`,
        '',
      ].join('\n'),
    );
    return launch(port, [conf, '--sentinel']);
  };

  /** The master a Sentinel names (its port), or undefined when it does not answer. */
  const askSentinel = async (port: number): Promise<number | undefined> => {
    const out = await cli(port, 'SENTINEL', 'get-master-addr-by-name', MASTER_NAME).catch(() => '');
    const p = Number(out.trim().split(/\r?\n/)[1]);
    return Number.isInteger(p) && p > 0 ? p : undefined;
  };

  const master = async (): Promise<number> => {
    for (const s of sentinels) {
      const p = await askSentinel(s);
      if (p !== undefined) {
        return p;
      }
    }
    throw new Error('no Sentinel answers with a master');
  };

  const inSync = async (port: number) => {
    const r = await info(port, 'replication');
    return r.role === 'slave' && r.master_link_status === 'up' ? true : undefined;
  };

  /** Every Sentinel sees the master, its replica and the two other Sentinels. */
  const settled = async (masterPort: number, replicas: number) => {
    for (const s of sentinels) {
      const m = records(await cli(s, 'SENTINEL', 'MASTER', MASTER_NAME))[0] ?? {};
      if (
        Number(m.port) !== masterPort ||
        m.flags !== 'master' ||
        Number(m['num-slaves']) < replicas ||
        Number(m['num-other-sentinels']) !== sentinels.length - 1
      ) {
        return undefined;
      }
    }
    return true;
  };

  const kill = async (port: number, signal: NodeJS.Signals) => {
    const child = procs.get(port);
    if (!child) {
      return;
    }
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };

  const close = async () => {
    for (const port of [...sentinels, ...nodes]) {
      await kill(port, 'SIGKILL');
    }
    rmSync(o.baseDir, { recursive: true, force: true });
  };

  try {
    rmSync(o.baseDir, { recursive: true, force: true });
    mkdirSync(o.baseDir, { recursive: true });
    await startNode(nodes[0]!);
    await startNode(nodes[1]!, nodes[0]);
    await until('the replica in sync', 15_000, () => inSync(nodes[1]!));
    await Promise.all(sentinels.map(startSentinel));
    // Sentinels learn replicas from the master's INFO and each other from hello messages (every
    // 2 s); a failover needs both.
    await until('the Sentinels to know the replica and each other', 30_000, () =>
      settled(nodes[0]!, 1),
    );
    o.log(
      `redis sentinel: master ${nodes[0]}, replica ${nodes[1]}, sentinels ${sentinels.join(',')}`,
    );
  } catch (err) {
    await close();
    throw err;
  }

  return {
    masterName: MASTER_NAME,
    sentinels,
    nodes,
    url: (db = 0) =>
      `redis+sentinel://${sentinels.map((p) => `127.0.0.1:${p}`).join(',')}/${MASTER_NAME}/${db}`,
    master,
    async killMaster() {
      const oldPort = await master();
      await kill(oldPort, 'SIGKILL');
      killedAt.set(oldPort, Date.now());
      o.log(`redis sentinel: master ${oldPort} killed`);
      return { oldPort };
    },
    async waitFailover(oldPort, timeoutMs = 30_000) {
      const from = killedAt.get(oldPort) ?? Date.now();
      const newPort = await until(`failover away from ${oldPort}`, timeoutMs, async () => {
        const named = await Promise.all(sentinels.map(askSentinel));
        const p = named[0];
        if (p === undefined || p === oldPort || named.some((n) => n !== p)) {
          return undefined;
        }
        return (await info(p, 'replication')).role === 'master' ? p : undefined;
      });
      const ms = Date.now() - from;
      o.log(`redis sentinel: ${newPort} is master, ${ms} ms after ${oldPort} was killed`);
      return { newPort, ms };
    },
    async restart(port) {
      if (procs.has(port)) {
        throw new Error(`redis-server ${port} is running`);
      }
      await startNode(port, await master());
      await until(`${port} in sync as a replica`, 15_000, () => inSync(port));
      await until(`the Sentinels to see ${port} as a healthy replica`, 30_000, async () => {
        for (const s of sentinels) {
          const replicas = records(await cli(s, 'SENTINEL', 'REPLICAS', MASTER_NAME));
          const replica = replicas.find((r) => r.port === String(port));
          if (replica?.flags !== 'slave') {
            return undefined;
          }
        }
        return true;
      });
      killedAt.delete(port);
      o.log(`redis sentinel: ${port} back as a replica`);
    },
    close,
  };
}
