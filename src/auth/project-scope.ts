// Project scoping of allocation writes: a token scoped to project P may write allocations only
// for consumers of P (the projectId it sends, and the project an existing consumer already has).
import type { DataSource } from 'typeorm';

/** What a write names: projects it assigns and consumers it touches. */
export interface WriteTargets {
  readonly projectIds: readonly string[];
  readonly consumerUuids: readonly string[];
}

const PROJECT_KEYS = new Set(['projectId', 'project_id']);
const CONSUMER_KEYS = new Set(['consumerUuid', 'consumer_uuid']);
const CONSUMER_LIST_KEYS = new Set(['consumerUuids', 'consumer_uuids']);

/**
 * Collects every `projectId` and `consumerUuid(s)` value anywhere inside `value` (mutation
 * arguments), so new allocation mutations are covered without listing their argument shapes.
 */
export function collectWriteTargets(value: unknown): WriteTargets {
  const projectIds: string[] = [];
  const consumerUuids: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 20 || v === null || typeof v !== 'object') {
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) {
        walk(x, depth + 1);
      }
      return;
    }
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (PROJECT_KEYS.has(k) && typeof x === 'string') {
        projectIds.push(x);
      } else if (CONSUMER_KEYS.has(k) && typeof x === 'string') {
        consumerUuids.push(x);
      } else if (CONSUMER_LIST_KEYS.has(k) && (Array.isArray(x) || typeof x === 'string')) {
        consumerUuids.push(...[x].flat().filter((u): u is string => typeof u === 'string'));
      } else {
        walk(x, depth + 1);
      }
    }
  };
  walk(value, 0);
  return { projectIds, consumerUuids };
}

/**
 * The reason a caller scoped to `project` may not perform a write on `targets`, or null when it
 * may. Existing consumers are looked up in one query; unknown consumers are new and take the
 * project the write assigns (which must be `project`).
 */
export async function projectScopeViolation(
  ds: DataSource,
  project: string,
  targets: WriteTargets,
): Promise<string | null> {
  const foreign = targets.projectIds.find((p) => p !== project);
  if (foreign !== undefined) {
    return `This token is scoped to project '${project}' and may not write allocations for project '${foreign}'.`;
  }
  const uuids = [...new Set(targets.consumerUuids.map((u) => u.toLowerCase()))].filter((u) =>
    /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/.test(u),
  );
  if (uuids.length === 0) {
    return null;
  }
  // SELECT c.uuid, p.external_id FROM consumers c JOIN projects p ON p.id = c.project_id
  // WHERE c.uuid = ANY($1) AND p.external_id <> $2   (consumers of another project)
  const rows: { uuid: string }[] = await ds.query(
    `SELECT c.uuid FROM consumers c JOIN projects p ON p.id = c.project_id
     WHERE c.uuid = ANY($1::uuid[]) AND p.external_id <> $2 LIMIT 1`,
    [uuids, project],
  );
  return rows.length > 0
    ? `This token is scoped to project '${project}'; consumer ${rows[0]!.uuid} belongs to another project.`
    : null;
}
