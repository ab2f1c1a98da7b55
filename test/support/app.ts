// A full berth App over a fresh test schema, with Redis (REDIS_URL) or the in-process cache.
import { randomUUID } from 'node:crypto';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { type App, createApp } from '../../src/app/app';
import type { Cache } from '../../src/cache/cache';
import { MemoryCache } from '../../src/cache/memory-cache';
import { RedisCache } from '../../src/cache/redis-cache';
import { loadConfig } from '../../src/config/config';
import { createLogger, type Logger } from '../../src/observability/logger';
import { createTestDb, type TestDb, testDatabaseUrl } from './db';

/** An App plus the test database under it. */
export interface TestApp {
  readonly app: App;
  readonly db: TestDb;
  close(): Promise<void>;
}

/** A Redis cache in its own key namespace when REDIS_URL is set, else an in-process LRU. */
export function createTestCache(): Cache {
  const url = process.env.REDIS_URL;
  return url
    ? new RedisCache(url, undefined, `test:${process.pid}:${randomUUID()}:`)
    : new MemoryCache();
}

/**
 * Starts an App on a fresh schema. `env` overrides configuration variables; `opts.dbLogger`
 * sees every SQL statement (query counting); `opts.logger` replaces the silent logger.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: { dbLogger?: TypeOrmLogger; logger?: Logger } = {},
): Promise<TestApp> {
  const db = await createTestDb({ logger: opts.dbLogger });
  // Explicit, so the suite does not depend on the DATABASE_URL default: existing tests run with
  // auth and the rate limit off; test/api/auth*.test.ts turn them on (BERTH_AUTH=on).
  const config = loadConfig({
    NODE_ENV: 'test',
    BERTH_AUTH: 'off',
    BERTH_RATE_LIMIT: '0',
    ...env,
  });
  const app = await createApp(config, opts.logger ?? createLogger('silent'), {
    dataSource: db.dataSource,
    cache: createTestCache(),
    changeChannel: `berth_changes_${db.schema}`,
    listenUrl: testDatabaseUrl(),
  });
  return {
    app,
    db,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}
