// Quota's reads under its locks: the projects' advisory locks, their limit rows and their usage
// counted from allocations (src/placement/quota.ts enforces and reports with them).
import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** The quota resource counting instances: consumers of type INSTANCE or of no type (Nova's rule). */
export const INSTANCES = 'INSTANCES';
/** Consumer type counted by {@link INSTANCES}. */
export const INSTANCE_CONSUMER_TYPE = 'INSTANCE';

export interface LimitRow {
  project_id: string;
  user_id: string | null;
  resource: string;
  hard_limit: number;
}

/** resource -> used, per project and per project+user. */
export interface Usage {
  readonly project: Map<string, Map<string, number>>;
  readonly user: Map<string, Map<string, number>>;
}

export const userKey = (projectId: string, userId: string): string => `${projectId}\u0000${userId}`;

/** 32-bit advisory lock key of a project (sorted numerically to lock in one global order). */
function lockKeyOf(projectId: string): number {
  return createHash('sha256').update(`quota:${projectId}`).digest().readInt32BE(0);
}

/**
 * Takes transaction-scoped advisory locks of class `lockClass` for every project, in key order
 * (no deadlock between two writers of overlapping project sets), shared or exclusive. Held until
 * commit or rollback.
 */
export async function lockProjects(
  em: EntityManager,
  projectIds: Iterable<string>,
  lockClass: number,
  mode: 'shared' | 'exclusive',
): Promise<void> {
  const keys = [...new Set([...projectIds].map(lockKeyOf))].sort((a, b) => a - b);
  if (keys.length === 0) {
    return;
  }
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  // unnest yields the keys in array order, and the locks are taken in that order.
  await em.query(`SELECT ${fn}($1::int, k) FROM unnest($2::int[]) AS k`, [lockClass, keys]);
}

export async function limitsOf(
  em: EntityManager,
  projectIds: readonly string[],
): Promise<LimitRow[]> {
  return em.query(
    `SELECT project_external_id AS project_id, user_external_id AS user_id, resource, hard_limit
     FROM quota_limits WHERE project_external_id = ANY($1::text[])`,
    [projectIds],
  );
}

/**
 * Usage of the projects, per project and per user, of `resources` (all when null).
 *   SELECT project, user, class, sum(used) FROM consumers JOIN allocations ... GROUP BY 1, 2, 3
 *   UNION ALL SELECT project, user, 'INSTANCES', count(*) ... WHERE type INSTANCE or none
 * Instances follow Nova's count from Placement (report client, unified limits): consumers of
 * type INSTANCE plus untyped ones (written before microversion 1.38); MIGRATION consumers hold
 * a moving instance's source allocation and are not a second instance.
 */
export async function usageOf(
  em: EntityManager,
  projectIds: readonly string[],
  resources: readonly string[] | null,
): Promise<Usage> {
  const rows: { project_id: string; user_id: string; resource: string; used: number }[] =
    await em.query(
      `SELECT p.external_id AS project_id, u.external_id AS user_id, rc.name AS resource,
              sum(a.used) AS used
       FROM consumers c
       JOIN projects p ON p.id = c.project_id
       JOIN users u ON u.id = c.user_id
       JOIN allocations a ON a.consumer_id = c.id
       JOIN resource_classes rc ON rc.id = a.resource_class_id
       WHERE p.external_id = ANY($1::text[]) AND ($2::text[] IS NULL OR rc.name = ANY($2::text[]))
       GROUP BY p.external_id, u.external_id, rc.name
       UNION ALL
       SELECT p.external_id, u.external_id, '${INSTANCES}', count(*)
       FROM consumers c
       JOIN projects p ON p.id = c.project_id
       JOIN users u ON u.id = c.user_id
       LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id
       WHERE p.external_id = ANY($1::text[])
         AND (ct.name IS NULL OR ct.name = '${INSTANCE_CONSUMER_TYPE}')
         AND ($2::text[] IS NULL OR '${INSTANCES}' = ANY($2::text[]))
       GROUP BY p.external_id, u.external_id`,
      [projectIds, resources],
    );
  const usage: Usage = { project: new Map(), user: new Map() };
  const add = (map: Map<string, Map<string, number>>, key: string, rc: string, n: number) => {
    const m = map.get(key) ?? new Map<string, number>();
    map.set(key, m);
    m.set(rc, (m.get(rc) ?? 0) + Number(n));
  };
  for (const r of rows) {
    add(usage.project, r.project_id, r.resource, r.used);
    add(usage.user, userKey(r.project_id, r.user_id), r.resource, r.used);
  }
  return usage;
}

export function usedBy(usage: Usage, l: LimitRow): number {
  const scope =
    l.user_id === null
      ? usage.project.get(l.project_id)
      : usage.user.get(userKey(l.project_id, l.user_id));
  return scope?.get(l.resource) ?? 0;
}
