// Builds TypeORM DataSources for PostgreSQL (real server or embedded PGlite over the wire protocol).
import { types } from 'pg';
import { DataSource, type MigrationInterface, type Logger as TypeOrmLogger } from 'typeorm';
import { migrations } from '../../migrations/index';
import { entities } from './entities/index';

// COUNT(*) and SUM() come back as int8/numeric strings by default; berth's numbers fit in doubles.
types.setTypeParser(20, (v) => Number.parseInt(v, 10));
types.setTypeParser(1700, (v) => Number.parseFloat(v));

/** Options for {@link createDataSource}. */
export interface DataSourceOptions {
  /** postgres:// URL. */
  readonly url: string;
  /** Schema to use instead of public (tests: one schema per worker). */
  readonly schema?: string;
  /** Connection pool size. */
  readonly poolSize?: number;
  /** Optional TypeORM logger (tests count queries with one). */
  readonly logger?: TypeOrmLogger;
  /** The migrations to run instead of berth's (tests of the embedded template). */
  readonly migrations?: readonly (new () => MigrationInterface)[];
}

/** Creates (does not initialise) a DataSource with berth's entities and migrations. */
export function createDataSource(opts: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    schema: opts.schema,
    entities,
    migrations: opts.migrations ? [...opts.migrations] : migrations,
    migrationsTableName: 'berth_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: opts.logger ? ['query', 'error'] : false,
    logger: opts.logger,
    applicationName: 'berth',
    extra: {
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: 10000,
      // TCP keepalive: a connection to a server that vanished without a reset (a hung or
      // partitioned primary) is noticed and dropped by the pool instead of hanging forever.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10000,
      // search_path makes raw, unqualified SQL land in the chosen schema too. Set per connection
      // (PGlite's socket server ignores the startup `options` parameter).
      ...(opts.schema
        ? {
            onConnect: (client: { query(sql: string): Promise<unknown> }) =>
              client.query(`SET search_path TO ${opts.schema}`),
          }
        : {}),
    },
  });
}
