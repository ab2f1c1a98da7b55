// Capacity rollups for dashboards: per resource class total, reserved, capacity after the
// allocation ratio, used, free and utilisation, summed over any set of providers (the whole
// cloud, an aggregate, a tree, or whatever a provider filter selects), grouped by aggregate or
// tree. Answered from the in-memory capacity index (the one the candidate engine reads), so no
// SQL runs and the figures are as fresh as the last change this replica has heard of.
import type { CapacityIndex } from './allocation-candidates/capacity-index';
import { BadRequestError, ErrorCode } from './errors';
import type { ProviderFilterSql } from './provider-filter';
import { normalizeUuidOrThrow } from './uuid';

/** One resource class summed over a set of providers. */
export interface CapacityLine {
  readonly resourceClass: string;
  readonly total: number;
  readonly reserved: number;
  /** Sum of floor((total - reserved) * allocation_ratio). */
  readonly capacity: number;
  readonly used: number;
  /** Sum of max(0, capacity - used) per provider (over-committed providers add nothing). */
  readonly free: number;
  /** used / capacity (0 when there is no capacity). */
  readonly utilisation: number;
  /** Providers with an inventory of this class. */
  readonly providers: number;
}

/** How a rollup is grouped: one cloud-wide group, one per aggregate, or one per tree. */
export type CapacityGrouping = 'NONE' | 'AGGREGATE' | 'ROOT';

/** The lines of one group; `aggregateUuid` / `rootUuid` name it (both null for NONE). */
export interface CapacityGroup {
  readonly aggregateUuid: string | null;
  readonly rootUuid: string | null;
  /** Providers of the selection in this group. */
  readonly providerCount: number;
  /** By resource class name. */
  readonly lines: readonly CapacityLine[];
}

/**
 * A predicate over provider slots for `filter`: the same conditions as GET /resource_providers
 * (name, nameContains, uuid, in_tree, member_of, required, resources). Names are resolved once.
 * @throws BadRequestError for unknown traits or resource classes (Placement's messages).
 */
export function compileProviderFilter(
  index: CapacityIndex,
  filter: ProviderFilterSql,
): (slot: number) => boolean {
  const f = filter;
  const traits = [...(f.requiredTraits ?? []).flat(), ...(f.forbiddenTraits ?? [])];
  const missing = [...new Set(traits.filter((t) => !index.isKnownTrait(t)))];
  if (missing.length > 0) {
    throw new BadRequestError(
      `No such trait(s): ${missing.sort().join(', ')}.`,
      ErrorCode.TRAIT_NOT_FOUND,
    );
  }
  const resources = Object.entries(f.resources ?? {}).map(([rc, amount]) => {
    if (!index.isKnownResourceClass(rc)) {
      throw new BadRequestError(
        `Invalid resource class in resources parameter: No such resource class ${rc}.`,
        ErrorCode.RESOURCE_CLASS_NOT_FOUND,
      );
    }
    return [index.classes.lookup(rc), amount] as const;
  });
  const traitIds = (names: readonly string[]) => names.map((n) => index.traitTable.lookup(n));
  const aggIds = (uuids: readonly string[]) =>
    uuids.map((u) => index.aggregateTable.lookup(normalizeUuidOrThrow(u, 'aggregate uuid')));
  const required = (f.requiredTraits ?? []).map(traitIds);
  const forbidden = traitIds(f.forbiddenTraits ?? []);
  const memberOf = (f.memberOf ?? []).map(aggIds);
  const notIn = aggIds(f.forbiddenAggregates ?? []);
  const treeSlot =
    f.inTree === undefined ? -1 : index.slotOfUuid(normalizeUuidOrThrow(f.inTree, 'in_tree uuid'));
  if (f.inTree !== undefined && treeSlot < 0) {
    return () => false;
  }
  const root = treeSlot < 0 ? -1 : index.root[treeSlot]!;
  const uuid = f.uuid === undefined ? undefined : normalizeUuidOrThrow(f.uuid);
  const contains = f.nameContains?.toLowerCase();
  const inv = index.inventories;
  const fits = (slot: number, classId: number, amount: number) => {
    const i = classId < 0 ? -1 : index.findInventory(slot, classId);
    return (
      i >= 0 &&
      inv.minUnit[i]! <= amount &&
      inv.maxUnit[i]! >= amount &&
      amount % inv.stepSize[i]! === 0 &&
      inv.used[i]! + amount <= inv.capacity[i]!
    );
  };
  return (slot) =>
    (f.name === undefined || index.name[slot] === f.name) &&
    (contains === undefined || index.name[slot]!.toLowerCase().includes(contains)) &&
    (uuid === undefined || index.uuid[slot] === uuid) &&
    (root < 0 || index.root[slot] === root) &&
    required.every((anyOf) => anyOf.some((t) => t >= 0 && index.hasTrait(slot, t))) &&
    forbidden.every((t) => t < 0 || !index.hasTrait(slot, t)) &&
    memberOf.every((anyOf) => anyOf.some((a) => a >= 0 && index.inAggregate(slot, a))) &&
    notIn.every((a) => a < 0 || !index.inAggregate(slot, a)) &&
    resources.every(([classId, amount]) => fits(slot, classId, amount));
}

/**
 * The provider slots `filter` selects, in provider-id order.
 * @throws BadRequestError for unknown traits or resource classes (Placement's messages).
 */
export function slotsMatching(index: CapacityIndex, filter: ProviderFilterSql): number[] {
  const matches = compileProviderFilter(index, filter);
  return Array.from(index.orderedSlots()).filter(matches);
}

interface Sums {
  total: number;
  reserved: number;
  capacity: number;
  used: number;
  free: number;
  providers: number;
}

/** Per-class lines of `slots`, sorted by class name. */
export function capacityLines(index: CapacityIndex, slots: Iterable<number>): CapacityLine[] {
  const inv = index.inventories;
  const byClass = new Map<number, Sums>();
  for (const slot of slots) {
    for (const i of index.inventorySlots(slot)) {
      const c = inv.resourceClass[i]!;
      let s = byClass.get(c);
      if (!s) {
        s = { total: 0, reserved: 0, capacity: 0, used: 0, free: 0, providers: 0 };
        byClass.set(c, s);
      }
      s.total += inv.total[i]!;
      s.reserved += inv.reserved[i]!;
      s.capacity += inv.capacity[i]!;
      s.used += inv.used[i]!;
      s.free += Math.max(0, inv.capacity[i]! - inv.used[i]!);
      s.providers += 1;
    }
  }
  return [...byClass]
    .map(([c, s]) => ({
      resourceClass: index.classes.name(c),
      ...s,
      utilisation: s.capacity > 0 ? s.used / s.capacity : 0,
    }))
    .sort((a, b) => (a.resourceClass < b.resourceClass ? -1 : 1));
}

/**
 * Rolls `slots` up by `grouping`. AGGREGATE: one group per aggregate that has a selected
 * provider (a provider in two aggregates counts in both; providers in none are in no group),
 * by aggregate uuid. ROOT: one group per tree, in root provider-id order.
 */
export function capacityRollup(
  index: CapacityIndex,
  slots: readonly number[],
  grouping: CapacityGrouping,
): CapacityGroup[] {
  if (grouping === 'NONE') {
    return [
      {
        aggregateUuid: null,
        rootUuid: null,
        providerCount: slots.length,
        lines: capacityLines(index, slots),
      },
    ];
  }
  const groups = new Map<number, number[]>();
  const add = (key: number, slot: number) => {
    const list = groups.get(key);
    if (list) {
      list.push(slot);
    } else {
      groups.set(key, [slot]);
    }
  };
  for (const slot of slots) {
    if (grouping === 'ROOT') {
      add(index.root[slot]!, slot);
    } else {
      for (const a of index.aggregates[slot] ?? []) {
        add(a, slot);
      }
    }
  }
  const named = [...groups].map(([key, members]) => ({
    aggregateUuid: grouping === 'AGGREGATE' ? index.aggregateTable.name(key) : null,
    rootUuid: grouping === 'ROOT' ? index.uuid[key]! : null,
    order: grouping === 'ROOT' ? index.providerId[key]! : 0,
    providerCount: members.length,
    lines: capacityLines(index, members),
  }));
  named.sort((a, b) =>
    grouping === 'ROOT' ? a.order - b.order : a.aggregateUuid! < b.aggregateUuid! ? -1 : 1,
  );
  return named.map(({ order: _order, ...g }) => g);
}
