// `berth serve --workers N`, the real CLI process on a fresh PostgreSQL database: both workers
// answer on the one port, a write through one is seen by a candidates query answered by the
// other, a killed worker is replaced, SIGTERM ends the primary with 0 and no worker left; a port
// in use stops it at once with one line; on the embedded database, N > 1 is refused.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { berth, collect, waitFor } from '../support/cli';
import { realPostgresIt, testDatabaseUrl } from '../support/db';

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

interface Answer {
  readonly worker: string | undefined;
  readonly body: any;
}

/** One request; `agent` false = a new connection, which the primary hands to the next worker. */
function request(
  port: number,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  agent: http.Agent | false = false,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method,
        agent,
        headers: data ? { 'content-type': 'application/json' } : {},
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += String(d);
        });
        res.on('end', () =>
          resolve({ worker: res.headers['x-berth-worker'] as string, body: JSON.parse(text) }),
        );
      },
    );
    // A connection handed to a worker at the moment it died is never answered: give up on it.
    req.setTimeout(5000, () => req.destroy(new Error('no answer in 5 s')));
    req.on('error', reject);
    req.end(data);
  });
}

const gql = (port: number, query: string, variables = {}, agent: http.Agent | false = false) =>
  request(port, 'POST', '/graphql', { query, variables }, agent);

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Worker id → pid, from /readyz over new connections until `n` distinct workers answered. */
async function workersAnswering(port: number, n: number): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  for (let i = 0; i < 20 && seen.size < n; i++) {
    const r = await request(port, 'GET', '/readyz');
    expect(r.body.status).toBe('ready');
    expect(r.worker).toBe(String(r.body.worker.id));
    seen.set(r.worker!, r.body.worker.pid);
  }
  return seen;
}

describe('berth serve --workers', () => {
  let dbUrl = '';
  let dbName = '';

  beforeAll(async () => {
    if (!process.env.DATABASE_URL) {
      return;
    }
    const base = new URL(testDatabaseUrl());
    dbName = `berth_workers_${process.pid}`;
    const admin = new Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName}`);
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    base.pathname = `/${dbName}`;
    dbUrl = base.toString();
  });

  afterAll(async () => {
    if (!dbName) {
      return;
    }
    const admin = new Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  realPostgresIt(
    'sums /metrics over every worker, whichever one a scrape reaches',
    async () => {
      const port = await freePort();
      const child = berth(['serve', '--workers', '2'], {
        DATABASE_URL: dbUrl,
        PORT: String(port),
        BERTH_AUTH: 'off',
      });
      const io = collect(child);
      const exited = exitOf(child);
      /** The count of GET /placement/resource_providers answered 2xx in a scrape of `url`. */
      const listed = (url: string) =>
        new Promise<{ worker: string; count: number; workers: string }>((resolve, reject) => {
          http
            .get({ host: '127.0.0.1', port, path: url, agent: false }, (res) => {
              let text = '';
              res.on('data', (d) => {
                text += String(d);
              });
              res.on('end', () => {
                const line = (name: string) =>
                  text
                    .split('\n')
                    .find((l) => l.startsWith(name))
                    ?.split(' ')[1] ?? '0';
                resolve({
                  worker: res.headers['x-berth-worker'] as string,
                  count: Number(
                    line(
                      'berth_http_request_duration_seconds_count{route="/placement/resource_providers",method="GET",status="2xx"}',
                    ),
                  ),
                  workers: line('berth_metrics_workers{state="answered"}'),
                });
              });
            })
            .on('error', reject);
        });
      try {
        await waitFor(() => io.out().includes('listening on'), 90000);
        expect(await workersAnswering(port, 2)).toHaveProperty('size', 2);
        // New connections go round-robin: the 10 requests are spread over both workers.
        const servedBy = new Set<string>();
        for (let i = 0; i < 10; i++) {
          servedBy.add((await request(port, 'GET', '/placement/resource_providers')).worker!);
        }
        expect(servedBy.size).toBe(2);
        // Each scrape, whichever worker takes it, counts all 10 and says both workers answered.
        const scrapes = [await listed('/metrics'), await listed('/metrics')];
        expect(new Set(scrapes.map((s) => s.worker)).size).toBe(2);
        for (const s of scrapes) {
          expect(s).toMatchObject({ count: 10, workers: '2' });
        }
        // ?scope=worker: each worker's own share, which together make the 10.
        const own = [await listed('/metrics?scope=worker'), await listed('/metrics?scope=worker')];
        expect(new Set(own.map((s) => s.worker)).size).toBe(2);
        expect(own.every((s) => s.count < 10)).toBe(true);
        expect(own[0]!.count + own[1]!.count).toBe(10);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    },
    120000,
  );

  realPostgresIt(
    'serves from 2 workers, shares writes between them, replaces a dead one and stops on SIGTERM',
    async () => {
      const port = await freePort();
      const child = berth(['serve', '--workers', '2'], {
        DATABASE_URL: dbUrl,
        PORT: String(port),
        BERTH_AUTH: 'off',
      });
      const io = collect(child);
      const exited = exitOf(child);
      const pinned = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        await waitFor(() => io.out().includes('listening on'), 90000);
        expect(io.out().match(/listening on/g)).toHaveLength(1);
        expect(io.out()).toMatch(/^ {2}workers: 2 \(--workers 2\); \/readyz answers per worker/m);

        // Both workers answer, each a child of the primary.
        const workers = await workersAnswering(port, 2);
        expect(workers.size).toBe(2);
        for (const pid of workers.values()) {
          expect(parentOf(pid)).toBe(child.pid);
        }

        // A provider written through one worker (one kept-alive connection)…
        const name = `w-${Date.now()}`;
        const rp = await gql(
          port,
          `mutation { createResourceProvider(input: {name: "${name}"}) { uuid generation } }`,
          {},
          pinned,
        );
        expect(rp.worker).toMatch(/^\d+$/);
        const { uuid, generation } = rp.body.data.createResourceProvider;
        const inv = await gql(
          port,
          `mutation($u: ID!, $g: Int!) { setInventories(input: {providerUuid: $u, generation: $g,
            inventories: [{resourceClass: "VCPU", total: 512}]}) { uuid } }`,
          { u: uuid, g: generation },
          pinned,
        );
        expect(inv.body.errors).toBeUndefined();
        expect(inv.worker).toBe(rp.worker);
        // …is a candidate in the other worker's in-memory index (NOTIFY, milliseconds).
        const candidates = `{ allocationCandidates(request: {groups: [{resources:
          [{resourceClass: "VCPU", amount: 300}]}]}) { providerSummaries { provider { uuid } } } }`;
        let other: Answer | undefined;
        await waitFor(async () => {
          const r = await gql(port, candidates);
          if (r.worker === rp.worker) {
            return false;
          }
          other = r;
          return r.body.data.allocationCandidates.providerSummaries.length > 0;
        }, 10000);
        expect(other!.body.data.allocationCandidates.providerSummaries).toEqual([
          { provider: { uuid } },
        ]);

        // A worker that dies is replaced (a new worker id, another pid).
        const [deadId, deadPid] = [...workers][0]!;
        process.kill(deadPid, 'SIGKILL');
        let now = new Map<string, number>();
        await waitFor(async () => {
          now = await workersAnswering(port, 2).catch(() => new Map());
          return now.size === 2 && !now.has(deadId);
        }, 60000);
        expect([...now.values()]).not.toContain(deadPid);
        expect(io.out()).toMatch(/worker exited unexpectedly: restarting it/);

        pinned.destroy();
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        for (const pid of now.values()) {
          expect(alive(pid)).toBe(false);
        }
        expect(io.err()).toBe('');
      } catch (err) {
        process.stderr.write(`berth stdout:\n${io.out()}\nberth stderr:\n${io.err()}\n`);
        throw err;
      } finally {
        pinned.destroy();
        child.kill('SIGKILL');
      }
    },
    180000,
  );

  realPostgresIt(
    'fails fast with one line when the port is in use',
    async () => {
      const taken: Server = createServer();
      await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
      const port = (taken.address() as { port: number }).port;
      try {
        const child = berth(['serve', '--workers', '2'], {
          DATABASE_URL: dbUrl,
          PORT: String(port),
          BERTH_HOST: '127.0.0.1',
        });
        const io = collect(child);
        expect(await exitOf(child)).toBe(1);
        expect(io.err()).toBe(`berth: port ${port} is already in use; set PORT to another port\n`);
        expect(io.out()).not.toMatch(/listening on/);
      } finally {
        await new Promise((r) => taken.close(r));
      }
    },
    120000,
  );

  it('refuses --workers 2 on the embedded database, before touching the data directory', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-workers-'));
    try {
      const child = berth(['serve', '--workers', '2'], { BERTH_DATA_DIR: dataDir, PORT: '0' });
      const io = collect(child);
      expect(await exitOf(child)).toBe(1);
      expect(io.err()).toBe(
        'berth: --workers 2 needs DATABASE_URL: the embedded database (PGlite) serves one ' +
          'process, and other processes would not see its changes; leave it unset (one ' +
          'process), or set DATABASE_URL to a PostgreSQL server\n',
      );
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60000);
});
