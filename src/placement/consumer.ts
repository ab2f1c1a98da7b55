// Consumers, projects, users and consumer types (upstream: objects/consumer.py, project.py,
// user.py, consumer_type.py, handlers/util.py ensure_consumer).
import type { DataSource, EntityManager } from 'typeorm';
import { BadRequestError, ErrorCode } from './errors';
import type { ConsumerRecord } from './types';

/** Project/user Placement records for consumers written without them (before 1.8). */
export const INCOMPLETE_CONSUMER_ID = '00000000-0000-0000-0000-000000000000';
/** Consumer type reported for consumers written without one. */
export const UNKNOWN_CONSUMER_TYPE = 'unknown';
const CONSUMER_TYPE_RE = /^[A-Z0-9_]+$/;

/** SELECT for consumer records (alias c). */
export const CONSUMER_SELECT = `
  SELECT c.id, c.uuid, p.external_id AS project_id, u.external_id AS user_id,
         COALESCE(ct.name, '${UNKNOWN_CONSUMER_TYPE}') AS consumer_type, c.generation, c.updated_at
  FROM consumers c JOIN projects p ON p.id = c.project_id JOIN users u ON u.id = c.user_id
  LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id`;

interface ConsumerRow {
  id: number;
  uuid: string;
  project_id: string;
  user_id: string;
  consumer_type: string;
  generation: number;
  updated_at: Date;
}

/** Converts a {@link CONSUMER_SELECT} row. */
export function toConsumerRecord(r: ConsumerRow): ConsumerRecord {
  return {
    id: r.id,
    uuid: r.uuid,
    projectId: r.project_id,
    userId: r.user_id,
    consumerType: r.consumer_type,
    generation: r.generation,
    updatedAt: r.updated_at,
  };
}

/** Consumers by uuid (missing ones absent). */
export async function consumersByUuid(
  em: EntityManager,
  uuids: readonly string[],
): Promise<Map<string, ConsumerRecord>> {
  const rows: ConsumerRow[] = await em.query(`${CONSUMER_SELECT} WHERE c.uuid = ANY($1::uuid[])`, [
    uuids,
  ]);
  return new Map(rows.map((r) => [r.uuid, toConsumerRecord(r)]));
}

/** Consumers by internal id, in order (null where missing). */
/** One of the consumers `uuids` that belongs to a project other than `project`, or undefined. */
export async function consumerOfAnotherProject(
  ds: DataSource | EntityManager,
  uuids: readonly string[],
  project: string,
): Promise<string | undefined> {
  const rows: { uuid: string }[] = await ds.query(
    `SELECT c.uuid FROM consumers c JOIN projects p ON p.id = c.project_id
     WHERE c.uuid = ANY($1::uuid[]) AND p.external_id <> $2 LIMIT 1`,
    [uuids, project],
  );
  return rows[0]?.uuid;
}

export async function consumersById(
  em: EntityManager,
  ids: readonly number[],
): Promise<(ConsumerRecord | null)[]> {
  const rows: ConsumerRow[] = await em.query(`${CONSUMER_SELECT} WHERE c.id = ANY($1::int[])`, [
    ids,
  ]);
  const map = new Map(rows.map((r) => [r.id, toConsumerRecord(r)]));
  return ids.map((id) => map.get(id) ?? null);
}

/** Checks a consumer type name (1.38: ^[A-Z0-9_]+$, ≤ 255). @throws BadRequestError. */
export function assertConsumerTypeOrThrow(name: string): void {
  if (name.length === 0 || name.length > 255 || !CONSUMER_TYPE_RE.test(name)) {
    throw new BadRequestError(
      `Invalid consumer_type '${name}': it must match ^[A-Z0-9_]+$ and be 1 to 255 characters.`,
      ErrorCode.INVALID_NAME,
    );
  }
}

/** A name table of consumer owners: projects, users (external_id) and consumer types (name). */
type NameTable =
  | { table: 'projects' | 'users'; col: 'external_id' }
  | {
      table: 'consumer_types';
      col: 'name';
    };
const PROJECTS: NameTable = { table: 'projects', col: 'external_id' };
const USERS: NameTable = { table: 'users', col: 'external_id' };
const CONSUMER_TYPES: NameTable = { table: 'consumer_types', col: 'name' };

/**
 * Ensures names exist in several name tables in one round trip; name -> id per table. Rows this
 * statement inserts come from RETURNING, existing ones from the table. A row another transaction
 * committed while this INSERT waited on it is not in this statement's snapshot; then that
 * table's names are read again in a statement of their own.
 */
async function upsertNames(
  em: EntityManager,
  wanted: readonly { t: NameTable; names: readonly string[] }[],
): Promise<Map<string, number>[]> {
  const sets = wanted.map((w) => ({ t: w.t, names: [...new Set(w.names)].sort() }));
  const live = sets.flatMap((s, i) => (s.names.length > 0 ? [{ ...s, i }] : []));
  const out = sets.map(() => new Map<string, number>());
  if (live.length === 0) {
    return out;
  }
  const ctes = live.map(
    ({ t, i }, n) =>
      `w${i} AS (SELECT unnest($${n + 1}::text[]) AS name),
       a${i} AS (INSERT INTO ${t.table} (${t.col}) SELECT name FROM w${i}
                 ON CONFLICT (${t.col}) DO NOTHING RETURNING id, ${t.col} AS name)`,
  );
  const selects = live.map(
    ({ t, i }) =>
      `SELECT ${i} AS k, id, name FROM a${i}
       UNION ALL SELECT ${i}, x.id, x.${t.col} FROM ${t.table} x JOIN w${i} ON w${i}.name = x.${t.col}`,
  );
  const rows: { k: number; id: number; name: string }[] = await em.query(
    `WITH ${ctes.join(',\n')}\n${selects.join('\nUNION ALL ')}`,
    live.map((l) => l.names),
  );
  for (const r of rows) {
    out[r.k]!.set(r.name, r.id);
  }
  for (const { t, names, i } of live) {
    if (out[i]!.size < names.length) {
      const again: { id: number; name: string }[] = await em.query(
        `SELECT id, ${t.col} AS name FROM ${t.table} WHERE ${t.col} = ANY($1::text[])`,
        [names],
      );
      out[i] = new Map(again.map((r) => [r.name, r.id]));
    }
  }
  return out;
}

/** Project, user and consumer-type ids of an allocation write. */
export interface OwnerIds {
  readonly projects: ReadonlyMap<string, number>;
  readonly users: ReadonlyMap<string, number>;
  readonly types: ReadonlyMap<string, number>;
}

/** Ensures projects, users and consumer types exist, in one round trip. */
export async function ensureOwners(
  em: EntityManager,
  projects: readonly string[],
  users: readonly string[],
  types: readonly string[],
): Promise<OwnerIds> {
  const [p, u, t] = await upsertNames(em, [
    { t: PROJECTS, names: projects },
    { t: USERS, names: users },
    { t: CONSUMER_TYPES, names: types },
  ]);
  return { projects: p!, users: u!, types: t! };
}

/**
 * The root providers (hosts) each of `uuids` has allocations on; consumers without allocations
 * (or unknown) are absent. Uuids must be canonical.
 */
export async function hostsOfConsumers(
  ds: DataSource,
  uuids: readonly string[],
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (uuids.length === 0) {
    return out;
  }
  const rows: { consumer: string; host: string }[] = await ds.query(
    `SELECT DISTINCT c.uuid AS consumer, r.uuid AS host
     FROM consumers c
     JOIN allocations a ON a.consumer_id = c.id
     JOIN resource_providers p ON p.id = a.resource_provider_id
     JOIN resource_providers r ON r.id = p.root_provider_id
     WHERE c.uuid = ANY($1::uuid[])
     ORDER BY 1, 2`,
    [uuids],
  );
  for (const { consumer, host } of rows) {
    const hosts = out.get(consumer);
    if (hosts) {
      hosts.push(host);
    } else {
      out.set(consumer, [host]);
    }
  }
  return out;
}
