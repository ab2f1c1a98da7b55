// Batch loading of everything scheduler plugins see about candidate hosts (provider trees):
// providers, inventories, usages, traits, aggregate memberships and aggregate metadata, in six
// queries whatever the number of hosts (plugins never query the database).
import type { DataSource } from 'typeorm';
import type { HostRows } from '../scheduler/host-view';

/** Rows for every provider of the trees rooted at `rootUuids` (allocation requests not included). */
export async function loadHostRows(
  ds: DataSource,
  rootUuids: readonly string[],
): Promise<HostRows> {
  return ds.transaction('REPEATABLE READ', async (em) => {
    const providers: {
      id: number;
      uuid: string;
      name: string;
      generation: number;
      parent_uuid: string | null;
      root_uuid: string;
    }[] = await em.query(
      `SELECT rp.id, rp.uuid, rp.name, rp.generation, parent.uuid AS parent_uuid, root.uuid AS root_uuid
         FROM resource_providers root
         JOIN resource_providers rp ON rp.root_provider_id = root.id
         LEFT JOIN resource_providers parent ON parent.id = rp.parent_provider_id
         WHERE root.uuid = ANY($1::uuid[]) ORDER BY rp.id`,
      [rootUuids],
    );
    const ids = providers.map((p) => p.id);
    const uuidOf = new Map(providers.map((p) => [p.id, p.uuid]));
    const inventories: {
      resource_provider_id: number;
      name: string;
      total: number;
      reserved: number;
      min_unit: number;
      max_unit: number;
      step_size: number;
      allocation_ratio: number;
    }[] = await em.query(
      `SELECT i.resource_provider_id, rc.name, i.total, i.reserved, i.min_unit, i.max_unit, i.step_size, i.allocation_ratio
       FROM inventories i JOIN resource_classes rc ON rc.id = i.resource_class_id
       WHERE i.resource_provider_id = ANY($1::int[])`,
      [ids],
    );
    const usages: { resource_provider_id: number; name: string; used: number }[] = await em.query(
      `SELECT a.resource_provider_id, rc.name, sum(a.used) AS used
       FROM allocations a JOIN resource_classes rc ON rc.id = a.resource_class_id
       WHERE a.resource_provider_id = ANY($1::int[]) GROUP BY a.resource_provider_id, rc.name`,
      [ids],
    );
    const traits: { resource_provider_id: number; name: string }[] = await em.query(
      `SELECT rpt.resource_provider_id, t.name FROM resource_provider_traits rpt JOIN traits t ON t.id = rpt.trait_id
       WHERE rpt.resource_provider_id = ANY($1::int[])`,
      [ids],
    );
    const memberships: {
      resource_provider_id: number;
      uuid: string;
      agg_id: number;
      name: string | null;
    }[] = await em.query(
      `SELECT rpa.resource_provider_id, a.uuid, a.id AS agg_id, a.name FROM resource_provider_aggregates rpa
       JOIN placement_aggregates a ON a.id = rpa.aggregate_id WHERE rpa.resource_provider_id = ANY($1::int[])`,
      [ids],
    );
    const aggIds = [...new Set(memberships.map((m) => m.agg_id))];
    const metadata: { uuid: string; key: string; value: string }[] = await em.query(
      `SELECT a.uuid, m.key, m.value FROM aggregate_metadata m JOIN placement_aggregates a ON a.id = m.aggregate_id
       WHERE m.aggregate_id = ANY($1::int[])`,
      [aggIds],
    );
    const aggNames = new Map(memberships.map((m) => [m.uuid, m.name]));
    return {
      providers: providers.map((p) => ({
        uuid: p.uuid,
        name: p.name,
        parentUuid: p.parent_uuid,
        rootUuid: p.root_uuid,
        generation: p.generation,
      })),
      inventories: inventories.map((i) => ({
        providerUuid: uuidOf.get(i.resource_provider_id)!,
        resourceClass: i.name,
        total: i.total,
        reserved: i.reserved,
        minUnit: i.min_unit,
        maxUnit: i.max_unit,
        stepSize: i.step_size,
        allocationRatio: i.allocation_ratio,
      })),
      usages: usages.map((u) => ({
        providerUuid: uuidOf.get(u.resource_provider_id)!,
        resourceClass: u.name,
        used: u.used,
      })),
      traits: traits.map((t) => ({
        providerUuid: uuidOf.get(t.resource_provider_id)!,
        trait: t.name,
      })),
      memberships: memberships.map((m) => ({
        providerUuid: uuidOf.get(m.resource_provider_id)!,
        aggregateUuid: m.uuid,
      })),
      aggregates: [...aggNames].map(([uuid, name]) => ({ uuid, name })),
      aggregateMetadata: metadata.map((m) => ({
        aggregateUuid: m.uuid,
        key: m.key,
        value: m.value,
      })),
    };
  });
}

/** Every aggregate that has metadata, with it (for pre-candidate request amendment). */
export async function loadAggregatesWithMetadata(
  ds: DataSource,
): Promise<{ uuid: string; name: string | null; metadata: Record<string, string> }[]> {
  const rows: { uuid: string; name: string | null; key: string; value: string }[] = await ds.query(
    `SELECT a.uuid, a.name, m.key, m.value FROM placement_aggregates a
     JOIN aggregate_metadata m ON m.aggregate_id = a.id ORDER BY a.uuid, m.key`,
  );
  const out = new Map<
    string,
    { uuid: string; name: string | null; metadata: Record<string, string> }
  >();
  for (const r of rows) {
    const agg = out.get(r.uuid) ?? { uuid: r.uuid, name: r.name, metadata: {} };
    agg.metadata[r.key] = r.value;
    out.set(r.uuid, agg);
  }
  return [...out.values()];
}
