// The per-host columns the host listing (host-listing.ts) filters and sorts on, one typed array
// per column over every root of the capacity index, built once per index version and aggregate
// set and reused by every listing until either changes (a page turn at 10,000 hosts re-sorts
// numbers; it does not walk the trees again).

import type { CapacityIndex } from './allocation-candidates/capacity-index';
import { compareText } from './compare-text';
import { distinctCount } from './host-rows';
import type { AggregateRecord } from './types';

/** The trait Nova sets on the root provider of a disabled compute service. */
export const DISABLED_TRAIT = 'COMPUTE_STATUS_DISABLED';
/** The aggregate metadata key Nova keeps a host aggregate's availability zone in. */
export const ZONE_KEY = 'availability_zone';

/** Columns over the hosts, position i being root `roots[i]` (roots in provider-id order). */
export interface HostColumns {
  readonly roots: Int32Array;
  readonly names: readonly string[];
  /** Per host: its name with every number zero-padded, so plain comparison sorts host-2 before host-10. */
  readonly sortNames: readonly string[];
  readonly disabled: Uint8Array;
  readonly zones: readonly (string | null)[];
  /** Per host: its root's aggregates, by display name. */
  readonly aggregates: readonly (readonly AggregateRecord[])[];
  /** Per host: the aggregates' display names joined by ", " ('' for none). */
  readonly aggregateLabels: readonly string[];
  readonly instances: Int32Array;
  readonly children: Int32Array;
  readonly maxUtilisation: Float64Array;
}

/** The display name of an aggregate: its name, else its uuid. */
export function aggregateLabel(a: Pick<AggregateRecord, 'uuid' | 'name'>): string {
  return a.name ?? a.uuid;
}

/** `name` with each run of digits padded to 12: "host-2" -> "host-000000000002". */
export function naturalKey(name: string): string {
  return name.replace(/\d+/g, (d) => d.padStart(12, '0'));
}

/** Highest used / capacity over the classes of `slots` (summed per class across the tree). */
function maxUtilisationOf(index: CapacityIndex, slots: readonly number[]): number {
  const inv = index.inventories;
  if (slots.length === 1) {
    let max = 0;
    for (const i of index.inventorySlots(slots[0]!)) {
      const cap = inv.capacity[i]!;
      max = Math.max(max, cap > 0 ? inv.used[i]! / cap : 0);
    }
    return max;
  }
  const used = new Map<number, number>();
  const cap = new Map<number, number>();
  for (const slot of slots) {
    for (const i of index.inventorySlots(slot)) {
      const c = inv.resourceClass[i]!;
      used.set(c, (used.get(c) ?? 0) + inv.used[i]!);
      cap.set(c, (cap.get(c) ?? 0) + inv.capacity[i]!);
    }
  }
  let max = 0;
  for (const [c, u] of used) {
    const k = cap.get(c)!;
    max = Math.max(max, k > 0 ? u / k : 0);
  }
  return max;
}

interface AggregateSet {
  readonly records: readonly AggregateRecord[];
  readonly label: string;
  readonly zone: string | null;
}

/** Builds the columns (a walk over every tree). */
function buildColumns(index: CapacityIndex, aggregates: readonly AggregateRecord[]): HostColumns {
  const byUuid = new Map(aggregates.map((a) => [a.uuid, a]));
  const record = (aggId: number): AggregateRecord => {
    const uuid = index.aggregateTable.name(aggId);
    return byUuid.get(uuid) ?? { id: 0, uuid, name: null, metadata: [] };
  };
  // Hosts mostly share a few aggregate sets (a rack, a zone): resolve each set once.
  const sets = new Map<string, AggregateSet>();
  const setOf = (ids: Int32Array): AggregateSet => {
    const key = ids.join(',');
    let set = sets.get(key);
    if (!set) {
      const records = Array.from(ids, record);
      const zone =
        [...records]
          .sort((a, b) => compareText(a.uuid, b.uuid))
          .map((a) => a.metadata.find((m) => m.key === ZONE_KEY)?.value)
          .find((v) => v !== undefined) ?? null;
      records.sort((a, b) => compareText(aggregateLabel(a), aggregateLabel(b)));
      set = { records, label: records.map(aggregateLabel).join(', '), zone };
      sets.set(key, set);
    }
    return set;
  };
  const disabledId = index.traitTable.lookup(DISABLED_TRAIT);
  const roots = index.rootOrder();
  const n = roots.length;
  const names: string[] = new Array(n);
  const zones: (string | null)[] = new Array(n);
  const aggs: (readonly AggregateRecord[])[] = new Array(n);
  const labels: string[] = new Array(n);
  const disabled = new Uint8Array(n);
  const instances = new Int32Array(n);
  const children = new Int32Array(n);
  const maxUtilisation = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const slot = roots[p]!;
    const members = index.members[slot] ?? [slot];
    const set = setOf(index.aggregates[slot] ?? new Int32Array(0));
    names[p] = index.name[slot]!;
    zones[p] = set.zone;
    aggs[p] = set.records;
    labels[p] = set.label;
    disabled[p] = disabledId >= 0 && index.hasTrait(slot, disabledId) ? 1 : 0;
    instances[p] = distinctCount(index.consumers, members);
    children[p] = members.length - 1;
    maxUtilisation[p] = maxUtilisationOf(index, members);
  }
  return {
    roots: Int32Array.from(roots),
    names,
    sortNames: names.map(naturalKey),
    disabled,
    zones,
    aggregates: aggs,
    aggregateLabels: labels,
    instances,
    children,
    maxUtilisation,
  };
}

interface Cached {
  readonly version: number;
  readonly aggregatesKey: string;
  readonly columns: HostColumns;
}

const cache = new WeakMap<CapacityIndex, Cached>();

/**
 * The columns of every host of `index`, rebuilt only when the index has changed since the last
 * call or `aggregates` (names, metadata) differ.
 */
export function hostColumns(
  index: CapacityIndex,
  aggregates: readonly AggregateRecord[],
): HostColumns {
  const aggregatesKey = JSON.stringify(aggregates);
  const hit = cache.get(index);
  if (hit && hit.version === index.version && hit.aggregatesKey === aggregatesKey) {
    return hit.columns;
  }
  const columns = buildColumns(index, aggregates);
  cache.set(index, { version: index.version, aggregatesKey, columns });
  return columns;
}
