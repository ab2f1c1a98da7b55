// Reading and pruning the audit trail (berth extension): the listing behind `berth audit log`
// and the GraphQL `auditEvents` connection, newest first, and the retention prune the serve
// process runs on a timer (src/server/audit-prune.ts).
import type { DataSource } from 'typeorm';
import { rowsOf } from '../db/rows';
import { BadRequestError, ErrorCode } from './errors';
import { normalizeUuidOrThrow } from './uuid';

/** One audit event as read back. */
export interface AuditEventRecord {
  readonly id: number;
  readonly createdAt: Date;
  readonly requestId: string | null;
  readonly actorKind: string;
  readonly actorId: string | null;
  readonly actorName: string | null;
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly role: string | null;
  readonly operation: string;
  readonly consumers: readonly string[];
  readonly providers: readonly string[];
  readonly projects: readonly string[];
  /** What an admin write changed (token, quota limits, inventories, names, import counts). */
  readonly details: Readonly<Record<string, unknown>> | null;
}

/** Which events to list. */
export interface AuditQuery {
  /** Only events at or after this time. */
  readonly since?: Date | null;
  readonly consumer?: string | null;
  readonly provider?: string | null;
  /** Matches the token id, token name or user id exactly. */
  readonly actor?: string | null;
  /** Only events older than this event id (the cursor of the previous page). */
  readonly beforeId?: number | null;
  readonly limit: number;
}

interface Row {
  id: string;
  created_at: Date;
  request_id: string | null;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  user_id: string | null;
  project_id: string | null;
  role: string | null;
  operation: string;
  consumers: string[];
  providers: string[];
  projects: string[];
  details: Record<string, unknown> | null;
}

const toRecord = (r: Row): AuditEventRecord => ({
  id: Number(r.id),
  createdAt: r.created_at,
  requestId: r.request_id,
  actorKind: r.actor_kind,
  actorId: r.actor_id,
  actorName: r.actor_name,
  userId: r.user_id,
  projectId: r.project_id,
  role: r.role,
  operation: r.operation,
  consumers: r.consumers,
  providers: r.providers,
  projects: r.projects,
  details: r.details,
});

/**
 * Events matching `q`, newest first, at most `q.limit + 1` (the extra one tells the caller
 * another page follows).
 * @throws BadRequestError for a malformed consumer or provider uuid.
 */
export async function listAuditEvents(ds: DataSource, q: AuditQuery): Promise<AuditEventRecord[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (q.since) add((p) => `created_at >= ${p}`, q.since);
  if (q.consumer) {
    add((p) => `consumers @> ARRAY[${p}]::text[]`, normalizeUuidOrThrow(q.consumer, 'consumer'));
  }
  if (q.provider) {
    add((p) => `providers @> ARRAY[${p}]::text[]`, normalizeUuidOrThrow(q.provider, 'provider'));
  }
  if (q.actor) add((p) => `(actor_id = ${p} OR actor_name = ${p} OR user_id = ${p})`, q.actor);
  if (q.beforeId) add((p) => `id < ${p}`, q.beforeId);
  params.push(q.limit + 1);
  const rows: Row[] = await ds.query(
    `SELECT * FROM audit_events ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(toRecord);
}

/**
 * A time given as ISO 8601 or as a duration back from now ('90m', '1h', '7d', '30s').
 * @throws BadRequestError (placement.query.bad_value) for anything else.
 */
export function parseSinceOrThrow(text: string, now = new Date()): Date {
  const m = /^(\d+)([smhd])$/.exec(text.trim());
  if (m) {
    const unit = { s: 1, m: 60, h: 3600, d: 86400 }[m[2] as 's' | 'm' | 'h' | 'd'];
    return new Date(now.getTime() - Number(m[1]) * unit * 1000);
  }
  const t = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(t)) {
    throw new BadRequestError(
      `Invalid time '${text}': give an ISO 8601 time (2025-11-30T12:00:00Z) or a duration such as 30m, 1h or 7d.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return new Date(t);
}

/**
 * Deletes events older than `retentionDays`, `batch` rows per statement (each a short
 * transaction using the created_at index), until none is left. Returns how many it deleted.
 */
export async function pruneAuditEvents(
  ds: DataSource,
  retentionDays: number,
  batch = 5000,
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = rowsOf<unknown>(
      await ds.query(
        `DELETE FROM audit_events WHERE id IN (
         SELECT id FROM audit_events WHERE created_at < now() - make_interval(days => $1)
         ORDER BY created_at LIMIT $2)
       RETURNING 1`,
        [retentionDays, batch],
      ),
    );
    total += rows.length;
    if (rows.length < batch) {
      return total;
    }
  }
}
