// Test databases: one fresh schema per test file (unique per process), migrated and seeded.

import type { DataSource, Logger as TypeOrmLogger } from 'typeorm';
import { createDataSource } from '../../src/db/data-source';
import { seedStandard } from '../../src/db/seed';

let counter = 0;

/** True when tests run on embedded PGlite rather than a real PostgreSQL server. */
export const onEmbedded = (): boolean => process.env.BERTH_TEST_EMBEDDED === '1';

/**
 * `it` for a test that needs real PostgreSQL (concurrency PGlite cannot give): on the embedded
 * database it is `it.skip`, so the run reports it as skipped, never as passed.
 */
export const realPostgresIt: typeof it = onEmbedded() ? it.skip : it;

/** The URL globalSetup chose (on the embedded path, this jest worker's own PGlite). */
export function testDatabaseUrl(): string {
  const worker = process.env.JEST_WORKER_ID;
  const url =
    (worker && process.env[`BERTH_TEST_DATABASE_URL_${worker}`]) ||
    process.env.BERTH_TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      'BERTH_TEST_DATABASE_URL unset: run integration tests through jest (globalSetup)',
    );
  }
  return url;
}

/** The test database URL with `schema` as the connection's search_path (for a CLI process). */
export function schemaUrl(schema: string): string {
  const url = new URL(testDatabaseUrl());
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** A migrated, seeded DataSource on its own schema; `drop()` removes the schema. */
export interface TestDb {
  readonly dataSource: DataSource;
  readonly schema: string;
  drop(): Promise<void>;
}

/** Creates a fresh schema, migrates it and seeds standard classes and traits. */
export async function createTestDb(
  opts: { migrate?: boolean; logger?: TypeOrmLogger; poolSize?: number } = {},
): Promise<TestDb> {
  const url = testDatabaseUrl();
  counter += 1;
  const schema = `t_${process.pid}_${process.env.JEST_WORKER_ID ?? '0'}_${counter}`;
  const admin = createDataSource({ url, poolSize: 1 });
  await admin.initialize();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.destroy();
  const dataSource = createDataSource({
    url,
    schema,
    poolSize: opts.poolSize ?? (onEmbedded() ? 4 : 10),
    logger: opts.logger,
  });
  await dataSource.initialize();
  if (opts.migrate !== false) {
    await dataSource.runMigrations({ transaction: 'each' });
    await seedStandard(dataSource.manager);
  }
  return {
    dataSource,
    schema,
    async drop() {
      if (dataSource.isInitialized) {
        await dataSource.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await dataSource.destroy();
      }
    },
  };
}
