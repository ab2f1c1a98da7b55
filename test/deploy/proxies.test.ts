// deploy/haproxy/haproxy.cfg and deploy/nginx/berth.conf as shipped, run by the real HAProxy and
// nginx in front of three real `berth serve` replicas on one PostgreSQL database. Only the
// marked addresses are replaced (materialise() below; docs/deploy.md says which): the listen
// address 0.0.0.0:8780, the replicas 10.0.0.11:8080 … 10.0.0.13:8080 and nginx's log directory.
// Each proxy must spread requests over the three replicas (which replica answered is read from
// the replicas' own request logs, by x-request-id), pass a GraphQL subscription's events on as
// they come (Server-Sent Events), and keep answering when a replica is killed: HAProxy takes it
// out by its /readyz health check and back when it returns; nginx skips it after a refused
// connection.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from '../support/cli';
import {
  call,
  type EventStream,
  freePort,
  freshDatabase,
  migrateWithCurrentCode,
  NEEDS_POSTGRES,
  type Replica,
  startProcess,
  startReplica,
  subscribe,
  waitFor,
} from './support';

const installed = (cmd: string, flag: string) => spawnSync(cmd, [flag]).status === 0;
const HAPROXY = installed('haproxy', '-v');
const NGINX = installed('nginx', '-v');

/**
 * The shipped file with the marked addresses replaced on its non-comment lines. @throws when a
 * marker is not there exactly as often as expected (the file changed shape: update the test and
 * docs/deploy.md).
 */
function materialise(
  file: string,
  front: number,
  backends: readonly number[],
  logDir?: string,
): string {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const swap = (from: string, to: string, times: number) => {
    let n = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i].trim().startsWith('#') && lines[i].includes(from)) {
        n += lines[i].split(from).length - 1;
        lines[i] = lines[i].split(from).join(to);
      }
    }
    if (n !== times) {
      throw new Error(`${file}: expected ${from} ${times} time(s), found ${n}`);
    }
  };
  swap('0.0.0.0:8780', `127.0.0.1:${front}`, 1);
  for (const [i, port] of backends.entries()) {
    swap(`10.0.0.1${i + 1}:8080`, `127.0.0.1:${port}`, 1);
  }
  if (logDir) {
    swap('/var/log/nginx/', `${logDir}/`, 1);
  }
  return lines.join('\n');
}

/** Races `p` against a deadline, so a missing event fails with a message instead of hanging. */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: none in ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const describeDeploy = NEEDS_POSTGRES ? describe.skip : describe;

describeDeploy(
  `load balancers in front of three replicas${NEEDS_POSTGRES ? ` (${NEEDS_POSTGRES})` : ''}`,
  () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let replicas: Replica[] = [];
    let dir = '';

    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'berth-deploy-'));
      db = await freshDatabase('deploy');
      // Migrated once, as berth-migrate.service does, so the replicas start without racing.
      await migrateWithCurrentCode(db.url);
      const ports = [await freePort(), await freePort(), await freePort()];
      replicas = await Promise.all(ports.map((p) => startReplica(db.url, p)));
    }, 120_000);

    afterAll(async () => {
      await Promise.all(replicas.map((r) => r.stop()));
      await db?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Which replica logged each id (index), waiting until every id is logged somewhere. */
    async function answeredBy(ids: readonly string[]): Promise<number[]> {
      const who = () => ids.map((id) => replicas.findIndex((r) => r.answered().has(id)));
      await waitFor(() => who().every((i) => i >= 0), 10_000);
      return who();
    }

    /** `n` requests through `front`, each on a new connection: every one must be answered 200. */
    async function spread(front: string, tag: string, n: number): Promise<number[]> {
      const ids = Array.from({ length: n }, (_, i) => `${tag}-${i}`);
      for (const id of ids) {
        const r = await call(front, 'GET', '/healthz', { requestId: id });
        expect({ id, status: r.status }).toEqual({ id, status: 200 });
      }
      return answeredBy(ids);
    }

    const count = (who: number[], i: number) => who.filter((w) => w === i).length;

    /** A subscription through `front` receives a provider created through `front`. */
    async function streamsEvents(front: string, tag: string): Promise<void> {
      const name = `${tag}-sse-host`;
      const stream: EventStream = await subscribe(
        front,
        `subscription { providerChanged(filter: { nameContains: "${name}" }) { providers { name } } }`,
      );
      try {
        expect(stream.status).toBe(200);
        expect(stream.contentType).toContain('text/event-stream');
        // The stream is open through the proxy before the write (the subscription is set up
        // when the first bytes arrive; an event written earlier would not be this stream's).
        await new Promise((r) => setTimeout(r, 500));
        const created = await call(front, 'POST', '/placement/resource_providers', {
          body: { name },
        });
        expect(created.status).toBe(200);
        const event = await within(stream.next(), 15_000, `providerChanged through ${tag}`);
        expect(event).toEqual({ data: { providerChanged: { providers: [{ name }] } } });
      } finally {
        stream.close();
      }
    }

    (NGINX ? it : it.skip)(
      `nginx with deploy/nginx/berth.conf${NGINX ? '' : ' (skipped: nginx not installed; apt-get install nginx-light)'}`,
      async () => {
        const front = await freePort();
        const prefix = path.join(dir, 'nginx');
        for (const sub of ['logs', 'tmp']) {
          mkdirSync(path.join(prefix, sub), { recursive: true });
        }
        writeFileSync(
          path.join(prefix, 'berth.conf'),
          materialise(
            'deploy/nginx/berth.conf',
            front,
            replicas.map((r) => r.port),
            path.join(prefix, 'logs'),
          ),
        );
        // The minimal main file the shipped one is included in (a distribution's nginx.conf
        // includes conf.d/*.conf inside http { } the same way); paths under the test's prefix.
        const tmp = path.join(prefix, 'tmp');
        writeFileSync(
          path.join(prefix, 'nginx.conf'),
          [
            'worker_processes 1;',
            `pid ${prefix}/nginx.pid;`,
            'events { worker_connections 512; }',
            'http {',
            ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
              (t) => `  ${t}_temp_path ${tmp}/${t};`,
            ),
            `  include ${prefix}/berth.conf;`,
            '}',
            '',
          ].join('\n'),
        );
        const log = path.join(prefix, 'logs', 'error.log');
        const nginx = startProcess('nginx', [
          '-c',
          path.join(prefix, 'nginx.conf'),
          '-p',
          prefix,
          '-e',
          log,
          '-g',
          `daemon off; error_log ${log};`,
        ]);
        const base = `http://127.0.0.1:${front}`;
        try {
          await waitFor(
            async () => (await call(base, 'GET', '/readyz').catch(() => null))?.status === 200,
            15_000,
          );

          const who = await spread(base, 'nginx-spread', 30);
          for (const i of [0, 1, 2]) {
            expect({ replica: i, answered: count(who, i) >= 5 }).toEqual({
              replica: i,
              answered: true,
            });
          }

          await streamsEvents(base, 'nginx');

          // A replica dies: its refused connection sends the request to the next replica.
          const dead = 2;
          const port = replicas[dead].port;
          await replicas[dead].kill();
          const after = await spread(base, 'nginx-after-kill', 12);
          expect(after.filter((w) => w === dead)).toEqual([]);
          expect(count(after, 0) + count(after, 1)).toBe(12);
          // The access log names the replica that answered (log_format berth).
          const access = readFileSync(path.join(prefix, 'logs', 'berth.access.log'), 'utf8');
          expect(access).toContain('id=nginx-after-kill-11');
          expect(access).toMatch(/upstream=127\.0\.0\.1:\d+ .*id=nginx-spread-0/);

          replicas[dead] = await startReplica(db.url, port);
        } finally {
          await nginx.stop();
        }
      },
      150_000,
    );

    (HAPROXY ? it : it.skip)(
      `HAProxy with deploy/haproxy/haproxy.cfg${HAPROXY ? '' : ' (skipped: haproxy not installed; apt-get install haproxy)'}`,
      async () => {
        const front = await freePort();
        const cfg = path.join(dir, 'haproxy.cfg');
        writeFileSync(
          cfg,
          materialise(
            'deploy/haproxy/haproxy.cfg',
            front,
            replicas.map((r) => r.port),
          ),
        );
        const check = spawnSync('haproxy', ['-c', '-f', cfg], { encoding: 'utf8' });
        expect(check.stdout + check.stderr).toContain('Configuration file is valid');
        const haproxy = startProcess('haproxy', ['-f', cfg, '-db']);
        const base = `http://127.0.0.1:${front}`;
        try {
          await waitFor(
            async () => (await call(base, 'GET', '/readyz').catch(() => null))?.status === 200,
            15_000,
          );

          const who = await spread(base, 'haproxy-spread', 30);
          for (const i of [0, 1, 2]) {
            expect({ replica: i, answered: count(who, i) >= 5 }).toEqual({
              replica: i,
              answered: true,
            });
          }
          // HAProxy's log line carries berth's request id (capture response header).
          await waitFor(() => haproxy.output().includes('{haproxy-spread-29}'), 10_000);

          await streamsEvents(base, 'haproxy');

          // A replica dies: requests meanwhile are redispatched, then the check takes it out.
          const dead = 1;
          const port = replicas[dead].port;
          await replicas[dead].kill();
          const meanwhile = await spread(base, 'haproxy-after-kill', 12);
          expect(count(meanwhile, 0) + count(meanwhile, 2)).toBe(12);
          await waitFor(() => haproxy.output().includes('berth_replicas/berth2 is DOWN'), 20_000);

          // Back: the check sees /readyz answer 200 twice and sends it requests again.
          replicas[dead] = await startReplica(db.url, port);
          await waitFor(() => haproxy.output().includes('berth_replicas/berth2 is UP'), 20_000);
          const back = await spread(base, 'haproxy-back', 12);
          expect(count(back, dead)).toBeGreaterThanOrEqual(2);
        } finally {
          await haproxy.stop();
        }
      },
      150_000,
    );
  },
);
