// A three-member Patroni + etcd + HAProxy PostgreSQL 15 cluster on loopback, for the HA test
// (`npm run test:ha`) and bench/ha/cluster-check.ts. It runs the files an operator deploys,
// deploy/ha/{etcd.yml,patroni.yml,haproxy.cfg}, rendered by deploy/ha/render.sh with loopback
// addresses, ports derived from basePort and directories under baseDir (only synchronous_mode
// follows the option). One etcd member; Patroni runs as the postgres user. Every process of the
// cluster has its working directory under baseDir (PostgreSQL's is its data directory), which is
// how a member's processes are found for kill/stop and how close() proves none is left.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import path from 'node:path';
import {
  BIN_DIR,
  haproxyStatus,
  haUnavailable,
  killAllUnder,
  postmasterOf,
  processesUnder,
  pgQuery as query,
  render as renderTemplate,
  signal,
  sleep,
  waitGone,
} from './cluster-support';

export { haUnavailable } from './cluster-support';

export interface HaMember {
  readonly name: string;
  readonly pgPort: number;
  readonly restPort: number;
}
export interface HaClusterOptions {
  /** Everything (data, configs, logs) under it; removed by close(). */
  readonly baseDir: string;
  /** Default 15400: etcd +0/+1, HAProxy primary +2 and replicas +3, PostgreSQL +10.., REST +20... */
  readonly basePort?: number;
  readonly synchronous: boolean;
  readonly log: (m: string) => void;
  /** Where the processes' logs go instead of baseDir/logs (kept after close()). */
  readonly logDir?: string;
}
export interface HaCluster {
  readonly members: readonly HaMember[];
  readonly haproxyPort: number;
  /** HAProxy's read-only port (GET /replica checks). */
  readonly replicasPort: number;
  url(db: string): string;
  directUrl(member: string, db: string): string;
  primary(): Promise<string | undefined>;
  waitHealthy(timeoutMs?: number): Promise<void>;
  kill(member: string, what: 'postmaster' | 'member'): Promise<void>;
  stop(member: string): Promise<void>;
  cont(member: string): Promise<void>;
  restart(member: string): Promise<void>;
  setSynchronous(on: boolean): Promise<void>;
  createDatabase(db: string): Promise<void>;
  close(): Promise<void>;
}

interface PatroniMember {
  name: string;
  role: string;
  state: string;
}

export async function startHaCluster(o: HaClusterOptions): Promise<HaCluster> {
  const why = haUnavailable();
  if (why) {
    throw new Error(`HA cluster unavailable: ${why}`);
  }
  const base = path.resolve(o.baseDir);
  const port = o.basePort ?? 15400;
  if (processesUnder(base).length) {
    throw new Error(`${base}: processes of an earlier cluster are still running there`);
  }
  fs.rmSync(base, { recursive: true, force: true });
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  fs.chmodSync(base, 0o755);
  const logDir = o.logDir ?? path.join(base, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  const id = (flag: string) =>
    Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout);
  const [uid, gid] = [id('-u'), id('-g')];
  if (spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', base]).status !== 0) {
    throw new Error(`${base}: the postgres user cannot reach it (make its parents traversable)`);
  }

  const secret = () => randomBytes(9).toString('hex');
  const superPassword = secret();
  const restPassword = secret();
  const restAuth = `Basic ${Buffer.from(`patroni:${restPassword}`).toString('base64')}`;
  const members: HaMember[] = [1, 2, 3].map((i) => ({
    name: `pg${i}`,
    pgPort: port + 9 + i,
    restPort: port + 19 + i,
  }));
  const [etcdPort, haproxyPort, replicasPort] = [port, port + 2, port + 3];
  const statsSocket = path.join(base, 'haproxy.sock');
  const vars: Record<string, string> = {
    ADDR: '127.0.0.1',
    ETCD_HOSTS: `127.0.0.1:${etcdPort}`,
    ETCD_CLIENT_PORT: String(etcdPort),
    ETCD_PEER_PORT: String(port + 1),
    ETCD_DATA_DIR: path.join(base, 'etcd'),
    ETCD_INITIAL_CLUSTER: `etcd1=http://127.0.0.1:${port + 1}`,
    BIN_DIR,
    MEMBER_NET: '127.0.0.1/32',
    CLIENT_NET: '127.0.0.1/32',
    SUPERUSER_PASSWORD: superPassword,
    REPLICATION_PASSWORD: secret(),
    REWIND_PASSWORD: secret(),
    REST_PASSWORD: restPassword,
    HAPROXY_ADDR: '127.0.0.1',
    PRIMARY_PORT: String(haproxyPort),
    REPLICAS_PORT: String(replicasPort),
    HAPROXY_STATS_SOCKET: statsSocket,
  };
  for (const [i, m] of members.entries()) {
    vars[`MEMBER${i + 1}_ADDR`] = '127.0.0.1';
    vars[`MEMBER${i + 1}_PG_PORT`] = String(m.pgPort);
    vars[`MEMBER${i + 1}_REST_PORT`] = String(m.restPort);
  }
  const render = (template: string, extra: Record<string, string> = {}) =>
    renderTemplate(template, { ...vars, ...extra });

  const children = new Map<string, ChildProcess>();
  const run = (name: string, cwd: string, cmd: string, args: string[]) => {
    const out = fs.openSync(path.join(logDir, `${name}.log`), 'a');
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', out, out],
      env: { PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: cwd },
    });
    fs.closeSync(out);
    child.on('error', (e) => o.log(`${name}: ${e.message}`));
    children.set(name, child);
    return child;
  };
  const running = (name: string) => {
    const c = children.get(name);
    return c !== undefined && c.exitCode === null && c.signalCode === null;
  };
  const member = (name: string) => {
    const m = members.find((x) => x.name === name);
    if (!m) {
      throw new Error(`no member ${name}`);
    }
    return m;
  };
  const memberDir = (name: string) => path.join(base, name);
  const patroni = ['-u', 'postgres', '--', 'patroni', 'patroni.yml'];
  const startMember = (name: string) => run(name, memberDir(name), 'runuser', patroni);
  const stopped = new Set<string>();
  /** runuser (its working directory is /), then Patroni and PostgreSQL (theirs under the member's). */
  const memberPids = (name: string) => {
    const pid = children.get(name)?.pid;
    return [...(pid && running(name) ? [pid] : []), ...processesUnder(memberDir(name))];
  };

  const rest = async (name: string, what: string, init?: RequestInit): Promise<Response> =>
    fetch(`http://127.0.0.1:${member(name).restPort}${what}`, {
      signal: AbortSignal.timeout(1500),
      ...init,
    });
  /** Patroni's /cluster from the first live member that answers. */
  const clusterView = async (): Promise<PatroniMember[] | undefined> => {
    for (const m of members) {
      if (!running(m.name) || stopped.has(m.name)) {
        continue;
      }
      try {
        const r = await rest(m.name, '/cluster');
        return ((await r.json()) as { members: PatroniMember[] }).members;
      } catch {
        // next member
      }
    }
    return undefined;
  };
  const directUrl = (name: string, db: string) =>
    `postgres://postgres:${superPassword}@127.0.0.1:${member(name).pgPort}/${db}`;
  let synchronous = o.synchronous;

  /** Why the cluster is not healthy yet, or undefined when it is. */
  const unhealthy = async (): Promise<string | undefined> => {
    const view = await clusterView();
    if (!view) {
      return 'no Patroni REST API answers';
    }
    const leader = view.find((m) => m.role === 'leader' && m.state === 'running');
    if (!leader) {
      return `no running leader: ${JSON.stringify(view)}`;
    }
    const live = members.filter((m) => running(m.name) && m.name !== leader.name);
    for (const m of live) {
      const v = view.find((x) => x.name === m.name);
      if (
        !v ||
        !['replica', 'sync_standby'].includes(v.role) ||
        !['running', 'streaming'].includes(v.state)
      ) {
        return `${m.name} is not a running replica: ${JSON.stringify(v)}`;
      }
    }
    const sync = view.filter((m) => m.role === 'sync_standby');
    if (synchronous && live.length > 0 && sync.length !== 1) {
      return 'no sync standby yet';
    }
    if (!synchronous && sync.length) {
      return 'a sync standby is still listed';
    }
    const repl = await query(
      directUrl(leader.name, 'postgres'),
      'SELECT application_name AS name, state, sync_state FROM pg_stat_replication',
    ).catch((e: Error) => e);
    if (repl instanceof Error) {
      return `leader ${leader.name}: ${repl.message}`;
    }
    for (const m of live) {
      const r = repl.find((x) => x.name === m.name);
      if (r?.state !== 'streaming') {
        return `${m.name} is not streaming from ${leader.name}`;
      }
      if (sync.some((s) => s.name === m.name) && r.sync_state !== 'sync') {
        return `${m.name} is the sync standby but PostgreSQL says ${String(r.sync_state)}`;
      }
    }
    const up = [
      ...(await haproxyStatus(statsSocket, 'primary').catch(() => new Map<string, string>())),
    ]
      .filter(([, s]) => s === 'UP')
      .map(([n]) => n);
    if (up.length !== 1 || up[0] !== leader.name) {
      return `HAProxy primary UP: [${up.join(', ')}], leader ${leader.name}`;
    }
    return undefined;
  };
  const waitHealthy = async (timeoutMs = 120_000) => {
    const t0 = Date.now();
    let why: string | undefined = 'not checked';
    while (Date.now() - t0 < timeoutMs) {
      why = await unhealthy();
      if (!why) {
        o.log(`HA cluster healthy after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        return;
      }
      await sleep(250);
    }
    throw new Error(`HA cluster not healthy after ${timeoutMs} ms: ${why}`);
  };

  let closed = false;
  const close = async () => {
    if (closed) {
      return;
    }
    closed = true;
    await killAllUnder(base, () =>
      [...children.keys()].filter(running).map((n) => children.get(n)?.pid ?? 0),
    );
    fs.rmSync(base, { recursive: true, force: true });
  };

  try {
    const etcdDir = path.join(base, 'etcd');
    fs.mkdirSync(etcdDir, { mode: 0o700 });
    fs.writeFileSync(path.join(base, 'etcd.yml'), render('etcd.yml', { MEMBER: 'etcd1' }));
    run('etcd', base, 'etcd', ['--config-file', path.join(base, 'etcd.yml')]);
    const t0 = Date.now();
    for (;;) {
      const h = await fetch(`http://127.0.0.1:${etcdPort}/health`, {
        signal: AbortSignal.timeout(1000),
      })
        .then((r) => r.json() as Promise<{ health?: string }>)
        .catch(() => undefined);
      if (h?.health === 'true') {
        break;
      }
      if (!running('etcd') || Date.now() - t0 > 20_000) {
        throw new Error(`etcd did not start (${path.join(logDir, 'etcd.log')})`);
      }
      await sleep(100);
    }
    for (const m of members) {
      const dir = memberDir(m.name);
      fs.mkdirSync(path.join(dir, 'run'), { recursive: true, mode: 0o700 });
      let yml = render('patroni.yml', {
        MEMBER: m.name,
        PG_PORT: String(m.pgPort),
        REST_PORT: String(m.restPort),
        DATA_DIR: path.join(dir, 'data'),
        SOCKET_DIR: path.join(dir, 'run'),
      });
      const parts = yml.split('synchronous_mode: true');
      if (parts.length !== 2) {
        throw new Error('deploy/ha/patroni.yml: expected one `synchronous_mode: true`');
      }
      yml = parts.join(`synchronous_mode: ${o.synchronous}`);
      fs.writeFileSync(path.join(dir, 'patroni.yml'), yml, { mode: 0o600 });
      for (const p of [dir, path.join(dir, 'run'), path.join(dir, 'patroni.yml')]) {
        fs.chownSync(p, uid, gid);
      }
      fs.chmodSync(dir, 0o700);
    }
    for (const m of members) {
      startMember(m.name);
    }
    fs.writeFileSync(path.join(base, 'haproxy.cfg'), render('haproxy.cfg'));
    const check = spawnSync('haproxy', ['-c', '-f', path.join(base, 'haproxy.cfg')], {
      encoding: 'utf8',
    });
    if (check.status !== 0) {
      throw new Error(`haproxy -c: ${check.stdout}${check.stderr}`);
    }
    run('haproxy', base, 'haproxy', ['-f', path.join(base, 'haproxy.cfg'), '-db']);
    await waitHealthy(180_000);
    o.log(`HA cluster up in ${((Date.now() - t0) / 1000).toFixed(1)} s (logs: ${logDir})`);
  } catch (e) {
    await close().catch((c: Error) => o.log(c.message));
    throw e;
  }

  return {
    members,
    haproxyPort,
    replicasPort,
    url: (db) => `postgres://postgres:${superPassword}@127.0.0.1:${haproxyPort}/${db}`,
    directUrl,
    primary: async () => (await clusterView())?.find((m) => m.role === 'leader')?.name,
    waitHealthy,
    async kill(name, what) {
      if (what === 'postmaster') {
        const pid = postmasterOf(path.join(memberDir(name), 'data'));
        if (!pid) {
          throw new Error(`${name}: no postmaster running`);
        }
        signal([pid], 'SIGKILL');
        o.log(`${name}: postmaster ${pid} killed`);
        return;
      }
      const pids = memberPids(name);
      signal(pids, 'SIGKILL');
      stopped.delete(name);
      o.log(`${name}: Patroni and PostgreSQL killed (${pids.length} processes)`);
      await waitGone(pids);
    },
    async stop(name) {
      const pids = memberPids(name);
      signal(pids, 'SIGSTOP');
      stopped.add(name);
      o.log(`${name}: ${pids.length} processes stopped (SIGSTOP)`);
    },
    async cont(name) {
      signal(memberPids(name), 'SIGCONT');
      stopped.delete(name);
      o.log(`${name}: continued`);
    },
    async restart(name) {
      if (running(name)) {
        o.log(`${name}: Patroni still runs (it restarts its own PostgreSQL)`);
        return;
      }
      const left = memberPids(name);
      signal(left, 'SIGKILL');
      await waitGone(left);
      startMember(name);
      o.log(`${name}: Patroni started again`);
    },
    async setSynchronous(on) {
      const name = members.find((m) => running(m.name) && !stopped.has(m.name))?.name;
      if (!name) {
        throw new Error('no live member to configure');
      }
      const r = await rest(name, '/config', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', authorization: restAuth },
        body: JSON.stringify({ synchronous_mode: on }),
      });
      if (!r.ok) {
        throw new Error(`PATCH /config: ${r.status} ${await r.text()}`);
      }
      synchronous = on;
      await waitHealthy(60_000);
      o.log(`synchronous_mode ${on}`);
    },
    async createDatabase(db) {
      await query(
        `postgres://postgres:${superPassword}@127.0.0.1:${haproxyPort}/postgres`,
        `CREATE DATABASE "${db}"`,
      );
    },
    close,
  };
}
