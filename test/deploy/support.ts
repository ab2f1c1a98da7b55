// Shared by the deployment tests: a database of their own on the test PostgreSQL, real `berth`
// processes (the CLI from the sources, test/support/cli.ts) and plain HTTP requests that say which
// replica answered, read from the replicas' own request logs (every request is logged with its
// `x-request-id`, which berth keeps when the client sends one and the proxies pass on).
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { Client } from 'pg';
import { berth, collect, waitFor } from '../support/cli';
import { testDatabaseUrl } from '../support/db';

/** Why the deployment tests are skipped, or undefined when they can run (chosen at load). */
export const NEEDS_POSTGRES = process.env.DATABASE_URL
  ? undefined
  : 'skipped: DATABASE_URL unset (replicas share one real PostgreSQL; the embedded one serves one process)';

/** A loopback port free right now. */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** A fresh database next to the test database (`<name>_<suffix>_<pid>`); `drop()` removes it. */
export async function freshDatabase(
  suffix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(testDatabaseUrl());
  const name = `${base.pathname.slice(1) || 'berth'}_${suffix}_${process.pid}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: testDatabaseUrl() });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${name}`);
  base.pathname = `/${name}`;
  return {
    url: base.toString(),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve(child.exitCode);
    } else {
      child.once('exit', (code) => resolve(code));
    }
  });

/** Runs `berth migrate` (the current sources) on `url`. @throws unless it exits 0. */
export async function migrateWithCurrentCode(url: string): Promise<string> {
  const child = berth(['migrate'], { DATABASE_URL: url });
  const io = collect(child);
  const code = await exited(child);
  if (code !== 0) {
    throw new Error(`berth migrate exited ${code}: ${io.err()}`);
  }
  return io.out();
}

/** A running `berth serve` process and what it logged. */
export interface Replica {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
  out(): string;
  err(): string;
  /** The x-request-ids this replica logged having answered. */
  answered(): Set<string>;
  /** SIGKILL, then wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
}

/** Waits for `child` to print its start banner; @throws with its output when it exits first. */
export async function replicaOf(child: ChildProcess, port: number): Promise<Replica> {
  const io = collect(child);
  let gone = false;
  child.once('exit', () => {
    gone = true;
  });
  await waitFor(() => gone || io.out().includes('listening on'), 90_000);
  if (!io.out().includes('listening on')) {
    throw new Error(`berth serve on ${port} exited: ${io.out()}${io.err()}`);
  }
  const answered = () => {
    const ids = new Set<string>();
    for (const line of io.out().split('\n')) {
      if (line.includes('"msg":"request"')) {
        const id = /"requestId":"([^"]+)"/.exec(line)?.[1];
        if (id) {
          ids.add(id);
        }
      }
    }
    return ids;
  };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    out: io.out,
    err: io.err,
    answered,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
  };
}

/** Environment of a test replica: auth off (the proxies, not tokens, are under test), logs on. */
export function replicaEnv(url: string, port: number): Record<string, string> {
  return {
    DATABASE_URL: url,
    PORT: String(port),
    BERTH_WORKERS: '1',
    BERTH_AUTH: 'off',
    BERTH_RATE_LIMIT: '0',
    LOG_LEVEL: 'info',
  };
}

/** Starts `berth serve` (the current sources) on `port`. */
export function startReplica(url: string, port: number): Promise<Replica> {
  return replicaOf(berth(['serve', '--workers', '1'], replicaEnv(url, port)), port);
}

/** An answer: status, headers and the body (parsed when JSON). */
export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  readonly json: any;
}

/**
 * One request on a new connection (so a load balancer chooses a replica for each), with
 * Placement's latest microversion and a JSON body when `body` is given.
 */
export function call(
  base: string,
  method: string,
  path: string,
  o: { body?: unknown; requestId?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const data = o.body === undefined ? undefined : JSON.stringify(o.body);
  const target = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        agent: false,
        headers: {
          connection: 'close',
          accept: 'application/json',
          'openstack-api-version': 'placement latest',
          'x-auth-token': 'admin',
          ...(data ? { 'content-type': 'application/json' } : {}),
          ...(o.requestId ? { 'x-request-id': o.requestId } : {}),
          ...o.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => {
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
    req.on('error', reject);
    req.end(data);
  });
}

/** A GraphQL request (POST /graphql). */
export async function gql(base: string, query: string, variables: object = {}): Promise<any> {
  const r = await call(base, 'POST', '/graphql', { body: { query, variables } });
  return r.json;
}

/** An open GraphQL subscription over Server-Sent Events: `next()` is its next `next` event. */
export interface EventStream {
  readonly status: number;
  readonly contentType: string;
  next(): Promise<any>;
  close(): void;
}

/** Subscribes (POST /graphql, Accept: text/event-stream) and parses events as they arrive. */
export function subscribe(base: string, query: string): Promise<EventStream> {
  const target = new URL('/graphql', base);
  const data = JSON.stringify({ query });
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      },
      (res) => {
        res.setEncoding('utf8');
        const events: unknown[] = [];
        const waiting: Array<(e: unknown) => void> = [];
        let buffer = '';
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let cut = buffer.indexOf('\n\n');
          while (cut >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            cut = buffer.indexOf('\n\n');
            if (!block.split('\n').includes('event: next')) {
              continue;
            }
            const payload = block
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trim())
              .join('');
            const event = JSON.parse(payload);
            const w = waiting.shift();
            if (w) {
              w(event);
            } else {
              events.push(event);
            }
          }
        });
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          next: () =>
            events.length > 0
              ? Promise.resolve(events.shift())
              : new Promise((r) => {
                  waiting.push(r);
                }),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** Starts `command args` and collects its output; `stop()` sends SIGTERM and waits. */
export function startProcess(
  command: string,
  args: string[],
  cwd?: string,
): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const io = collect(child);
  return {
    child,
    output: () => io.out() + io.err(),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited(child);
      }
    },
  };
}

export { waitFor };
