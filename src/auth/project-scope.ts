// Project scoping of allocation writes: a token scoped to project P may write allocations only
// for consumers of P (the projectId it sends, and the project an existing consumer already has).
import type { DataSource } from 'typeorm';
import { consumerOfAnotherProject } from '../placement/consumer';

/** What a write names: projects it assigns and consumers it touches. */
export interface WriteTargets {
  readonly projectIds: readonly string[];
  readonly consumerUuids: readonly string[];
}

const PROJECT_KEYS = new Set(['projectId', 'project_id']);
const CONSUMER_KEYS = new Set(['consumerUuid', 'consumer_uuid']);
const CONSUMER_LIST_KEYS = new Set([
  'consumerUuids',
  'consumer_uuids',
  // Scheduler hints naming instances (where they run is what the hint reads).
  'sameHost',
  'differentHost',
]);
/** Free-form scheduler hints (`{ key, values }`) whose values are instance uuids. */
const INSTANCE_HINTS = new Set(['same_host', 'different_host']);

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
      } else if (k === 'values' && INSTANCE_HINTS.has(String((v as { key?: unknown }).key))) {
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
  action = 'write allocations for',
): Promise<string | null> {
  const foreign = targets.projectIds.find((p) => p !== project);
  if (foreign !== undefined) {
    return `This token is scoped to project '${project}' and may not ${action} project '${foreign}'.`;
  }
  const uuids = [...new Set(targets.consumerUuids.map((u) => u.toLowerCase()))].filter((u) =>
    /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/.test(u),
  );
  if (uuids.length === 0) {
    return null;
  }
  const foreignConsumer = await consumerOfAnotherProject(ds, uuids, project);
  return foreignConsumer
    ? `This token is scoped to project '${project}'; consumer ${foreignConsumer} belongs to another project.`
    : null;
}

/**
 * The reason a caller scoped to `project` may not run the query field `field` with `args`, or
 * null when it may: a scoped token reads only its own project's quota, usage, consumer listings
 * and placement explanations (whose instance hints must name its own consumers), and cannot list
 * every project. Objects reached below the root are decided by their types' rules
 * (schema/access.ts).
 */
export async function readScopeViolation(
  ds: DataSource,
  project: string,
  field: string,
  args: Readonly<Record<string, unknown>>,
): Promise<string | null> {
  switch (field) {
    case 'projects':
      return `'projects' lists every project: a token scoped to project '${project}' may read only its own (quota, usages, consumers with filter.projectId).`;
    case 'consumers': {
      const filter = args.filter as { projectId?: unknown } | null | undefined;
      return filter?.projectId === project
        ? null
        : `A token scoped to project '${project}' lists consumers with filter: { projectId: "${project}" } only.`;
    }
    case 'serverGroups':
      return args.projectId === project
        ? null
        : `A token scoped to project '${project}' lists server groups with projectId: "${project}" only.`;
    case 'consumer':
      return null; // another project's consumer answers null, as an unknown one (schema/consumer.ts)
    default:
      return projectScopeViolation(ds, project, collectWriteTargets(args), 'read');
  }
}
