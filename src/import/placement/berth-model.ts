// Reads berth's whole placement model in the shape of a Placement snapshot (names and uuids,
// never berth ids), for `berth export placement`: the mirror of read-placement.ts. Call it inside
// one REPEATABLE READ transaction so every table is read as of the same moment.
import type { EntityManager } from 'typeorm';
import { berthConsumers } from './berth-state';
import type { PlacementSnapshot, SourceConsumer, SourceProvider } from './snapshot';

type Db = Pick<EntityManager, 'query'>;

/** Orders providers so every parent precedes its children (berth forbids cycles). */
function parentsFirst(providers: readonly SourceProvider[]): SourceProvider[] {
  const children = new Map<string | null, SourceProvider[]>();
  for (const p of providers) {
    const list = children.get(p.parentUuid) ?? [];
    list.push(p);
    children.set(p.parentUuid, list);
  }
  const out: SourceProvider[] = [];
  const queue = [...(children.get(null) ?? [])];
  while (queue.length > 0) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p.uuid) ?? []));
  }
  return out;
}

const names = async (em: Db, sql: string): Promise<string[]> =>
  ((await em.query(sql)) as { n: string }[]).map((r) => r.n);

/** Every provider, consumer and catalogue row berth holds. */
export async function readBerthModel(em: Db): Promise<PlacementSnapshot> {
  const rps: {
    id: number;
    uuid: string;
    name: string;
    generation: number;
    parent: string | null;
    root: string;
  }[] = await em.query(
    `SELECT rp.id, rp.uuid::text AS uuid, rp.name, rp.generation, p.uuid::text AS parent,
            r.uuid::text AS root
       FROM resource_providers rp
       LEFT JOIN resource_providers p ON p.id = rp.parent_provider_id
       JOIN resource_providers r ON r.id = rp.root_provider_id
      ORDER BY rp.id`,
  );
  const byId = new Map<number, SourceProvider>(
    rps.map((r) => [
      r.id,
      {
        uuid: r.uuid,
        name: r.name,
        generation: r.generation,
        parentUuid: r.parent,
        rootUuid: r.root,
        inventories: [],
        traits: [],
        aggregates: [],
      },
    ]),
  );
  const inv: Record<string, number | string>[] = await em.query(
    `SELECT i.resource_provider_id AS rp, rc.name, i.total, i.reserved, i.min_unit, i.max_unit,
            i.step_size, i.allocation_ratio
       FROM inventories i JOIN resource_classes rc ON rc.id = i.resource_class_id ORDER BY i.id`,
  );
  for (const r of inv) {
    byId.get(Number(r.rp))?.inventories.push({
      resourceClass: String(r.name),
      total: Number(r.total),
      reserved: Number(r.reserved),
      minUnit: Number(r.min_unit),
      maxUnit: Number(r.max_unit),
      stepSize: Number(r.step_size),
      allocationRatio: Number(r.allocation_ratio),
    });
  }
  const traits: { rp: number; name: string }[] = await em.query(
    `SELECT t.resource_provider_id AS rp, tr.name FROM resource_provider_traits t
       JOIN traits tr ON tr.id = t.trait_id ORDER BY tr.name`,
  );
  for (const r of traits) {
    byId.get(r.rp)?.traits.push(r.name);
  }
  const aggs: { rp: number; uuid: string }[] = await em.query(
    `SELECT a.resource_provider_id AS rp, pa.uuid::text AS uuid
       FROM resource_provider_aggregates a JOIN placement_aggregates pa ON pa.id = a.aggregate_id
      ORDER BY pa.uuid`,
  );
  for (const r of aggs) {
    byId.get(r.rp)?.aggregates.push(r.uuid);
  }
  // Snapshot consumers carry no berth ids.
  const consumers: SourceConsumer[] = (await berthConsumers(em, 'all', false)).map(
    ({ id: _id, ...c }) => c,
  );
  return {
    providers: parentsFirst([...byId.values()]),
    consumers,
    resourceClasses: await names(em, 'SELECT name AS n FROM resource_classes ORDER BY name'),
    traits: await names(em, 'SELECT name AS n FROM traits ORDER BY name'),
    aggregates: await names(
      em,
      'SELECT uuid::text AS n FROM placement_aggregates ORDER BY uuid::text',
    ),
    projects: await names(em, 'SELECT external_id AS n FROM projects ORDER BY external_id'),
    users: await names(em, 'SELECT external_id AS n FROM users ORDER BY external_id'),
    consumerTypes: await names(em, 'SELECT name AS n FROM consumer_types ORDER BY name'),
    incompleteConsumers: 0,
  };
}
