// Consumers, projects, users and consumer types (upstream: objects/consumer.py, project.py,
// user.py, consumer_type.py, handlers/util.py ensure_consumer).
import type { EntityManager } from 'typeorm';
import { BadRequestError } from './errors';
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
    );
  }
}

async function upsertNames(
  em: EntityManager,
  table: 'projects' | 'users',
  col: string,
  names: string[],
) {
  const unique = [...new Set(names)].sort();
  if (unique.length === 0) {
    return new Map<string, number>();
  }
  // One round trip: rows this statement inserts come from RETURNING, existing ones from the
  // table. A row another transaction committed while this INSERT waited on it is not in this
  // statement's snapshot; then the names are read again in a statement of their own.
  const rows: { id: number; name: string }[] = await em.query(
    `WITH wanted AS (SELECT unnest($1::text[]) AS name),
          added AS (INSERT INTO ${table} (${col}) SELECT name FROM wanted
                    ON CONFLICT (${col}) DO NOTHING RETURNING id, ${col} AS name)
     SELECT id, name FROM added
     UNION ALL SELECT t.id, t.${col} AS name FROM ${table} t JOIN wanted w ON w.name = t.${col}`,
    [unique],
  );
  if (new Set(rows.map((r) => r.name)).size < unique.length) {
    const again: { id: number; name: string }[] = await em.query(
      `SELECT id, ${col} AS name FROM ${table} WHERE ${col} = ANY($1::text[])`,
      [unique],
    );
    return new Map(again.map((r) => [r.name, r.id]));
  }
  return new Map(rows.map((r) => [r.name, r.id]));
}

/** Ensures projects exist; external id -> internal id. */
export function ensureProjects(em: EntityManager, ids: string[]): Promise<Map<string, number>> {
  return upsertNames(em, 'projects', 'external_id', ids);
}

/** Ensures users exist; external id -> internal id. */
export function ensureUsers(em: EntityManager, ids: string[]): Promise<Map<string, number>> {
  return upsertNames(em, 'users', 'external_id', ids);
}

/** Ensures consumer types exist; name -> id (one round trip, as {@link upsertNames}). */
export async function ensureConsumerTypes(
  em: EntityManager,
  names: string[],
): Promise<Map<string, number>> {
  const unique = [...new Set(names)].sort();
  if (unique.length === 0) {
    return new Map();
  }
  const rows: { id: number; name: string }[] = await em.query(
    `WITH wanted AS (SELECT unnest($1::text[]) AS name),
          added AS (INSERT INTO consumer_types (name) SELECT name FROM wanted
                    ON CONFLICT (name) DO NOTHING RETURNING id, name)
     SELECT id, name FROM added
     UNION ALL SELECT t.id, t.name FROM consumer_types t JOIN wanted w ON w.name = t.name`,
    [unique],
  );
  if (new Set(rows.map((r) => r.name)).size < unique.length) {
    const again: { id: number; name: string }[] = await em.query(
      'SELECT id, name FROM consumer_types WHERE name = ANY($1::text[])',
      [unique],
    );
    return new Map(again.map((r) => [r.name, r.id]));
  }
  return new Map(rows.map((r) => [r.name, r.id]));
}
