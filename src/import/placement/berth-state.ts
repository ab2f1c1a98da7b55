// What berth holds for a batch of source providers or consumers, by uuid (and provider name),
// in the shape of the source snapshot so the two compare field by field.
import type { EntityManager } from 'typeorm';
import type { SourceConsumer, SourceProvider } from './snapshot';

/** A berth provider as the importer compares it: the source's shape plus berth's row id. */
export interface BerthProvider extends SourceProvider {
  readonly id: number;
}

/** A berth consumer as the importer compares it. */
export interface BerthConsumer extends SourceConsumer {
  readonly id: number;
}

type Db = Pick<EntityManager, 'query'>;

/** Berth providers whose uuid or name is listed (locked FOR UPDATE when `lock`). */
export async function berthProviders(
  em: Db,
  uuids: readonly string[],
  names: readonly string[],
  lock: boolean,
): Promise<BerthProvider[]> {
  const rows: {
    id: number;
    uuid: string;
    name: string;
    generation: number;
    parent_uuid: string | null;
    root_uuid: string;
  }[] = await em.query(
    `SELECT rp.id, rp.uuid::text AS uuid, rp.name, rp.generation,
            p.uuid::text AS parent_uuid, r.uuid::text AS root_uuid
       FROM resource_providers rp
       LEFT JOIN resource_providers p ON p.id = rp.parent_provider_id
       JOIN resource_providers r ON r.id = rp.root_provider_id
      WHERE rp.uuid = ANY($1::uuid[]) OR rp.name = ANY($2::text[])
      ORDER BY rp.id${lock ? ' FOR UPDATE OF rp' : ''}`,
    [uuids, names],
  );
  const byId = new Map<number, BerthProvider>(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        uuid: r.uuid,
        name: r.name,
        generation: r.generation,
        parentUuid: r.parent_uuid,
        rootUuid: r.root_uuid,
        inventories: [],
        traits: [],
        aggregates: [],
      },
    ]),
  );
  const ids = [...byId.keys()];
  if (ids.length === 0) {
    return [];
  }
  const inv: {
    rp: number;
    name: string;
    total: number;
    reserved: number;
    min_unit: number;
    max_unit: number;
    step_size: number;
    allocation_ratio: number;
  }[] = await em.query(
    `SELECT i.resource_provider_id AS rp, rc.name, i.total, i.reserved, i.min_unit, i.max_unit,
            i.step_size, i.allocation_ratio
       FROM inventories i JOIN resource_classes rc ON rc.id = i.resource_class_id
      WHERE i.resource_provider_id = ANY($1::int[])`,
    [ids],
  );
  for (const r of inv) {
    byId.get(r.rp)!.inventories.push({
      resourceClass: r.name,
      total: r.total,
      reserved: r.reserved,
      minUnit: r.min_unit,
      maxUnit: r.max_unit,
      stepSize: r.step_size,
      allocationRatio: Number(r.allocation_ratio),
    });
  }
  const traits: { rp: number; name: string }[] = await em.query(
    `SELECT t.resource_provider_id AS rp, tr.name FROM resource_provider_traits t
       JOIN traits tr ON tr.id = t.trait_id WHERE t.resource_provider_id = ANY($1::int[])`,
    [ids],
  );
  for (const r of traits) {
    byId.get(r.rp)!.traits.push(r.name);
  }
  const aggs: { rp: number; uuid: string }[] = await em.query(
    `SELECT a.resource_provider_id AS rp, pa.uuid::text AS uuid FROM resource_provider_aggregates a
       JOIN placement_aggregates pa ON pa.id = a.aggregate_id
      WHERE a.resource_provider_id = ANY($1::int[])`,
    [ids],
  );
  for (const r of aggs) {
    byId.get(r.rp)!.aggregates.push(r.uuid);
  }
  return [...byId.values()];
}

/**
 * Berth consumers with these uuids (or every consumer: `'all'`) and their allocations, locked FOR
 * UPDATE when `lock`; in id order, allocations in id order.
 */
export async function berthConsumers(
  em: Db,
  uuids: readonly string[] | 'all',
  lock: boolean,
): Promise<BerthConsumer[]> {
  const all = uuids === 'all';
  const rows: {
    id: number;
    uuid: string;
    project: string;
    user: string;
    generation: number;
    type: string | null;
  }[] = await em.query(
    `SELECT c.id, c.uuid::text AS uuid, p.external_id AS project, u.external_id AS "user",
            c.generation, ct.name AS type
       FROM consumers c JOIN projects p ON p.id = c.project_id JOIN users u ON u.id = c.user_id
       LEFT JOIN consumer_types ct ON ct.id = c.consumer_type_id
      ${all ? '' : 'WHERE c.uuid = ANY($1::uuid[])'} ORDER BY c.id${lock ? ' FOR UPDATE OF c' : ''}`,
    all ? [] : [uuids],
  );
  const byId = new Map<number, BerthConsumer>(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        uuid: r.uuid,
        project: r.project,
        user: r.user,
        generation: r.generation,
        consumerType: r.type,
        allocations: [],
      },
    ]),
  );
  if (byId.size === 0) {
    return [];
  }
  const allocs: { c: number; uuid: string; name: string; used: number }[] = await em.query(
    `SELECT a.consumer_id AS c, rp.uuid::text AS uuid, rc.name, a.used FROM allocations a
       JOIN resource_providers rp ON rp.id = a.resource_provider_id
       JOIN resource_classes rc ON rc.id = a.resource_class_id
      ${all ? '' : 'WHERE a.consumer_id = ANY($1::int[])'} ORDER BY a.id`,
    all ? [] : [[...byId.keys()]],
  );
  for (const r of allocs) {
    byId.get(r.c)?.allocations.push({
      providerUuid: r.uuid,
      resourceClass: r.name,
      used: Number(r.used),
    });
  }
  return [...byId.values()];
}

/** Berth ids of these rows by natural key (uuid or name), e.g. ('projects', 'external_id'). */
export async function idsByKey(
  em: Db,
  table: string,
  column: string,
  keys: readonly string[],
): Promise<Map<string, number>> {
  const cast = column === 'uuid' ? 'uuid' : 'text';
  const rows: { k: string; id: number }[] = await em.query(
    `SELECT ${column}::text AS k, id FROM ${table} WHERE ${column} = ANY($1::${cast}[])`,
    [keys],
  );
  return new Map(rows.map((r) => [r.k, r.id]));
}
