// The consumers with allocations on the provider trees of some hosts, in one statement: each
// allocation row of those consumers on those trees, with the consumer's owner, its server group
// and whether it has a move in progress (read by drain plans, src/planning/drain-consumers.ts).
import type { DataSource } from 'typeorm';

/** One allocation of a consumer on one of the trees, with what is known of the consumer. */
export interface TreeAllocationRow {
  /** The consumer's id in the consumers table. */
  readonly id: number;
  readonly uuid: string;
  readonly projectId: string;
  readonly userId: string;
  /** Null for a consumer written without a type (Placement before 1.38). */
  readonly consumerType: string | null;
  readonly providerUuid: string;
  /** The root provider uuid of the tree the allocation is on. */
  readonly rootUuid: string;
  readonly resourceClass: string;
  readonly used: number;
  /** The server group the consumer is a member of, or null. */
  readonly serverGroup: string | null;
  /** True when the consumer has a move in progress (a consumer_moves record). */
  readonly moving: boolean;
}

interface Row {
  id: number;
  uuid: string;
  project_id: string;
  user_id: string;
  consumer_type: string | null;
  provider_uuid: string;
  root_uuid: string;
  resource_class: string;
  used: string | number;
  group_uuid: string | null;
  moving: boolean;
}

/**
 * Every allocation on a provider of the trees rooted at `roots` (root provider uuids), ordered by
 * consumer uuid, provider uuid and class.
 */
export async function allocationsOnTrees(
  q: Pick<DataSource, 'query'>,
  roots: readonly string[],
): Promise<TreeAllocationRow[]> {
  const rows: Row[] = await q.query(
    `SELECT c.id, c.uuid, pr.external_id AS project_id, u.external_id AS user_id,
       ct.name AS consumer_type,
       p.uuid AS provider_uuid, r.uuid AS root_uuid, rc.name AS resource_class, a.used,
       (SELECT g.uuid FROM server_group_members m JOIN server_groups g ON g.id = m.group_id
         WHERE m.consumer_uuid = c.uuid) AS group_uuid,
       EXISTS (SELECT 1 FROM consumer_moves mv WHERE mv.consumer_id = c.id) AS moving
     FROM resource_providers r
     JOIN resource_providers p ON p.root_provider_id = r.id
     JOIN allocations a ON a.resource_provider_id = p.id
     JOIN consumers c ON c.id = a.consumer_id
     JOIN projects pr ON pr.id = c.project_id JOIN users u ON u.id = c.user_id
     LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id
     JOIN resource_classes rc ON rc.id = a.resource_class_id
     WHERE r.uuid = ANY($1::uuid[])
     ORDER BY c.uuid, p.uuid, rc.name`,
    [roots],
  );
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    projectId: r.project_id,
    userId: r.user_id,
    consumerType: r.consumer_type,
    providerUuid: r.provider_uuid,
    rootUuid: r.root_uuid,
    resourceClass: r.resource_class,
    used: Number(r.used),
    serverGroup: r.group_uuid,
    moving: r.moving,
  }));
}
