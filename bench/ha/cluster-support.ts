// Process, HAProxy and PostgreSQL helpers of bench/ha/cluster.ts (the loopback Patroni cluster).
// A cluster's processes are found by their working directory: each has it under the cluster's
// base directory (PostgreSQL's is its data directory), except runuser, which the cluster tracks
// by its child-process handle.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

export const BIN_DIR = '/usr/lib/postgresql/15/bin';
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The checkout holding deploy/ha: above this file (bench/ha, dist/bench/ha), else the cwd. */
export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'deploy/ha/render.sh'))) {
      return dir;
    }
    if (path.dirname(dir) === dir) {
      break;
    }
  }
  if (fs.existsSync(path.join(process.cwd(), 'deploy/ha/render.sh'))) {
    return process.cwd();
  }
  throw new Error('deploy/ha/render.sh not found above bench/ha nor in the working directory');
}

/** Why the cluster cannot run here (a missing binary or module, not root), else undefined. */
export function haUnavailable(): string | undefined {
  const ok = (cmd: string, args: string[]) =>
    spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
  if (process.getuid?.() !== 0) {
    return 'needs root (Patroni is started as the postgres user with runuser)';
  }
  const checks: [string, string, string[]][] = [
    ['patroni (apt-get install patroni)', 'patroni', ['--version']],
    ['python3-etcd (Patroni etcd3 client)', '/usr/bin/python3', ['-c', 'import etcd']],
    ['etcd (apt-get install etcd-server)', 'etcd', ['--version']],
    ['haproxy', 'haproxy', ['-v']],
    ['perl (deploy/ha/render.sh)', 'perl', ['-v']],
    [`PostgreSQL 15 in ${BIN_DIR}`, `${BIN_DIR}/postgres`, ['--version']],
    ['the postgres user', 'id', ['-u', 'postgres']],
  ];
  const missing = checks.filter(([, cmd, args]) => !ok(cmd, args)).map(([what]) => what);
  return missing.length ? `missing: ${missing.join(', ')}` : undefined;
}

/** Pids of the processes whose working directory is `dir` or below it. */
export function processesUnder(dir: string): number[] {
  const pids: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) {
      continue;
    }
    try {
      const cwd = fs.readlinkSync(`/proc/${e}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) {
        pids.push(Number(e));
      }
    } catch {
      // exited meanwhile, or a kernel thread
    }
  }
  return pids;
}

export function signal(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

/** HAProxy's `show stat` for one section: server name -> status (UP, DOWN, …). */
export function haproxyStatus(socket: string, section: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    let text = '';
    const c = createConnection(socket, () => c.write('show stat\n'));
    c.setTimeout(2000, () => c.destroy(new Error('haproxy stats socket: no answer')));
    c.on('data', (d) => {
      text += d;
    });
    c.on('error', reject);
    c.on('end', () => {
      const [head, ...rows] = text.trim().split('\n');
      const cols = head.replace(/^# /, '').split(',');
      const [px, sv, st] = ['pxname', 'svname', 'status'].map((k) => cols.indexOf(k));
      const out = new Map<string, string>();
      for (const r of rows.map((l) => l.split(','))) {
        if (r[px] === section && r[sv] !== 'FRONTEND' && r[sv] !== 'BACKEND') {
          out.set(r[sv], r[st]);
        }
      }
      resolve(out);
    });
  });
}

export function isZombie(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z') ?? false;
  } catch {
    return true;
  }
}

/** Waits until `pids` have exited (zombies count as exited). @throws after `ms`. */
export async function waitGone(pids: readonly number[], ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (pids.some((p) => !isZombie(p))) {
    if (Date.now() - t0 > ms) {
      throw new Error(`processes still running: ${pids.join(' ')}`);
    }
    await sleep(50);
  }
}

/**
 * SIGCONT + SIGKILL `extra` and every process under `dir` until none is left, then checks with
 * pgrep that no process names a path under `dir`. @throws naming the survivors.
 */
export async function killAllUnder(dir: string, extra: () => number[]): Promise<void> {
  const live = () =>
    [
      ...extra(),
      ...processesUnder(dir),
      ...spawnSync('pgrep', ['-f', `${dir}/`], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter(Boolean)
        .map(Number),
    ].filter((p) => p && p !== process.pid && !isZombie(p));
  for (let round = 0; round < 100; round++) {
    const pids = live();
    if (!pids.length) {
      return;
    }
    signal(pids, 'SIGCONT');
    signal(pids, 'SIGKILL');
    await sleep(100);
  }
  const ps = spawnSync('ps', ['-o', 'pid,ppid,stat,cmd', '-p', live().join(',')], {
    encoding: 'utf8',
  });
  throw new Error(`processes left under ${dir}:\n${ps.stdout}`);
}

/** The postmaster of the data directory `dataDir` (postmaster.pid, checked in /proc), if it runs. */
export function postmasterOf(dataDir: string): number | undefined {
  try {
    const pid = Number(
      fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    return fs.readlinkSync(`/proc/${pid}/cwd`) === dataDir && !isZombie(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Runs one statement on a new connection (2 s connect timeout). */
export async function pgQuery(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return (await c.query(sql)).rows;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Renders deploy/ha/`template` with deploy/ha/render.sh and `vars` as its environment. */
export function render(template: string, vars: Record<string, string>): string {
  const deploy = path.join(repoRoot(), 'deploy/ha');
  const r = spawnSync(path.join(deploy, 'render.sh'), [path.join(deploy, template)], {
    env: { PATH: process.env.PATH, ...vars },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    throw new Error(`render ${template}: ${r.stderr}`);
  }
  return r.stdout;
}
