// Opening the database: DATABASE_URL, or embedded PostgreSQL (PGlite) in the data directory when
// it is unset. The server also migrates and seeds it; CLI commands connect through the same core
// (src/cli/database.ts).

import type { DataSource } from 'typeorm';
import type { Config } from '../config/config';
import type { Logger } from '../observability/logger';
import { createDataSource } from './data-source';
import { serverPool, takeEarly, templateFor } from './embedded-early';
import { type EmbeddedPg, startEmbeddedPg } from './embedded-pg';
import { migrateDatabase } from './migrate';
import { seedStandard } from './seed';

/** A connected database; `embedded` is set when berth started it. */
export interface ConnectedDatabase {
  readonly dataSource: DataSource;
  /** The URL connected to (where to LISTEN for other replicas' changes). */
  readonly url: string;
  readonly embedded: EmbeddedPg | undefined;
}

/**
 * An initialised DataSource on `url`, or on PGlite started in `dataDir` when `url` is unset.
 * @throws when it cannot connect (a PGlite it started is stopped first).
 */
export async function connectDatabase(
  url: string | undefined,
  dataDir: string,
  pool: { readonly poolSize: number; readonly maxConnections: number },
  initialise?: (pgdata: string) => Promise<void>,
): Promise<ConnectedDatabase> {
  const early = url ? undefined : takeEarly(dataDir);
  const embedded = url
    ? undefined
    : await (early ??
        startEmbeddedPg(dataDir, { maxConnections: pool.maxConnections, initialise }));
  const target = url ?? embedded!.url;
  const dataSource = createDataSource({ url: target, poolSize: pool.poolSize });
  try {
    await dataSource.initialize();
  } catch (err) {
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
  return { dataSource, url: target, embedded };
}

/**
 * Connects the server to the configured database, then (unless `opts.migrate` is false: cluster
 * workers, whose primary did it once before forking) migrates it and seeds the standard classes
 * and traits.
 * @throws when it cannot be reached or migrated (everything started is stopped first).
 */
export async function openServerDatabase(
  config: Config,
  log: Logger,
  opts: { readonly migrate?: boolean } = {},
): Promise<ConnectedDatabase> {
  const db = await connectDatabase(
    config.databaseUrl,
    config.dataDir,
    serverPool(config),
    opts.migrate === false || config.databaseUrl ? undefined : templateFor(log),
  );
  if (db.embedded) {
    log.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  if (opts.migrate === false) {
    return db;
  }
  try {
    await migrateDatabase(db.dataSource);
    await seedStandard(db.dataSource.manager);
  } catch (err) {
    await db.dataSource.destroy().catch(() => undefined);
    await db.embedded?.stop().catch(() => undefined);
    throw err;
  }
  return db;
}

/**
 * Migrates and seeds the configured database, then disconnects: what the primary of `berth serve
 * --workers N` does once before forking, so that N workers do not race to migrate.
 * @throws as {@link openServerDatabase}.
 */
export async function prepareServerDatabase(config: Config, log: Logger): Promise<void> {
  const db = await openServerDatabase(config, log);
  await db.dataSource.destroy();
  await db.embedded?.stop();
}
