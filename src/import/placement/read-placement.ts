// Reads a whole Placement 8.0 database, table by table, as the rows it holds (source ids kept as
// text, values as stored: source-rows.ts), then checks them with the rules berth's API enforces
// (validate-source.ts). Standard classes are rows of
// resource_classes once Placement has started (deploy.update_database syncs os-resource-classes
// with id = list index); an id missing from the table falls back to that index, as Placement's
// own cache would.
import { STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '../../db/seed';
import { PlacementImportInvalidError } from './invalid-source-error';
import type { PlacementSource } from './source';
import type { SourceRows } from './source-rows';
import { type CheckedSource, checkSource } from './validate-source';

export type { PlacementSnapshot } from './snapshot';

import type { PlacementSnapshot } from './snapshot';

type Row = Record<string, unknown>;

/** A column as text: null for NULL (drivers give strings; anything else is printed). */
function text(v: unknown): string | null {
  if (v === null || v === undefined) {
    return null;
  }
  if (Buffer.isBuffer(v)) {
    return v.toString('utf8');
  }
  return String(v);
}

/** A numeric column: NaN for NULL or anything that is not a number, never a silent 0. */
function number(v: unknown): number {
  if (typeof v === 'number') {
    return v;
  }
  if (typeof v === 'bigint') {
    return Number(v);
  }
  if (typeof v === 'string' && v.trim() !== '') {
    return Number(v);
  }
  return Number.NaN;
}

/** A reference column: the referenced id as text, null for NULL. */
const id = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const ref = (v: unknown): string => String(v);

/** Reads every table of `src` (in its snapshot), unchecked. */
export async function readPlacementRows(src: PlacementSource): Promise<SourceRows> {
  const q = (sql: string) => src.query(sql);
  const names = (rows: Row[], column: string) =>
    rows.map((r) => ({ id: ref(r.id), name: text(r[column]) }));
  return {
    resourceClasses: names(await q('SELECT id, name FROM resource_classes'), 'name'),
    traits: names(await q('SELECT id, name FROM traits'), 'name'),
    aggregates: (await q('SELECT id, uuid FROM placement_aggregates')).map((r) => ({
      id: ref(r.id),
      uuid: text(r.uuid),
    })),
    projects: names(await q('SELECT id, external_id FROM projects'), 'external_id'),
    users: names(await q('SELECT id, external_id FROM users'), 'external_id'),
    consumerTypes: names(await q('SELECT id, name FROM consumer_types'), 'name'),
    providers: (
      await q(
        'SELECT id, uuid, name, generation, root_provider_id, parent_provider_id FROM resource_providers ORDER BY id',
      )
    ).map((r) => ({
      id: ref(r.id),
      uuid: text(r.uuid),
      name: text(r.name),
      generation: number(r.generation),
      rootId: id(r.root_provider_id),
      parentId: id(r.parent_provider_id),
    })),
    inventories: (
      await q(
        'SELECT id, resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio FROM inventories ORDER BY id',
      )
    ).map((r) => ({
      id: ref(r.id),
      providerId: ref(r.resource_provider_id),
      classId: ref(r.resource_class_id),
      total: number(r.total),
      reserved: number(r.reserved),
      minUnit: number(r.min_unit),
      maxUnit: number(r.max_unit),
      stepSize: number(r.step_size),
      allocationRatio: number(r.allocation_ratio),
    })),
    providerTraits: (
      await q('SELECT resource_provider_id, trait_id FROM resource_provider_traits')
    ).map((r) => ({ providerId: ref(r.resource_provider_id), targetId: ref(r.trait_id) })),
    providerAggregates: (
      await q('SELECT resource_provider_id, aggregate_id FROM resource_provider_aggregates')
    ).map((r) => ({ providerId: ref(r.resource_provider_id), targetId: ref(r.aggregate_id) })),
    consumers: (
      await q(
        'SELECT id, uuid, project_id, user_id, generation, consumer_type_id FROM consumers ORDER BY id',
      )
    ).map((r) => ({
      id: ref(r.id),
      uuid: text(r.uuid),
      projectId: ref(r.project_id),
      userId: ref(r.user_id),
      generation: number(r.generation),
      typeId: id(r.consumer_type_id),
    })),
    allocations: (
      await q(
        'SELECT id, resource_provider_id, consumer_id, resource_class_id, used FROM allocations ORDER BY id',
      )
    ).map((r) => ({
      id: ref(r.id),
      providerId: ref(r.resource_provider_id),
      consumerUuid: text(r.consumer_id),
      classId: ref(r.resource_class_id),
      used: number(r.used),
    })),
  };
}

/** Reads every table of `src` and checks the rows with berth's rules (nothing is refused yet). */
export async function readCheckedPlacement(src: PlacementSource): Promise<CheckedSource> {
  return checkSource(await readPlacementRows(src), {
    classes: STANDARD_RESOURCE_CLASSES,
    traits: STANDARD_TRAITS,
  });
}

/**
 * Reads every table of `src` and returns what berth would hold.
 * @throws PlacementImportInvalidError when any row breaks a rule (nothing is returned).
 */
export async function readPlacement(src: PlacementSource): Promise<PlacementSnapshot> {
  const checked = await readCheckedPlacement(src);
  if (checked.invalid.length > 0) {
    throw new PlacementImportInvalidError(checked.invalid, checked.dependents.length);
  }
  return checked.snapshot;
}
