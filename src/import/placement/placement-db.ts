// Connecting to a Placement 8.0 database (PostgreSQL or MySQL/MariaDB) and checking that it is
// one: shared by the importer (source.ts, read-only snapshot) and the exporter (target.ts, one
// write transaction).
import type { Connection as MysqlConnection } from 'mysql2/promise';
import type { Client } from 'pg';
import { redactUrl } from '../legacy-source';

/**
 * The tables `berth import placement` reads and `berth export placement` writes
 * (placement/db/sqlalchemy/models.py).
 */
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
): Promise<MysqlConnection> {
  // Loaded here: the driver costs every process that never imports from MariaDB ~70 ms.
  const { default: mysql } = await import('mysql2/promise');
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
