// The database a server runs on: DATABASE_URL, or embedded PostgreSQL (PGlite) in the data
// directory when it is unset; migrated and seeded with the standard classes and traits.
import type { DataSource } from 'typeorm';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { createDataSource } from './data-source';
import { type EmbeddedPg, startEmbeddedPg } from './embedded-pg';
import { seedStandard } from './seed';

/** An open, migrated database; `embedded` is set when berth started it. */
export interface OpenDatabase {
  readonly dataSource: DataSource;
  /** Where to LISTEN for other replicas' changes. */
  readonly listenUrl: string;
  readonly embedded: EmbeddedPg | undefined;
}

/**
 * Opens, migrates and seeds the configured database.
 * @throws when it cannot be reached or migrated (everything started is stopped first).
 */
export async function openDatabase(config: Config, log: Logger): Promise<OpenDatabase> {
  let embedded: EmbeddedPg | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPg(config.dataDir, { maxConnections: config.dbPoolSize + 2 });
    url = embedded.url;
    log.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  const dataSource = createDataSource({ url, poolSize: config.dbPoolSize });
  try {
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    await seedStandard(dataSource.manager);
  } catch (err) {
    await dataSource.destroy().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
  return { dataSource, listenUrl: url, embedded };
}
