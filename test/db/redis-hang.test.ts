// A hung Redis (SIGSTOP: connections stay open, nothing answers) must not stall berth: GraphQL,
// REST and /readyz answer while it is stopped (cache misses, rate limit fails open) and /readyz
// reports the cache degraded; after SIGCONT the cache is used again. Uses a private
// redis-server of its own, so stopping it touches nothing else.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, createApp } from '../../src/app/app';
import { RedisCache } from '../../src/cache/redis-cache';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/observability/logger';
import { freePort } from '../support/cli';
import { createTestDb, type TestDb } from '../support/db';

const haveRedis = spawnSync('redis-server', ['--version']).status === 0;
if (!haveRedis) {
  process.stdout.write('[berth tests] redis-server not installed: hung-Redis test skipped\n');
}
const itWithRedis = haveRedis ? it : it.skip;

/** Resolves with the value, or 'hung' when it has not settled after `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'hung'> {
  return Promise.race([p, new Promise<'hung'>((r) => setTimeout(() => r('hung'), ms))]);
}

describe('hung Redis', () => {
  let redis: ChildProcess | undefined;
  let db: TestDb;
  let app: App;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    if (!haveRedis) {
      return;
    }
    const port = await freePort();
    redis = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    const cache = new RedisCache(`redis://127.0.0.1:${port}`, undefined, 'hang:', {
      commandTimeoutMs: 200,
      cooldownMs: 1000,
    });
    for (let i = 0; i < 50 && !(await cache.healthy()); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    db = await createTestDb();
    app = await createApp(
      loadConfig({ NODE_ENV: 'test', BERTH_REST_AUTH: 'noauth2', BERTH_RATE_LIMIT: '1000' }),
      createLogger('silent'),
      { dataSource: db.dataSource, cache, changeChannel: `h_${db.schema}` },
    );
    server = createHttpServer((req, res) => app.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (!haveRedis) {
      return;
    }
    redis?.kill('SIGCONT');
    redis?.kill('SIGKILL');
    await new Promise((resolve) => server.close(resolve));
    await app.close();
    await db.drop();
  });

  const graphql = () =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"{ resourceClasses { name } }"}',
    }).then((r) => r.status);
  const rest = () =>
    fetch(`${base}/placement/resource_providers`, {
      headers: { 'x-auth-token': 'admin', accept: 'application/json' },
    }).then((r) => r.status);
  const readyz = () =>
    fetch(`${base}/readyz`).then(async (r) => ({
      status: r.status,
      cache: ((await r.json()) as { checks: { cache: string } }).checks.cache,
    }));

  itWithRedis(
    'serves GraphQL, REST and /readyz while Redis is stopped, and recovers',
    async () => {
      expect(await graphql()).toBe(200);
      expect((await readyz()).cache).toBe('redis ok');

      redis!.kill('SIGSTOP');
      // Generous bounds: this checks that nothing waits on Redis indefinitely, not speed.
      for (let i = 0; i < 5; i++) {
        expect(await within(graphql(), 5000)).toBe(200);
        expect(await within(rest(), 5000)).toBe(200);
      }
      expect(await within(readyz(), 5000)).toEqual({
        status: 200,
        cache: 'redis down (degraded: uncached)',
      });

      redis!.kill('SIGCONT');
      await new Promise((r) => setTimeout(r, 1200)); // past the breaker's cool-down
      expect(await graphql()).toBe(200);
      expect((await readyz()).cache).toBe('redis ok');
    },
    60_000,
  );
});
