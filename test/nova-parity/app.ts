// Nova parity harness: a berth App on a fresh, migrated and seeded schema of `url` (dropped by
// close()), outside jest (test/support/app.ts needs jest's globals). Same wiring as that helper:
// auth and rate limit off, the in-process cache, LISTEN/NOTIFY on a channel of its own; berth's
// log is silent unless NOVA_PARITY_LOG names a level (error, warn, ...).
import type { App } from '../../src/app/app';
import { createApp } from '../../src/app/app';
import { MemoryCache } from '../../src/cache/memory-cache';
import { loadConfig } from '../../src/config/config';
import { createDataSource } from '../../src/db/data-source';
import { seedStandard } from '../../src/db/seed';
import { createLogger } from '../../src/observability/logger';

export interface ParityApp {
  readonly app: App;
  close(): Promise<void>;
}

/** Starts an App on schema `nova_parity_<pid>` of `url`; `env` adds configuration variables. */
export async function startApp(url: string, env: Record<string, string>): Promise<ParityApp> {
  const schema = `nova_parity_${process.pid}`;
  const admin = createDataSource({ url, poolSize: 1 });
  await admin.initialize();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.destroy();
  const dataSource = createDataSource({ url, schema, poolSize: 8 });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await seedStandard(dataSource.manager);
  const config = loadConfig({
    NODE_ENV: 'test',
    BERTH_AUTH: 'off',
    BERTH_RATE_LIMIT: '0',
    ...env,
  });
  const app = await createApp(config, createLogger(process.env.NOVA_PARITY_LOG ?? 'silent'), {
    dataSource,
    cache: new MemoryCache(),
    changeChannel: `berth_changes_${schema}`,
    listenUrl: url,
  });
  return {
    app,
    async close() {
      await app.close();
      if (dataSource.isInitialized) {
        await dataSource.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await dataSource.destroy();
      }
    },
  };
}
