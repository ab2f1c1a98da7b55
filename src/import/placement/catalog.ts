// The catalogue a Placement import needs before any provider: resource classes and traits (by
// name: standard ones are seeded in berth, custom ones created), aggregates (by uuid), projects
// and users (by external id) and consumer types (by name). Created when missing, never changed.
import type { EntityManager } from 'typeorm';
import type { Catalog } from './apply';
import { idsByKey } from './berth-state';
import type { PlacementSnapshot } from './snapshot';

type Db = Pick<EntityManager, 'query'>;

/** The catalogue kinds, their berth table and natural key, and where the snapshot lists them. */
export const CATALOG_KINDS = [
  { kind: 'resource classes', table: 'resource_classes', column: 'name', pick: 'resourceClasses' },
  { kind: 'traits', table: 'traits', column: 'name', pick: 'traits' },
  { kind: 'aggregates', table: 'placement_aggregates', column: 'uuid', pick: 'aggregates' },
  { kind: 'projects', table: 'projects', column: 'external_id', pick: 'projects' },
  { kind: 'users', table: 'users', column: 'external_id', pick: 'users' },
  { kind: 'consumer types', table: 'consumer_types', column: 'name', pick: 'consumerTypes' },
] as const;

export type CatalogKind = (typeof CATALOG_KINDS)[number]['kind'];

/** Per catalogue kind: the keys berth lacks. */
export async function missingCatalog(
  em: Db,
  snap: PlacementSnapshot,
): Promise<Map<CatalogKind, string[]>> {
  const out = new Map<CatalogKind, string[]>();
  for (const k of CATALOG_KINDS) {
    const want = snap[k.pick];
    const have = await idsByKey(em, k.table, k.column, want);
    out.set(
      k.kind,
      want.filter((w) => !have.has(w)),
    );
  }
  return out;
}

/** Inserts the missing catalogue rows (idempotent). @returns how many of each were created. */
export async function ensureCatalog(
  em: Db,
  snap: PlacementSnapshot,
): Promise<Map<CatalogKind, number>> {
  const out = new Map<CatalogKind, number>();
  for (const k of CATALOG_KINDS) {
    const cast = k.column === 'uuid' ? 'uuid' : 'text';
    const rows: unknown[] = await em.query(
      `INSERT INTO ${k.table} (${k.column}) SELECT unnest($1::${cast}[])
       ON CONFLICT (${k.column}) DO NOTHING RETURNING id`,
      [snap[k.pick]],
    );
    out.set(k.kind, rows.length);
  }
  return out;
}

/** Berth ids of every catalogue row the snapshot refers to. */
export async function loadCatalog(em: Db, snap: PlacementSnapshot): Promise<Catalog> {
  const ids = (i: number) => {
    const k = CATALOG_KINDS[i]!;
    return idsByKey(em, k.table, k.column, snap[k.pick]);
  };
  return {
    classes: await ids(0),
    traits: await ids(1),
    aggregates: await ids(2),
    projects: await ids(3),
    users: await ids(4),
    consumerTypes: await ids(5),
  };
}
