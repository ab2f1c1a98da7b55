// Reads a whole Placement 8.0 database into memory, by names and uuids only (never by ids: a
// source id means nothing in berth). Standard classes are rows of resource_classes once Placement
// has started (deploy.update_database syncs os-resource-classes with id = list index); an id
// missing from the table falls back to that index, as Placement's own cache would.
import { STANDARD_RESOURCE_CLASSES } from '../../db/seed';
import { normalizeUuidOrThrow } from '../../placement/uuid';
import type { PlacementSource } from './source';

/** Placement's default incomplete_consumer_project_id / user_id (conf.placement). */
export const INCOMPLETE_OWNER = '00000000-0000-0000-0000-000000000000';

export type {
  PlacementSnapshot,
  SourceAllocation,
  SourceConsumer,
  SourceInventory,
  SourceProvider,
} from '../../placement/placement-import/snapshot';

import type {
  PlacementSnapshot,
  SourceConsumer,
  SourceProvider,
} from '../../placement/placement-import/snapshot';

type Row = Record<string, unknown>;
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const key = (v: unknown): string => String(v);

function namesById(rows: Row[], col = 'name'): Map<string, string> {
  return new Map(rows.map((r) => [key(r.id), String(r[col])]));
}

function lookupOrThrow<T>(m: Map<string, T>, id: unknown, what: string): T {
  const v = m.get(key(id));
  if (v === undefined) {
    throw new Error(`source ${what} ${String(id)} does not exist`);
  }
  return v;
}

function className(classes: Map<string, string>, id: unknown): string {
  const named = classes.get(key(id));
  if (named !== undefined) {
    return named;
  }
  const standard = STANDARD_RESOURCE_CLASSES[num(id)];
  if (standard === undefined || num(id) >= 10000) {
    throw new Error(`source resource class id ${String(id)} is unknown`);
  }
  return standard;
}

/** Orders providers so every parent precedes its children. */
function parentsFirst(providers: SourceProvider[]): SourceProvider[] {
  const byUuid = new Map(providers.map((p) => [p.uuid, p]));
  const out: SourceProvider[] = [];
  const state = new Map<string, 1 | 2>();
  const visit = (p: SourceProvider) => {
    if (state.get(p.uuid) === 2) {
      return;
    }
    if (state.get(p.uuid) === 1) {
      throw new Error(`source provider ${p.uuid} is its own ancestor`);
    }
    state.set(p.uuid, 1);
    const parent = p.parentUuid ? byUuid.get(p.parentUuid) : undefined;
    if (parent) {
      visit(parent);
    }
    state.set(p.uuid, 2);
    out.push(p);
  };
  providers.forEach(visit);
  return out;
}

/**
 * Reads every table of `src` (in its snapshot).
 * @throws Error for dangling references or malformed uuids in the source.
 */
export async function readPlacement(src: PlacementSource): Promise<PlacementSnapshot> {
  const q = (sql: string) => src.query(sql);
  const classes = namesById(await q('SELECT id, name FROM resource_classes'));
  const traits = namesById(await q('SELECT id, name FROM traits'));
  const aggs = namesById(await q('SELECT id, uuid FROM placement_aggregates'), 'uuid');
  for (const [id, u] of aggs) {
    aggs.set(id, normalizeUuidOrThrow(u, 'aggregate uuid in the source'));
  }
  const projects = namesById(await q('SELECT id, external_id FROM projects'), 'external_id');
  const users = namesById(await q('SELECT id, external_id FROM users'), 'external_id');
  const types = namesById(await q('SELECT id, name FROM consumer_types'));
  const rpRows = await q(
    'SELECT id, uuid, name, generation, root_provider_id, parent_provider_id FROM resource_providers ORDER BY id',
  );
  const uuidOf = new Map<string, string>();
  for (const r of rpRows) {
    uuidOf.set(key(r.id), normalizeUuidOrThrow(String(r.uuid), 'provider uuid in the source'));
  }
  const byId = new Map<string, SourceProvider>();
  for (const r of rpRows) {
    const uuid = uuidOf.get(key(r.id))!;
    if (r.name === null || r.name === undefined) {
      throw new Error(`source provider ${uuid} has no name`);
    }
    byId.set(key(r.id), {
      uuid,
      name: String(r.name),
      generation: num(r.generation),
      parentUuid:
        r.parent_provider_id === null
          ? null
          : lookupOrThrow(uuidOf, r.parent_provider_id, 'parent provider'),
      rootUuid:
        r.root_provider_id === null ? uuid : lookupOrThrow(uuidOf, r.root_provider_id, 'provider'),
      inventories: [],
      traits: [],
      aggregates: [],
    });
  }
  for (const r of await q(
    'SELECT resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio FROM inventories ORDER BY id',
  )) {
    lookupOrThrow(byId, r.resource_provider_id, 'provider').inventories.push({
      resourceClass: className(classes, r.resource_class_id),
      total: num(r.total),
      reserved: num(r.reserved),
      minUnit: num(r.min_unit),
      maxUnit: num(r.max_unit),
      stepSize: num(r.step_size),
      allocationRatio: num(r.allocation_ratio),
    });
  }
  for (const r of await q('SELECT resource_provider_id, trait_id FROM resource_provider_traits')) {
    lookupOrThrow(byId, r.resource_provider_id, 'provider').traits.push(
      lookupOrThrow(traits, r.trait_id, 'trait'),
    );
  }
  for (const r of await q(
    'SELECT resource_provider_id, aggregate_id FROM resource_provider_aggregates',
  )) {
    lookupOrThrow(byId, r.resource_provider_id, 'provider').aggregates.push(
      lookupOrThrow(aggs, r.aggregate_id, 'aggregate'),
    );
  }
  const consumers = new Map<string, SourceConsumer>();
  for (const r of await q(
    'SELECT uuid, project_id, user_id, generation, consumer_type_id FROM consumers ORDER BY id',
  )) {
    const uuid = normalizeUuidOrThrow(String(r.uuid), 'consumer uuid in the source');
    consumers.set(uuid, {
      uuid,
      project: lookupOrThrow(projects, r.project_id, 'project'),
      user: lookupOrThrow(users, r.user_id, 'user'),
      generation: num(r.generation),
      consumerType:
        r.consumer_type_id === null ? null : lookupOrThrow(types, r.consumer_type_id, 'type'),
      allocations: [],
    });
  }
  let incomplete = 0;
  for (const r of await q(
    'SELECT resource_provider_id, consumer_id, resource_class_id, used FROM allocations ORDER BY id',
  )) {
    const uuid = normalizeUuidOrThrow(String(r.consumer_id), 'allocation consumer in the source');
    let c = consumers.get(uuid);
    if (!c) {
      incomplete += 1;
      c = {
        uuid,
        project: INCOMPLETE_OWNER,
        user: INCOMPLETE_OWNER,
        generation: 0,
        consumerType: null,
        allocations: [],
      };
      consumers.set(uuid, c);
    }
    c.allocations.push({
      providerUuid: lookupOrThrow(byId, r.resource_provider_id, 'provider').uuid,
      resourceClass: className(classes, r.resource_class_id),
      used: num(r.used),
    });
  }
  const all = [...consumers.values()];
  const providers = parentsFirst([...byId.values()]);
  const used = (pick: (p: SourceProvider) => string[]) => providers.flatMap(pick);
  return {
    providers,
    consumers: all,
    resourceClasses: uniq([
      ...classes.values(),
      ...used((p) => p.inventories.map((i) => i.resourceClass)),
      ...all.flatMap((c) => c.allocations.map((a) => a.resourceClass)),
    ]),
    traits: uniq([...traits.values()]),
    aggregates: uniq([...aggs.values()]),
    projects: uniq([...projects.values(), ...all.map((c) => c.project)]),
    users: uniq([...users.values(), ...all.map((c) => c.user)]),
    consumerTypes: uniq([...types.values()]),
    incompleteConsumers: incomplete,
  };
}

function uniq(xs: string[]): string[] {
  return [...new Set(xs)].sort();
}
