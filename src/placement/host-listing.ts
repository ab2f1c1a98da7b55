// The host listing behind the console's Providers page (berth extension; what Horizon's hypervisor
// list and Nova's os-hypervisors answer): root providers with their tree's usage, availability
// zone, aggregates, instances and disabled state, filtered, sorted and paged in memory from the
// capacity index the candidate engine reads (src/placement/allocation-candidates/capacity-index.ts).
// No SQL per row: the aggregates' names and metadata are read once per listing.

import type { CapacityIndex } from './allocation-candidates/capacity-index';
import { type CapacityLine, capacityLines } from './capacity-rollup';
import { compareText } from './compare-text';
import { BadRequestError, ErrorCode } from './errors';
import { type HostColumns, hostColumns } from './host-listing-summary';
import type { AggregateRecord } from './types';
import { normalizeUuidOrThrow } from './uuid';

/** A host whose fullest resource class is at least this used (0..1) is "full". */
export const FULL_AT = 0.9;
/** Largest page of hosts. */
export const MAX_HOST_PAGE = 1000;

/** What a host's state filter selects. */
export type HostState = 'ENABLED' | 'DISABLED' | 'FULL';

/** Conditions a listed host meets (all of the given ones). */
export interface HostListFilter {
  /** Case-insensitive substring of the root provider's name. */
  readonly nameContains?: string | null;
  /** A provider of the tree has this trait. */
  readonly trait?: string | null;
  /** The root provider is in this aggregate (uuid). */
  readonly aggregate?: string | null;
  /** The host's availability zone (exact). */
  readonly availabilityZone?: string | null;
  readonly state?: HostState | null;
}

/** Columns a listing can be sorted by. */
export const HOST_SORT_FIELDS = [
  'NAME',
  'AVAILABILITY_ZONE',
  'AGGREGATES',
  'INSTANCES',
  'CHILDREN',
  'DISABLED',
  'MAX_UTILISATION',
  'UTILISATION',
  'USED',
  'CAPACITY',
] as const;
/** A sortable column; UTILISATION, USED and CAPACITY are of one resource class. */
export type HostSortField = (typeof HOST_SORT_FIELDS)[number];

/** The order of a listing. */
export interface HostListOrder {
  readonly field: HostSortField;
  /** The resource class UTILISATION, USED and CAPACITY sort by. */
  readonly resourceClass?: string | null;
  readonly direction: 'ASC' | 'DESC';
}

/** One host: a root provider and its tree. */
export interface HostRow {
  readonly uuid: string;
  readonly name: string;
  /** The root provider has COMPUTE_STATUS_DISABLED. */
  readonly disabled: boolean;
  /** availability_zone metadata of the first of the root's aggregates (by uuid) that sets it, or null. */
  readonly availabilityZone: string | null;
  /** The root's aggregates, by display name (name, else uuid). */
  readonly aggregates: readonly AggregateRecord[];
  /** Distinct consumers with allocations anywhere in the tree. */
  readonly instances: number;
  /** Capacity lines summed over the tree, by class name. */
  readonly usage: readonly CapacityLine[];
  /** The highest utilisation of {@link usage} (0 without inventory). */
  readonly maxUtilisation: number;
  /** Descendants of the root (NUMA cells, GPUs, ...). */
  readonly children: number;
}

/** One page of hosts. */
export interface HostListPage {
  /** Hosts the filter selects (all pages). */
  readonly totalCount: number;
  readonly hosts: readonly HostRow[];
}

/** A listing request. */
export interface HostListQuery {
  readonly filter?: HostListFilter | null;
  readonly orderBy?: HostListOrder | null;
  /** Page size, 0 to {@link MAX_HOST_PAGE}. */
  readonly first: number;
  /** Hosts skipped before the page, >= 0. */
  readonly offset: number;
}

const PER_CLASS: readonly HostSortField[] = ['UTILISATION', 'USED', 'CAPACITY'];

function checkQueryOrThrow(index: CapacityIndex, q: HostListQuery): void {
  if (!Number.isInteger(q.first) || q.first < 0 || q.first > MAX_HOST_PAGE) {
    throw new BadRequestError(
      `Invalid page size ${q.first}: first must be from 0 to ${MAX_HOST_PAGE}.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  if (!Number.isInteger(q.offset) || q.offset < 0) {
    throw new BadRequestError(
      `Invalid offset ${q.offset}: it must be 0 or more.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  const order = q.orderBy;
  if (order && !HOST_SORT_FIELDS.includes(order.field)) {
    throw new BadRequestError(
      `Unknown sort column ${String(order.field)}.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  const perClass = order && PER_CLASS.includes(order.field);
  if (perClass && !order.resourceClass) {
    throw new BadRequestError(
      `Sorting by ${order.field} needs a resourceClass.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  if (perClass && !index.isKnownResourceClass(order.resourceClass!)) {
    throw new BadRequestError(
      `No such resource class ${order.resourceClass}.`,
      ErrorCode.RESOURCE_CLASS_NOT_FOUND,
    );
  }
  const trait = q.filter?.trait;
  if (trait && !index.isKnownTrait(trait)) {
    throw new BadRequestError(`No such trait(s): ${trait}.`, ErrorCode.TRAIT_NOT_FOUND);
  }
}

/** The sort class's used, capacity or utilisation over `slots`; NaN without inventory of it. */
function classFigure(
  index: CapacityIndex,
  slots: readonly number[],
  classId: number,
  field: HostSortField,
): number {
  const inv = index.inventories;
  let used = 0;
  let cap = 0;
  let found = false;
  for (const slot of slots) {
    const i = classId < 0 ? -1 : index.findInventory(slot, classId);
    if (i >= 0) {
      found = true;
      used += inv.used[i]!;
      cap += inv.capacity[i]!;
    }
  }
  if (!found) {
    return Number.NaN;
  }
  return field === 'USED' ? used : field === 'CAPACITY' ? cap : cap > 0 ? used / cap : 0;
}

/** Positions (into `cols`) of the hosts `filter` selects. */
function matching(
  index: CapacityIndex,
  cols: HostColumns,
  filter: HostListFilter | null | undefined,
) {
  const f = filter ?? {};
  const contains = f.nameContains?.toLowerCase();
  const traitId = f.trait ? index.traitTable.lookup(f.trait) : null;
  const aggUuid = f.aggregate ? normalizeUuidOrThrow(f.aggregate, 'aggregate uuid') : null;
  const out: number[] = [];
  for (let p = 0; p < cols.roots.length; p++) {
    if (contains && !cols.names[p]!.toLowerCase().includes(contains)) {
      continue;
    }
    if (traitId !== null) {
      const slot = cols.roots[p]!;
      const members = index.members[slot] ?? [slot];
      if (traitId < 0 || !members.some((m) => index.hasTrait(m, traitId))) {
        continue;
      }
    }
    if (aggUuid && !cols.aggregates[p]!.some((a) => a.uuid === aggUuid)) {
      continue;
    }
    if (f.availabilityZone && cols.zones[p] !== f.availabilityZone) {
      continue;
    }
    const disabled = cols.disabled[p] === 1;
    if ((f.state === 'ENABLED' && disabled) || (f.state === 'DISABLED' && !disabled)) {
      continue;
    }
    if (f.state === 'FULL' && cols.maxUtilisation[p]! < FULL_AT) {
      continue;
    }
    out.push(p);
  }
  return out;
}

/** The primary key of each host for `order`: numbers (NaN = none) or strings (null = none). */
function keysOf(
  index: CapacityIndex,
  cols: HostColumns,
  order: HostListOrder,
): ArrayLike<number> | readonly (string | null)[] {
  switch (order.field) {
    case 'NAME':
      return cols.sortNames;
    case 'AVAILABILITY_ZONE':
      return cols.zones;
    case 'AGGREGATES':
      return cols.aggregateLabels.map((l) => l || null);
    case 'INSTANCES':
      return cols.instances;
    case 'CHILDREN':
      return cols.children;
    case 'DISABLED':
      return cols.disabled;
    case 'MAX_UTILISATION':
      return cols.maxUtilisation;
    default: {
      const classId = index.classes.lookup(order.resourceClass!);
      return Float64Array.from(cols.roots, (slot) =>
        classFigure(index, index.members[slot] ?? [slot], classId, order.field),
      );
    }
  }
}

/** Sorts positions by `order`; hosts without a key last either way; ties by name, then id. */
function sortPositions(
  index: CapacityIndex,
  cols: HostColumns,
  positions: number[],
  order: HostListOrder,
): void {
  const sign = order.direction === 'DESC' ? -1 : 1;
  const keys = keysOf(index, cols, order);
  const tie = (a: number, b: number) =>
    compareText(cols.sortNames[a]!, cols.sortNames[b]!) ||
    index.providerId[cols.roots[a]!]! - index.providerId[cols.roots[b]!]!;
  positions.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    if (x !== y) {
      const xNone = x === null || (typeof x === 'number' && Number.isNaN(x));
      const yNone = y === null || (typeof y === 'number' && Number.isNaN(y));
      if (xNone !== yNone) {
        return xNone ? 1 : -1;
      }
      if (!xNone) {
        const d = typeof x === 'number' ? x - (y as number) : compareText(x, y as string);
        if (d !== 0) {
          return sign * d;
        }
      }
    }
    return tie(a, b);
  });
}

/**
 * The hosts (root providers) `query.filter` selects, sorted by `query.orderBy` (by name when
 * absent; ties by name, then creation), `query.first` of them after `query.offset`.
 * @param aggregates every aggregate with its name and metadata (names and zones come from them).
 * @throws BadRequestError INVALID_INPUT for a page size outside 0..1000, a negative offset, an
 *   unknown sort column or a per-class sort without a class, or a malformed aggregate uuid;
 *   RESOURCE_CLASS_NOT_FOUND / TRAIT_NOT_FOUND for unknown names.
 */
export function listHosts(
  index: CapacityIndex,
  aggregates: readonly AggregateRecord[],
  query: HostListQuery,
): HostListPage {
  checkQueryOrThrow(index, query);
  const cols = hostColumns(index, aggregates);
  const positions = matching(index, cols, query.filter);
  sortPositions(index, cols, positions, query.orderBy ?? { field: 'NAME', direction: 'ASC' });
  const page = positions.slice(query.offset, query.offset + query.first);
  return {
    totalCount: positions.length,
    hosts: page.map((p) => {
      const slot = cols.roots[p]!;
      return {
        uuid: index.uuid[slot]!,
        name: cols.names[p]!,
        disabled: cols.disabled[p] === 1,
        availabilityZone: cols.zones[p]!,
        aggregates: cols.aggregates[p]!,
        instances: cols.instances[p]!,
        usage: capacityLines(index, index.members[slot] ?? [slot]),
        maxUtilisation: cols.maxUtilisation[p]!,
        children: cols.children[p]!,
      };
    }),
  };
}

/** Where a listing reads from: the capacity index and the aggregates' names and metadata. */
export interface HostListingSources {
  readonly candidates: { current(): Promise<CapacityIndex> };
  readonly aggregates: { list(): Promise<AggregateRecord[]> };
}

/**
 * {@link listHosts} over the replica's current capacity index (one read of the aggregates).
 * @throws BadRequestError as {@link listHosts}.
 */
export async function hostListing(
  sources: HostListingSources,
  query: HostListQuery,
): Promise<HostListPage> {
  const [index, aggregates] = await Promise.all([
    sources.candidates.current(),
    sources.aggregates.list(),
  ]);
  return listHosts(index, aggregates, query);
}
