// Placement 8.0 source databases for the `berth import placement` tests: a fresh PostgreSQL or
// MariaDB database whose schema is made by the real `placement-manage db sync` (PostgreSQL: once,
// into a template database that later databases are copied from), filled with plain SQL inserts
// shaped like what Placement writes (standard classes with id = os-resource-classes index,
// custom classes from 10000, consumers' allocations keyed by consumer uuid).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { STANDARD_RESOURCE_CLASSES } from '../../src/db/seed';
import { MARIADB_URL } from './mariadb-probe';

const run = promisify(execFile);

/** Where source PostgreSQL databases are created (an admin connection to any database). */
export const SOURCE_PG_URL =
  process.env.PLACEMENT_SOURCE_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const TEMPLATE = 'berth_placement80_tpl';

/** A provider to insert (parent by uuid; inventories by class name). */
export interface FixtureProvider {
  readonly uuid: string;
  readonly name: string;
  readonly generation?: number;
  readonly parent?: string;
  readonly inventories?: Record<
    string,
    {
      total: number;
      reserved?: number;
      minUnit?: number;
      maxUnit?: number;
      stepSize?: number;
      allocationRatio?: number;
    }
  >;
  readonly traits?: readonly string[];
  readonly aggregates?: readonly string[];
}

/** A consumer to insert; `project`/`user` are external ids, `type` a consumer type name. */
export interface FixtureConsumer {
  readonly uuid: string;
  readonly project: string;
  readonly user: string;
  readonly generation?: number;
  readonly type?: string;
  readonly allocations: readonly { provider: string; resourceClass: string; used: number }[];
}

/** What to put in a source database. */
export interface PlacementFixture {
  readonly providers: readonly FixtureProvider[];
  readonly consumers?: readonly FixtureConsumer[];
}

/** A scratch Placement database. */
export interface PlacementSourceDb {
  readonly kind: 'postgres' | 'mariadb';
  /** The `--from` URL. */
  readonly url: string;
  /** Runs SQL with `?` placeholders. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Inserts `fixture` (parents must precede children). */
  fill(fixture: PlacementFixture): Promise<void>;
  /** Closes and drops the database. */
  drop(): Promise<void>;
}

let seq = 0;

const SERIAL_TABLES = [
  'resource_classes',
  'traits',
  'placement_aggregates',
  'resource_providers',
  'projects',
  'users',
  'consumer_types',
];

function dbUrl(admin: string, name: string, scheme: string): string {
  const u = new URL(admin);
  return `${scheme}://${u.username}${u.password ? `:${u.password}` : ''}@${u.host}/${name}`;
}

/** Runs `placement-manage db sync` against a SQLAlchemy URL. @throws with its stderr. */
export async function placementDbSync(sqlalchemyUrl: string): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'placement-conf-'));
  try {
    const conf = path.join(dir, 'placement.conf');
    writeFileSync(conf, `[placement_database]\nconnection = ${sqlalchemyUrl}\n`);
    await run('placement-manage', ['--config-file', conf, 'db', 'sync'], { timeout: 120_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`placement-manage db sync failed: ${e.stderr?.trim() || e.message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function ensureTemplate(admin: Client): Promise<void> {
  const has = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEMPLATE]);
  if (has.rowCount) {
    return;
  }
  const tmp = `${TEMPLATE}_${process.pid}`;
  await admin.query(`DROP DATABASE IF EXISTS ${tmp}`);
  await admin.query(`CREATE DATABASE ${tmp}`);
  await placementDbSync(dbUrl(SOURCE_PG_URL, tmp, 'postgresql+psycopg2'));
  try {
    await admin.query(`ALTER DATABASE ${tmp} RENAME TO ${TEMPLATE}`);
  } catch {
    await admin.query(`DROP DATABASE IF EXISTS ${tmp}`); // another worker made it first
  }
}

/** A fresh Placement 8.0 database on PostgreSQL. */
export async function createPostgresPlacementSource(): Promise<PlacementSourceDb> {
  const name = `bps_${process.pid}_${++seq}_${Date.now() % 100000}`;
  const admin = new Client({ connectionString: SOURCE_PG_URL });
  await admin.connect();
  try {
    await ensureTemplate(admin);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE}`);
  } finally {
    await admin.end();
  }
  const url = dbUrl(SOURCE_PG_URL, name, 'postgresql');
  const client = new Client({ connectionString: url });
  await client.connect();
  const query = async (sql: string, params: unknown[] = []) => {
    let i = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++i}`),
        params,
      )
    ).rows;
  };
  const fill = async (f: PlacementFixture) => {
    await fillPlacement(query, f);
    // Rows went in with explicit ids: move the sequences past them, as MariaDB does by itself.
    for (const t of SERIAL_TABLES) {
      await query(
        `SELECT setval(pg_get_serial_sequence('${t}', 'id'), GREATEST((SELECT max(id) FROM ${t}), 1))`,
      );
    }
  };
  return sourceDb('postgres', url, query, fill, async () => {
    await client.end();
    const a = new Client({ connectionString: SOURCE_PG_URL });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  });
}

/** A fresh Placement 8.0 database on MariaDB (schema by db sync, ~2 s). */
export async function createMariadbPlacementSource(): Promise<PlacementSourceDb> {
  const name = `bps_${process.pid}_${++seq}_${Date.now() % 100000}`;
  const admin = await mysql.createConnection({ uri: MARIADB_URL });
  await admin.query(`CREATE DATABASE ${name}`);
  await placementDbSync(dbUrl(MARIADB_URL, name, 'mysql+pymysql'));
  const url = dbUrl(MARIADB_URL, name, 'mysql');
  const conn = await mysql.createConnection({ uri: url });
  // As Placement's own class sync does: an explicit id 0 (VCPU) is an id, not "next value".
  await conn.query("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')");
  const query = async (sql: string, params: unknown[] = []) =>
    (await conn.query(sql, params))[0] as Record<string, unknown>[];
  return sourceDb(
    'mariadb',
    url,
    query,
    (f) => fillPlacement(query, f),
    async () => {
      await conn.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  );
}

function sourceDb(
  kind: 'postgres' | 'mariadb',
  url: string,
  query: PlacementSourceDb['query'],
  fill: PlacementSourceDb['fill'],
  drop: () => Promise<void>,
): PlacementSourceDb {
  return { kind, url, query, drop, fill };
}

async function insertRows(
  query: PlacementSourceDb['query'],
  table: string,
  cols: readonly string[],
  rows: readonly unknown[][],
): Promise<void> {
  const per = Math.max(1, Math.floor(5000 / cols.length));
  for (let i = 0; i < rows.length; i += per) {
    const part = rows.slice(i, i + per);
    const values = part.map(() => `(${cols.map(() => '?').join(', ')})`).join(', ');
    await query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values}`, part.flat());
  }
}

/** Inserts `f` into a synced Placement database through `query` (`?` placeholders). */
export async function fillPlacement(
  query: PlacementSourceDb['query'],
  f: PlacementFixture,
): Promise<void> {
  const ids = (xs: Iterable<string>, start = 1) =>
    new Map([...new Set(xs)].map((x, i) => [x, i + start]));
  const consumers = f.consumers ?? [];
  // deploy.update_database: standard classes with id = list index; custom ones from 10000.
  const custom = [
    ...new Set([
      ...f.providers.flatMap((p) => Object.keys(p.inventories ?? {})),
      ...consumers.flatMap((c) => c.allocations.map((a) => a.resourceClass)),
    ]),
  ].filter((n) => !STANDARD_RESOURCE_CLASSES.includes(n));
  const classes = new Map([
    ...STANDARD_RESOURCE_CLASSES.map((n, i) => [n, i] as const),
    ...custom.map((n, i) => [n, 10000 + i] as const),
  ]);
  await insertRows(
    query,
    'resource_classes',
    ['id', 'name'],
    [...classes].map(([n, id]) => [id, n]),
  );
  const traits = ids(f.providers.flatMap((p) => p.traits ?? []));
  await insertRows(
    query,
    'traits',
    ['id', 'name'],
    [...traits].map(([n, id]) => [id, n]),
  );
  const aggs = ids(f.providers.flatMap((p) => p.aggregates ?? []));
  await insertRows(
    query,
    'placement_aggregates',
    ['id', 'uuid'],
    [...aggs].map(([u, id]) => [id, u]),
  );
  const rp = ids(f.providers.map((p) => p.uuid));
  const rootOf = new Map<string, string>();
  for (const p of f.providers) {
    rootOf.set(p.uuid, p.parent ? rootOf.get(p.parent)! : p.uuid);
  }
  await insertRows(
    query,
    'resource_providers',
    ['id', 'uuid', 'name', 'generation', 'root_provider_id', 'parent_provider_id'],
    f.providers.map((p) => [
      rp.get(p.uuid),
      p.uuid,
      p.name,
      p.generation ?? 1,
      rp.get(rootOf.get(p.uuid)!),
      p.parent ? rp.get(p.parent) : null,
    ]),
  );
  await insertRows(
    query,
    'inventories',
    [
      'resource_provider_id',
      'resource_class_id',
      'total',
      'reserved',
      'min_unit',
      'max_unit',
      'step_size',
      'allocation_ratio',
    ],
    f.providers.flatMap((p) =>
      Object.entries(p.inventories ?? {}).map(([rc, i]) => [
        rp.get(p.uuid),
        classes.get(rc),
        i.total,
        i.reserved ?? 0,
        i.minUnit ?? 1,
        i.maxUnit ?? i.total,
        i.stepSize ?? 1,
        i.allocationRatio ?? 1,
      ]),
    ),
  );
  await insertRows(
    query,
    'resource_provider_traits',
    ['resource_provider_id', 'trait_id'],
    f.providers.flatMap((p) => (p.traits ?? []).map((t) => [rp.get(p.uuid), traits.get(t)])),
  );
  await insertRows(
    query,
    'resource_provider_aggregates',
    ['resource_provider_id', 'aggregate_id'],
    f.providers.flatMap((p) => (p.aggregates ?? []).map((a) => [rp.get(p.uuid), aggs.get(a)])),
  );
  const projects = ids(consumers.map((c) => c.project));
  const users = ids(consumers.map((c) => c.user));
  const types = ids(consumers.flatMap((c) => (c.type ? [c.type] : [])));
  await insertRows(
    query,
    'projects',
    ['id', 'external_id'],
    [...projects].map(([e, id]) => [id, e]),
  );
  await insertRows(
    query,
    'users',
    ['id', 'external_id'],
    [...users].map(([e, id]) => [id, e]),
  );
  await insertRows(
    query,
    'consumer_types',
    ['id', 'name'],
    [...types].map(([n, id]) => [id, n]),
  );
  await insertRows(
    query,
    'consumers',
    ['uuid', 'project_id', 'user_id', 'generation', 'consumer_type_id'],
    consumers.map((c) => [
      c.uuid,
      projects.get(c.project),
      users.get(c.user),
      c.generation ?? 1,
      c.type ? types.get(c.type) : null,
    ]),
  );
  await insertRows(
    query,
    'allocations',
    ['resource_provider_id', 'consumer_id', 'resource_class_id', 'used'],
    consumers.flatMap((c) =>
      c.allocations.map((a) => [rp.get(a.provider), c.uuid, classes.get(a.resourceClass), a.used]),
    ),
  );
}

/** Deletes every row a fixture inserts (both dialects; the self-references unlinked first). */
export async function clearPlacement(query: PlacementSourceDb['query']): Promise<void> {
  await query('UPDATE resource_providers SET parent_provider_id = NULL, root_provider_id = NULL');
  for (const table of [
    'allocations',
    'consumers',
    'inventories',
    'resource_provider_traits',
    'resource_provider_aggregates',
    'resource_providers',
    'placement_aggregates',
    'projects',
    'users',
    'consumer_types',
    'resource_classes',
    'traits',
  ]) {
    await query(`DELETE FROM ${table}`);
  }
}
