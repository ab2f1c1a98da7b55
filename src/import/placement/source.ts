// Opens a Placement 8.0 database (PostgreSQL or MySQL/MariaDB) read-only, inside one consistent
// snapshot so every table is read as of the same moment while Placement keeps running.
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { redactUrl } from '../legacy-source';

/** A Placement database to read from. */
export interface PlacementSource {
  /** Where the rows come from, without credentials. */
  readonly description: string;
  /** Runs a plain SELECT (no parameters) and returns its rows. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Ends the snapshot and the connection. */
  close(): Promise<void>;
}

/** The tables `berth import placement` reads (placement/db/sqlalchemy/models.py). */
export const PLACEMENT_TABLES = [
  'resource_providers',
  'inventories',
  'allocations',
  'consumers',
  'projects',
  'users',
  'consumer_types',
  'resource_classes',
  'traits',
  'resource_provider_traits',
  'placement_aggregates',
  'resource_provider_aggregates',
] as const;

async function openPostgres(url: string): Promise<PlacementSource> {
  const client = new Client({ connectionString: url, application_name: 'berth-import-placement' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await checkPostgresTables(client, url);
  } catch (err) {
    await client.end();
    throw err;
  }
  return {
    description: redactUrl(url),
    async query(sql) {
      return (await client.query(sql)).rows as Record<string, unknown>[];
    },
    async close() {
      await client.end();
    },
  };
}

async function openMysql(url: string): Promise<PlacementSource> {
  const conn = await connectMysqlPlacement(url, [
    'SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ',
    'START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY',
  ]);
  return {
    description: redactUrl(url),
    async query(sql) {
      const [rows] = await conn.query(sql);
      return rows as Record<string, unknown>[];
    },
    async close() {
      await conn.end();
    },
  };
}

/** @throws Error naming the Placement tables missing at `url`. */
function missingOrThrow(missing: readonly string[], url: string): void {
  if (missing.length > 0) {
    throw new Error(
      `${redactUrl(url)} is not a Placement database: table(s) ${missing.join(', ')} not found (run placement-manage db sync there first?)`,
    );
  }
}

/** @throws Error naming the Placement tables missing in the PostgreSQL database of `client`. */
export async function checkPostgresTables(client: Client, url: string): Promise<void> {
  const res = await client.query<{ name: string }>(
    'SELECT t AS name FROM unnest($1::text[]) AS t WHERE to_regclass(t) IS NULL',
    [PLACEMENT_TABLES],
  );
  missingOrThrow(
    res.rows.map((r) => r.name),
    url,
  );
}

/**
 * Connects to the MySQL/MariaDB Placement database at `url` (numbers as numbers, dates as
 * strings), checks its tables, then runs `init` in order.
 * @throws Error naming missing tables, or the driver's error (the connection is closed then).
 */
export async function connectMysqlPlacement(
  url: string,
  init: readonly string[],
): Promise<mysql.Connection> {
  const conn = await mysql.createConnection({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    connectTimeout: 10_000,
    // Placement's ids and counts fit in a double; big numbers as numbers, not strings.
    supportBigNumbers: false,
    dateStrings: true,
  });
  try {
    const [rows] = await conn.query(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
    );
    const have = new Set((rows as { name: string }[]).map((r) => r.name.toLowerCase()));
    missingOrThrow(
      PLACEMENT_TABLES.filter((t) => !have.has(t)),
      url,
    );
    for (const sql of init) {
      await conn.query(sql);
    }
  } catch (err) {
    await conn.end();
    throw err;
  }
  return conn;
}

/**
 * Connects to the Placement database at `url` and opens a read-only snapshot.
 * @throws Error for another scheme, missing Placement tables, or the driver's connection error.
 */
export function openPlacementSource(url: string): Promise<PlacementSource> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    return openPostgres(url);
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    return openMysql(url);
  }
  return Promise.reject(
    new Error('--from must be a postgres://, postgresql://, mysql:// or mariadb:// URL'),
  );
}
