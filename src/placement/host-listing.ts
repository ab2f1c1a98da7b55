// The host listing behind the console's Providers page (berth extension; what Horizon's hypervisor
// list and Nova's os-hypervisors answer): root providers with their tree's usage, availability
// zone, aggregates, instances and disabled state, filtered, sorted and paged in memory from the
// capacity index the candidate engine reads (src/placement/allocation-candidates/capacity-index.ts).
// No SQL per row: the aggregates' names and metadata are read once per listing.
import type { CapacityIndex } from './allocation-candidates/capacity-index';
import { type CapacityLine, capacityLines } from './capacity-rollup';
import { BadRequestError, ErrorCode } from './errors';
import { distinctCount } from './host-rows';
import type { AggregateRecord } from './types';
import { normalizeUuidOrThrow } from './uuid';

/** The trait Nova sets on the root provider of a disabled compute service. */
export const DISABLED_TRAIT = 'COMPUTE_STATUS_DISABLED';
/** The aggregate metadata key Nova keeps a host aggregate's availability zone in. */
export const ZONE_KEY = 'availability_zone';
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
  /** The root provider has {@link DISABLED_TRAIT}. */
  readonly disabled: boolean;
  /** {@link ZONE_KEY} of the first of the root's aggregates (by uuid) that sets it, or null. */
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

/** Per-host figures everything is filtered and sorted on. */
interface Summary {
  readonly slot: number;
  readonly name: string;
  readonly disabled: boolean;
  readonly zone: string | null;
  readonly aggregates: readonly AggregateRecord[];
  readonly aggregateLabel: string;
  readonly instances: number;
  readonly children: number;
  readonly maxUtilisation: number;
  /** The sort class's figure, NaN when the tree has no inventory of it. */
  readonly classKey: number;
}

/** The display name of an aggregate: its name, else its uuid. */
export function aggregateLabel(a: Pick<AggregateRecord, 'uuid' | 'name'>): string {
  return a.name ?? a.uuid;
}

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
  const perClass = order && ['UTILISATION', 'USED', 'CAPACITY'].includes(order.field);
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

/** Highest used / capacity over the classes of `slots` (summed per class). */
function maxUtilisationOf(index: CapacityIndex, slots: readonly number[]): number {
  if (slots.length === 1) {
    const inv = index.inventories;
    let max = 0;
    for (const i of index.invSlots[slots[0]!] ?? []) {
      const cap = inv.capacity[i]!;
      max = Math.max(max, cap > 0 ? inv.used[i]! / cap : 0);
    }
    return max;
  }
  return capacityLines(index, slots).reduce((m, l) => Math.max(m, l.utilisation), 0);
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

function summarise(
  index: CapacityIndex,
  aggregates: ReadonlyMap<string, AggregateRecord>,
  order: HostListOrder | null | undefined,
): Summary[] {
  const disabledId = index.traitTable.lookup(DISABLED_TRAIT);
  const perClass = order && ['UTILISATION', 'USED', 'CAPACITY'].includes(order.field);
  const classId = perClass ? index.classes.lookup(order.resourceClass!) : -1;
  const out: Summary[] = [];
  for (const slot of index.rootOrder()) {
    const members = index.members[slot] ?? [slot];
    const aggs = Array.from(index.aggregates[slot] ?? [], (a) => {
      const uuid = index.aggregateTable.name(a);
      return aggregates.get(uuid) ?? { id: 0, uuid, name: null, metadata: [] };
    });
    const zone =
      [...aggs]
        .sort((a, b) => (a.uuid < b.uuid ? -1 : 1))
        .map((a) => a.metadata.find((m) => m.key === ZONE_KEY)?.value)
        .find((v) => v !== undefined) ?? null;
    aggs.sort((a, b) => compareText(aggregateLabel(a), aggregateLabel(b)));
    out.push({
      slot,
      name: index.name[slot]!,
      disabled: disabledId >= 0 && index.hasTrait(slot, disabledId),
      zone,
      aggregates: aggs,
      aggregateLabel: aggs.map(aggregateLabel).join(', '),
      instances: distinctCount(index.consumers, members),
      children: members.length - 1,
      maxUtilisation: maxUtilisationOf(index, members),
      classKey: perClass ? classFigure(index, members, classId, order.field) : Number.NaN,
    });
  }
  return out;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function selects(index: CapacityIndex, filter: HostListFilter | null | undefined) {
  const f = filter ?? {};
  const contains = f.nameContains?.toLowerCase();
  const traitId = f.trait ? index.traitTable.lookup(f.trait) : null;
  const aggUuid = f.aggregate ? normalizeUuidOrThrow(f.aggregate, 'aggregate uuid') : null;
  return (s: Summary): boolean => {
    if (contains && !s.name.toLowerCase().includes(contains)) {
      return false;
    }
    if (traitId !== null) {
      const members = index.members[s.slot] ?? [s.slot];
      if (traitId < 0 || !members.some((m) => index.hasTrait(m, traitId))) {
        return false;
      }
    }
    if (aggUuid && !s.aggregates.some((a) => a.uuid === aggUuid)) {
      return false;
    }
    if (f.availabilityZone && s.zone !== f.availabilityZone) {
      return false;
    }
    if (f.state === 'ENABLED' && s.disabled) {
      return false;
    }
    if (f.state === 'DISABLED' && !s.disabled) {
      return false;
    }
    return !(f.state === 'FULL' && s.maxUtilisation < FULL_AT);
  };
}

/** The primary sort key of a summary: a number or a string; null sorts last either way. */
function keyOf(s: Summary, field: HostSortField): number | string | null {
  switch (field) {
    case 'NAME':
      return s.name;
    case 'AVAILABILITY_ZONE':
      return s.zone;
    case 'AGGREGATES':
      return s.aggregateLabel || null;
    case 'INSTANCES':
      return s.instances;
    case 'CHILDREN':
      return s.children;
    case 'DISABLED':
      return s.disabled ? 1 : 0;
    case 'MAX_UTILISATION':
      return s.maxUtilisation;
    default:
      return Number.isNaN(s.classKey) ? null : s.classKey;
  }
}

function sortSummaries(index: CapacityIndex, rows: Summary[], order: HostListOrder): void {
  const sign = order.direction === 'DESC' ? -1 : 1;
  const keys = new Map(rows.map((s) => [s, keyOf(s, order.field)]));
  rows.sort((a, b) => {
    const [x, y] = [keys.get(a)!, keys.get(b)!];
    if (x !== y) {
      if (x === null) {
        return 1;
      }
      if (y === null) {
        return -1;
      }
      const d = typeof x === 'number' ? x - (y as number) : compareText(x, y as string);
      if (d !== 0) {
        return sign * d;
      }
    }
    return compareText(a.name, b.name) || index.providerId[a.slot]! - index.providerId[b.slot]!;
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
  const byUuid = new Map(aggregates.map((a) => [a.uuid, a]));
  const matches = summarise(index, byUuid, query.orderBy).filter(selects(index, query.filter));
  sortSummaries(index, matches, query.orderBy ?? { field: 'NAME', direction: 'ASC' });
  const page = matches.slice(query.offset, query.offset + query.first);
  return {
    totalCount: matches.length,
    hosts: page.map((s) => {
      const usage = capacityLines(index, index.members[s.slot] ?? [s.slot]);
      return {
        uuid: index.uuid[s.slot]!,
        name: s.name,
        disabled: s.disabled,
        availabilityZone: s.zone,
        aggregates: s.aggregates,
        instances: s.instances,
        usage,
        maxUtilisation: s.maxUtilisation,
        children: s.children,
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
