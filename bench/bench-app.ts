// The bench's app: a berth App over a fresh schema of its own on DATABASE_URL (or an in-memory
// embedded PGlite), migrated and seeded, with Redis (REDIS_URL) or the in-process cache; dropped
// after the scenario. Used by bench/main.ts.
import { createApp } from '../src/app/app';
import { MemoryCache } from '../src/cache/memory-cache';
import { RedisCache } from '../src/cache/redis-cache';
import { loadConfig } from '../src/config/config';
import { createDataSource } from '../src/db/data-source';
import { startEmbeddedPg } from '../src/db/embedded-pg';
import { seedStandard } from '../src/db/seed';
import { createLogger } from '../src/observability/logger';

export type BenchApp = Awaited<ReturnType<typeof createApp>>;

/** `withApp` for one bench run; `instrument` is the run's default (--no-instrument). */
export function appRunner(instrument: boolean) {
  return withApp;

  /**
   * Runs `fn` on an app over a fresh schema. `replica()` starts another app on the same schema,
   * cache prefix and change channel (closed by its caller).
   */
  async function withApp<T>(
    label: string,
    fn: (app: BenchApp, replica: (o?: { instrument?: boolean }) => Promise<BenchApp>) => Promise<T>,
    env: Record<string, string> = {},
  ): Promise<T> {
    const schema = `bench_${process.pid}_${label.replace(/\W/g, '_')}`;
    const embedded = process.env.DATABASE_URL
      ? undefined
      : await startEmbeddedPg('memory://', { maxConnections: 40 });
    const url = process.env.DATABASE_URL ?? embedded!.url;
    const admin = createDataSource({ url, poolSize: 1 });
    await admin.initialize();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.query(`CREATE SCHEMA ${schema}`);
    const ds = createDataSource({ url, schema, poolSize: 20 });
    await ds.initialize();
    await ds.runMigrations({ transaction: 'each' });
    await seedStandard(ds.manager);
    const newCache = () =>
      process.env.REDIS_URL
        ? new RedisCache(process.env.REDIS_URL, undefined, `${schema}:`)
        : new MemoryCache();
    const cache = newCache();
    // In-process bench: auth and the rate limit are off explicitly (the bench measures placement,
    // not token checks; the auth overhead is one cached map lookup + one SHA-256 per request).
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      BERTH_AUTH: 'off',
      BERTH_RATE_LIMIT: '0',
      ...env,
    });
    const app = await createApp(config, createLogger('silent'), {
      dataSource: ds,
      cache,
      changeChannel: `berth_changes_${schema}`,
      instrument,
    });
    const replica = (o: { instrument?: boolean } = {}) =>
      createApp(config, createLogger('silent'), {
        dataSource: ds,
        cache: newCache(),
        changeChannel: `berth_changes_${schema}`,
        instrument: o.instrument ?? instrument,
      });
    try {
      return await fn(app, replica);
    } finally {
      await app.close();
      await ds.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await ds.destroy();
      await admin.destroy();
      await embedded?.stop();
    }
  }
}
