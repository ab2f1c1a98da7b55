// Reads the rows the in-memory capacity index is built from: all of them at start (one
// consistent snapshot), or those of a few providers after a change notification.
import type { DataSource, EntityManager } from 'typeorm';
import type {
  AggregateRow,
  IndexBuildFailureRow,
  IndexConsumerRow,
  IndexInventoryRow,
  IndexRows,
  IndexTraitRow,
  ProviderRow,
} from './index-rows';

// The consumers with allocations on each provider, and those with a move in progress (a
// consumer_moves row: written and removed in the same transaction as the allocations it describes,
// so a provider refresh after an allocation change sees it). Scheduler host counts come from here,
// as do the failed builds of a host (build_failures, src/placement/build-results.ts).
// Of the moving ones, `s` lists those whose recorded source allocations name the provider (the
// move started here; Nova counts a moving instance on its source host only).
const CONSUMERS_SQL = `SELECT a.resource_provider_id,
         array_agg(DISTINCT a.consumer_id) AS c,
         COALESCE(array_agg(DISTINCT a.consumer_id) FILTER (WHERE m.consumer_id IS NOT NULL), '{}') AS m,
         COALESCE(array_agg(DISTINCT a.consumer_id) FILTER (WHERE m.source_allocations
           @> jsonb_build_array(jsonb_build_object('providerUuid', mp.uuid))), '{}') AS s
       FROM allocations a LEFT JOIN consumer_moves m ON m.consumer_id = a.consumer_id
       LEFT JOIN resource_providers mp ON m.consumer_id IS NOT NULL AND mp.id = a.resource_provider_id`;

/** Provider ids a chunk of the full load covers (both ends included). */
export interface IdRange {
  readonly from: number;
  readonly to: number;
}

/** The rows of the providers whose ids are in `range`, everything when undefined. */
export async function rowsIn(em: EntityManager, range: IdRange | undefined): Promise<IndexRows> {
  const all = range === undefined;
  const params = all ? [] : [range.from, range.to];
  const rpWhere = all ? '' : 'WHERE id BETWEEN $1 AND $2';
  const byRp = (col: string) => (all ? '' : `WHERE ${col} BETWEEN $1 AND $2`);
  // Columns are named as the row shapes name them: the driver's row objects are the rows.
  const providers: ProviderRow[] = await em.query(
    `SELECT id, uuid, name, generation, parent_provider_id AS "parentId", root_provider_id AS "rootId"
     FROM resource_providers ${rpWhere} ORDER BY id`,
    params,
  );
  // Usage per (provider, class) joined to inventories; the allocations index on
  // (resource_provider_id, resource_class_id) serves the aggregate.
  const inventories: IndexInventoryRow[] = await em.query(
    `SELECT i.resource_provider_id AS "providerId", rc.name AS "resourceClass", i.total, i.reserved,
            i.min_unit AS "minUnit", i.max_unit AS "maxUnit", i.step_size AS "stepSize",
            i.allocation_ratio AS "allocationRatio", COALESCE(u.used, 0)::float8 AS used
     FROM inventories i
     JOIN resource_classes rc ON rc.id = i.resource_class_id
     LEFT JOIN (SELECT resource_provider_id, resource_class_id, sum(used) AS used FROM allocations
                ${byRp('resource_provider_id')} GROUP BY resource_provider_id, resource_class_id) u
       ON u.resource_provider_id = i.resource_provider_id AND u.resource_class_id = i.resource_class_id
     ${byRp('i.resource_provider_id')}
     ORDER BY i.resource_provider_id, i.resource_class_id`,
    params,
  );
  const traits: IndexTraitRow[] = await em.query(
    `SELECT rpt.resource_provider_id AS "providerId", t.name AS trait, t.id AS "traitId"
     FROM resource_provider_traits rpt JOIN traits t ON t.id = rpt.trait_id
     ${byRp('rpt.resource_provider_id')}`,
    params,
  );
  const aggregates: AggregateRow[] = await em.query(
    `SELECT rpa.resource_provider_id AS "providerId", a.uuid AS "aggregateUuid"
     FROM resource_provider_aggregates rpa JOIN placement_aggregates a ON a.id = rpa.aggregate_id
     ${byRp('rpa.resource_provider_id')}`,
    params,
  );
  const consumers: IndexConsumerRow[] = await em.query(
    `SELECT x.resource_provider_id AS "providerId", x.c AS "consumerIds", x.m AS "movingIds",
            x.s AS "movingFromIds"
     FROM (${CONSUMERS_SQL} ${byRp('a.resource_provider_id')} GROUP BY a.resource_provider_id) x`,
    params,
  );
  const buildFailures: IndexBuildFailureRow[] = await em.query(
    `SELECT resource_provider_id AS "providerId", failed_builds AS "failedBuilds"
     FROM build_failures ${byRp('resource_provider_id')}`,
    params,
  );
  return { providers, inventories, traits, aggregates, consumers, buildFailures };
}

/**
 * The rows of the given providers (deleted ones are simply absent), in one statement (one
 * snapshot, one round trip: this runs after every committed change, e.g. each claim).
 */
export async function loadProviderRows(ds: DataSource, ids: readonly number[]): Promise<IndexRows> {
  const rows: {
    p: IndexRows['providers'] | null;
    i: IndexRows['inventories'] | null;
    t: IndexRows['traits'] | null;
    a: IndexRows['aggregates'] | null;
    c:
      | {
          providerId: number;
          consumerIds: number[];
          movingIds: number[];
          movingFromIds: number[];
        }[]
      | null;
    b: IndexRows['buildFailures'] | null;
  }[] = await ds.query(
    `SELECT
         (SELECT json_agg(json_build_object('id', id, 'uuid', uuid, 'name', name, 'generation', generation,
                 'parentId', parent_provider_id, 'rootId', root_provider_id) ORDER BY id)
            FROM resource_providers WHERE id = ANY($1::int[])) AS p,
         (SELECT json_agg(json_build_object('providerId', i.resource_provider_id, 'resourceClass', rc.name,
                 'total', i.total, 'reserved', i.reserved, 'minUnit', i.min_unit, 'maxUnit', i.max_unit,
                 'stepSize', i.step_size, 'allocationRatio', i.allocation_ratio,
                 'used', COALESCE((SELECT sum(a.used) FROM allocations a
                                   WHERE a.resource_provider_id = i.resource_provider_id
                                     AND a.resource_class_id = i.resource_class_id), 0))
                 ORDER BY i.resource_provider_id, i.resource_class_id)
            FROM inventories i JOIN resource_classes rc ON rc.id = i.resource_class_id
            WHERE i.resource_provider_id = ANY($1::int[])) AS i,
         (SELECT json_agg(json_build_object('providerId', rpt.resource_provider_id, 'trait', t.name,
                 'traitId', t.id))
            FROM resource_provider_traits rpt JOIN traits t ON t.id = rpt.trait_id
            WHERE rpt.resource_provider_id = ANY($1::int[])) AS t,
         (SELECT json_agg(json_build_object('providerId', rpa.resource_provider_id, 'aggregateUuid', a.uuid))
            FROM resource_provider_aggregates rpa JOIN placement_aggregates a ON a.id = rpa.aggregate_id
            WHERE rpa.resource_provider_id = ANY($1::int[])) AS a,
         (SELECT json_agg(json_build_object('providerId', x.resource_provider_id,
                 'consumerIds', x.c, 'movingIds', x.m, 'movingFromIds', x.s))
            FROM (${CONSUMERS_SQL} WHERE a.resource_provider_id = ANY($1::int[])
                  GROUP BY a.resource_provider_id) x) AS c,
         (SELECT json_agg(json_build_object('providerId', resource_provider_id,
                 'failedBuilds', failed_builds))
            FROM build_failures WHERE resource_provider_id = ANY($1::int[])) AS b`,
    [ids],
  );
  const r = rows[0]!;
  return {
    providers: r.p ?? [],
    inventories: (r.i ?? []).map((i) => ({ ...i, used: Number(i.used) })),
    traits: r.t ?? [],
    aggregates: r.a ?? [],
    consumers: r.c ?? [],
    buildFailures: r.b ?? [],
  };
}

/** Names of every resource class and trait. */
export async function loadCatalogs(
  em: EntityManager,
): Promise<{ resourceClassNames: string[]; traitNames: string[] }> {
  const classes: { name: string }[] = await em.query('SELECT name FROM resource_classes');
  const traits: { name: string }[] = await em.query('SELECT name FROM traits');
  return { resourceClassNames: classes.map((c) => c.name), traitNames: traits.map((t) => t.name) };
}
