// Opens a Placement 8.0 database (PostgreSQL or MySQL/MariaDB) read-only, inside one consistent
// snapshot so every table is read as of the same moment while Placement keeps running.
import { Client } from 'pg';
import { redactUrl } from '../legacy-source';
import { checkPostgresTables, connectMysqlPlacement } from './placement-db';

/** A Placement database to read from. */
export interface PlacementSource {
  /** Where the rows come from, without credentials. */
  readonly description: string;
  /** Runs a plain SELECT (no parameters) and returns its rows. */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** Ends the snapshot and the connection. */
  close(): Promise<void>;
}

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
