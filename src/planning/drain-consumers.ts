// What a drain plan reads from the database: the hosts to drain (checked: known root providers,
// 1 to MAX_DRAIN_HOSTS of them) and every consumer with allocations on any provider of their
// trees — its owner, what it holds on those trees, its server group and whether it is already
// moving — ordered largest first.
import type { DataSource } from 'typeorm';
import { UNKNOWN_CONSUMER_TYPE } from '../placement/consumer';
import { BadRequestError, ErrorCode } from '../placement/errors';
import { normalizeUuidOrThrow } from '../placement/uuid';

/** Most hosts one drain plan takes. */
export const MAX_DRAIN_HOSTS = 100;

/** A consumer of a drained host, as the plan moves it. */
export interface DrainConsumer {
  /** Its id in the consumers table (the capacity index counts consumers by it). */
  readonly id: number;
  readonly uuid: string;
  readonly projectId: string;
  readonly userId: string;
  readonly consumerType: string;
  /** The drained host (root provider uuid) it runs on. */
  readonly host: string;
  /** Per-class totals of the allocations on the drained trees: what it asks of its destination. */
  readonly resources: Readonly<Record<string, number>>;
  /** The server group it is a member of. */
  readonly serverGroup?: string;
  /** True when a move of it is in progress (confirmMove / revertMove first). */
  readonly moving: boolean;
}

interface Row {
  id: number;
  uuid: string;
  project_id: string;
  user_id: string;
  consumer_type: string;
  provider_uuid: string;
  root_uuid: string;
  resource_class: string;
  used: string | number;
  group_uuid: string | null;
  moving: boolean;
}

/**
 * The root provider uuids `hosts` names, normalised, duplicates dropped, in the order given.
 * @throws BadRequestError DRAIN_NO_HOSTS, DRAIN_TOO_MANY_HOSTS, INVALID_UUID,
 *   DRAIN_UNKNOWN_HOST, DRAIN_NOT_A_HOST.
 */
export async function drainHostsOrThrow(
  ds: Pick<DataSource, 'query'>,
  hosts: readonly string[],
): Promise<string[]> {
  if (hosts.length === 0) {
    throw new BadRequestError('A drain plan needs at least one host.', ErrorCode.DRAIN_NO_HOSTS);
  }
  const uuids = [...new Set(hosts.map((h) => normalizeUuidOrThrow(h, 'host uuid')))];
  if (uuids.length > MAX_DRAIN_HOSTS) {
    throw new BadRequestError(
      `A drain plan takes at most ${MAX_DRAIN_HOSTS} hosts, got ${uuids.length}.`,
      ErrorCode.DRAIN_TOO_MANY_HOSTS,
    );
  }
  const rows: { uuid: string; root: boolean }[] = await ds.query(
    `SELECT p.uuid, (p.root_provider_id = p.id) AS root
     FROM resource_providers p WHERE p.uuid = ANY($1::uuid[])`,
    [uuids],
  );
  const found = new Map(rows.map((r) => [r.uuid, r.root]));
  for (const uuid of uuids) {
    const root = found.get(uuid);
    if (root === undefined) {
      throw new BadRequestError(`No resource provider ${uuid}.`, ErrorCode.DRAIN_UNKNOWN_HOST);
    }
    if (!root) {
      throw new BadRequestError(
        `Resource provider ${uuid} is not a host (a root provider); drain its root instead.`,
        ErrorCode.DRAIN_NOT_A_HOST,
      );
    }
  }
  return uuids;
}

/**
 * Every consumer with allocations on a provider of the trees rooted at `hosts`, largest first:
 * by its dominant share (its largest amount of a class relative to the largest amount of that
 * class among these consumers), then by the sum of its shares, then by uuid. Placing the largest
 * first is first-fit decreasing: the ones hardest to place choose while the most room is left,
 * and the small ones fill the gaps after them.
 */
export async function drainConsumers(
  ds: Pick<DataSource, 'query'>,
  hosts: readonly string[],
): Promise<DrainConsumer[]> {
  const rows: Row[] = await ds.query(
    `WITH roots AS (SELECT id FROM resource_providers WHERE uuid = ANY($1::uuid[])),
     drained AS (
       SELECT DISTINCT a.consumer_id FROM allocations a
       JOIN resource_providers p ON p.id = a.resource_provider_id
       WHERE p.root_provider_id IN (SELECT id FROM roots))
     SELECT c.id, c.uuid, pr.external_id AS project_id, u.external_id AS user_id,
       COALESCE(ct.name, '${UNKNOWN_CONSUMER_TYPE}') AS consumer_type,
       p.uuid AS provider_uuid, r.uuid AS root_uuid, rc.name AS resource_class, a.used,
       (SELECT g.uuid FROM server_group_members m JOIN server_groups g ON g.id = m.group_id
         WHERE m.consumer_uuid = c.uuid) AS group_uuid,
       EXISTS (SELECT 1 FROM consumer_moves mv WHERE mv.consumer_id = c.id) AS moving
     FROM drained d JOIN consumers c ON c.id = d.consumer_id
     JOIN projects pr ON pr.id = c.project_id JOIN users u ON u.id = c.user_id
     LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id
     JOIN allocations a ON a.consumer_id = c.id
     JOIN resource_providers p ON p.id = a.resource_provider_id
     JOIN resource_providers r ON r.id = p.root_provider_id
     JOIN resource_classes rc ON rc.id = a.resource_class_id
     ORDER BY c.uuid, p.uuid, rc.name`,
    [hosts],
  );
  const drained = new Set(hosts);
  const byUuid = new Map<string, Row[]>();
  for (const r of rows) {
    byUuid.set(r.uuid, [...(byUuid.get(r.uuid) ?? []), r]);
  }
  const consumers = [...byUuid.values()].map((list) => consumerOf(list, drained));
  return largestFirst(consumers);
}

function consumerOf(rows: readonly Row[], drained: ReadonlySet<string>): DrainConsumer {
  const first = rows[0]!;
  const resources: Record<string, number> = {};
  let host: string | undefined;
  for (const r of rows) {
    const used = Number(r.used);
    if (drained.has(r.root_uuid)) {
      host ??= r.root_uuid;
      resources[r.resource_class] = (resources[r.resource_class] ?? 0) + used;
    }
  }
  return {
    id: first.id,
    uuid: first.uuid,
    projectId: first.project_id,
    userId: first.user_id,
    consumerType: first.consumer_type,
    host: host!,
    resources,
    ...(first.group_uuid ? { serverGroup: first.group_uuid } : {}),
    moving: first.moving,
  };
}

/** `consumers` largest first (see {@link drainConsumers}). */
export function largestFirst(consumers: readonly DrainConsumer[]): DrainConsumer[] {
  const largest = new Map<string, number>();
  for (const c of consumers) {
    for (const [rc, amount] of Object.entries(c.resources)) {
      largest.set(rc, Math.max(largest.get(rc) ?? 0, amount));
    }
  }
  const size = (c: DrainConsumer) => {
    const shares = Object.entries(c.resources).map(([rc, n]) => n / (largest.get(rc) || 1));
    return { dominant: Math.max(0, ...shares), sum: shares.reduce((a, b) => a + b, 0) };
  };
  const sized = consumers.map((c) => ({ c, ...size(c) }));
  sized.sort(
    (a, b) =>
      b.dominant - a.dominant ||
      b.sum - a.sum ||
      (a.c.uuid < b.c.uuid ? -1 : a.c.uuid > b.c.uuid ? 1 : 0),
  );
  return sized.map((s) => s.c);
}
