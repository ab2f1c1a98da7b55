// Opens a Placement 8.0 database (PostgreSQL or MySQL/MariaDB, schema by `placement-manage db
// sync`) for writing, inside one transaction: `berth export placement` commits it at the end
// or not at all.
import { Client } from 'pg';
import { redactUrl } from '../legacy-source';
import { checkPostgresTables, connectMysqlPlacement } from './placement-db';

/** A Placement database to write to, in an open transaction. */
export interface PlacementTarget {
  /** Where the rows go, without credentials. */
  readonly description: string;
  readonly dialect: 'postgres' | 'mysql';
  /** Runs one statement written with `?` placeholders; returns its rows (none for writes). */
  query(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /** Commits everything written. */
  commit(): Promise<void>;
  /** Rolls back whatever is not committed and closes the connection. */
  close(): Promise<void>;
}

async function openPostgres(url: string): Promise<PlacementTarget> {
  const client = new Client({ connectionString: url, application_name: 'berth-export-placement' });
  await client.connect();
  const query = async (sql: string, params: readonly unknown[] = []) => {
    let i = 0;
    const text = sql.replace(/\?/g, () => `$${++i}`);
    return (await client.query(text, params as unknown[])).rows as Record<string, unknown>[];
  };
  try {
    await checkPostgresTables(client, url);
    await client.query('BEGIN');
  } catch (err) {
    await client.end();
    throw err;
  }
  return {
    description: redactUrl(url),
    dialect: 'postgres',
    query,
    async commit() {
      await client.query('COMMIT');
    },
    async close() {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    },
  };
}

async function openMysql(url: string): Promise<PlacementTarget> {
  const conn = await connectMysqlPlacement(url, [
    // As Placement's own class sync does: an explicit id 0 (VCPU) is an id, not "next value".
    "SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')",
    'START TRANSACTION',
  ]);
  return {
    description: redactUrl(url),
    dialect: 'mysql',
    async query(sql, params = []) {
      const [rows] = await conn.query(sql, params as unknown[]);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    async commit() {
      await conn.query('COMMIT');
    },
    async close() {
      await conn.query('ROLLBACK').catch(() => undefined);
      await conn.end();
    },
  };
}

/**
 * Connects to the Placement database at `url` and opens a transaction.
 * @throws Error for another scheme, missing Placement tables, or the driver's connection error.
 */
export function openPlacementTarget(url: string): Promise<PlacementTarget> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    return openPostgres(url);
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    return openMysql(url);
  }
  return Promise.reject(
    new Error('--to must be a postgres://, postgresql://, mysql:// or mariadb:// URL'),
  );
}
