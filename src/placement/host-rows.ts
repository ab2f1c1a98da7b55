// What scheduler plugins see about candidate hosts (provider trees): providers, inventories,
// usages, traits and aggregate memberships, read from this replica's in-memory capacity index
// (the one the candidates were just computed from, kept current by the change feed), plus
// aggregate names and metadata from a small cache invalidated by aggregate changes. No SQL per
// scheduling request; plugins never query the database. Claims are validated in PostgreSQL, so
// an index a change behind can cost a retry, never an over-commit.
import type { DataSource } from 'typeorm';
import type { CapacityIndex } from './allocation-candidates/capacity-index';
import type { ChangeBus } from './change-bus';
import type { InventoryLimits } from './types';

/** A provider of one of the candidate trees. */
export interface ProviderRow {
  readonly uuid: string;
  readonly name: string;
  readonly parentUuid: string | null;
  readonly rootUuid: string;
  readonly generation?: number;
}

/** An inventory of one provider, by uuid, as host views are built from. */
export interface HostInventoryRow extends InventoryLimits {
  readonly providerUuid: string;
}

/** Sum of allocations of one resource class against one provider. */
export interface UsageRow {
  readonly providerUuid: string;
  readonly resourceClass: string;
  readonly used: number;
}

/** One trait of one provider. */
export interface HostTraitRow {
  readonly providerUuid: string;
  readonly trait: string;
}

/** One aggregate membership of one provider. */
export interface MembershipRow {
  readonly providerUuid: string;
  readonly aggregateUuid: string;
}

/** One metadata entry of one aggregate. */
export interface AggregateMetadataRow {
  readonly aggregateUuid: string;
  readonly key: string;
  readonly value: string;
}

/** Per-tree counts (scheduler `HostView.numInstances` / `numIoOps` / `failedBuilds`). */
export interface HostCountRow {
  readonly rootUuid: string;
  /** Distinct consumers with allocations on any provider of the tree. */
  readonly numInstances: number;
  /** Those of them with a move in progress. */
  readonly numIoOps: number;
  /**
   * Of those moving, the ones that arrived by their move (no recorded source allocation on the
   * tree; `HostView.numMovesIn`, default 0).
   */
  readonly numMovesIn?: number;
  /** Consecutive failed builds reported for the host (`HostView.failedBuilds`; default 0). */
  readonly failedBuilds?: number;
}

/** Everything read for a batch of candidate trees. */
export interface HostRowSet {
  readonly providers: readonly ProviderRow[];
  readonly inventories: readonly HostInventoryRow[];
  readonly usages: readonly UsageRow[];
  readonly traits: readonly HostTraitRow[];
  readonly memberships: readonly MembershipRow[];
  /** Aggregate names (optional); aggregates without a row get `name: null`. */
  readonly aggregates?: readonly { readonly uuid: string; readonly name: string | null }[];
  readonly aggregateMetadata: readonly AggregateMetadataRow[];
  /** Consumer counts per tree; trees without a row count 0. */
  readonly hostCounts?: readonly HostCountRow[];
}

/** An aggregate with its name and metadata. */
export interface AggregateWithMetadata {
  readonly uuid: string;
  readonly name: string | null;
  readonly metadata: Record<string, string>;
}

/**
 * Rows for every provider of the trees rooted at `rootUuids` (allocation requests and aggregate
 * metadata not included). Roots the index no longer knows are left out.
 */
export function hostRowsFromIndex(
  index: CapacityIndex,
  rootUuids: readonly string[],
): Omit<HostRowSet, 'aggregateMetadata'> & { roots: string[] } {
  const providers: HostRowSet['providers'][number][] = [];
  const inventories: HostRowSet['inventories'][number][] = [];
  const usages: HostRowSet['usages'][number][] = [];
  const traits: HostRowSet['traits'][number][] = [];
  const memberships: HostRowSet['memberships'][number][] = [];
  const hostCounts: HostCountRow[] = [];
  const roots: string[] = [];
  const inv = index.inventories;
  for (const rootUuid of rootUuids) {
    const rootSlot = index.slotOfUuid(rootUuid);
    if (rootSlot < 0 || index.parent[rootSlot] !== -1) {
      continue;
    }
    roots.push(rootUuid);
    const slots = index.members[rootSlot] ?? [rootSlot];
    const numIoOps = distinctCount(index.movingConsumers, slots);
    hostCounts.push({
      rootUuid,
      numInstances: distinctCount(index.consumers, slots),
      numIoOps,
      numMovesIn: numIoOps - distinctCount(index.movingFromConsumers, slots),
      failedBuilds: index.failedBuilds[rootSlot] ?? 0,
    });
    for (const slot of slots) {
      const uuid = index.uuid[slot]!;
      const parentSlot = index.parent[slot]!;
      providers.push({
        uuid,
        name: index.name[slot]!,
        parentUuid: parentSlot >= 0 ? index.uuid[parentSlot]! : null,
        rootUuid,
        generation: index.generation[slot]!,
      });
      for (const i of index.inventorySlots(slot)) {
        const resourceClass = index.classes.name(inv.resourceClass[i]!);
        inventories.push({
          providerUuid: uuid,
          resourceClass,
          total: inv.total[i]!,
          reserved: inv.reserved[i]!,
          minUnit: inv.minUnit[i]!,
          maxUnit: inv.maxUnit[i]!,
          stepSize: inv.stepSize[i]!,
          allocationRatio: inv.ratio[i]!,
        });
        if (inv.used[i]! > 0) {
          usages.push({ providerUuid: uuid, resourceClass, used: inv.used[i]! });
        }
      }
      for (const t of index.traits[slot] ?? []) {
        traits.push({ providerUuid: uuid, trait: index.traitTable.name(t) });
      }
      for (const a of index.aggregates[slot] ?? []) {
        memberships.push({ providerUuid: uuid, aggregateUuid: index.aggregateTable.name(a) });
      }
    }
  }
  return { providers, inventories, usages, traits, memberships, hostCounts, roots };
}

/** Distinct ids over the lists of `slots` (a consumer may hold allocations on several providers). */
export function distinctCount(lists: readonly Int32Array[], slots: ArrayLike<number>): number {
  if (slots.length === 1) {
    return lists[slots[0]!]?.length ?? 0;
  }
  const seen = new Set<number>();
  for (let i = 0; i < slots.length; i++) {
    for (const id of lists[slots[i]!] ?? []) {
      seen.add(id);
    }
  }
  return seen.size;
}

/** Every aggregate that has a name or metadata, with them. */
export async function loadAggregatesWithMetadata(ds: DataSource): Promise<AggregateWithMetadata[]> {
  const rows: { uuid: string; name: string | null; key: string | null; value: string | null }[] =
    await ds.query(
      `SELECT a.uuid, a.name, m.key, m.value FROM placement_aggregates a
       LEFT JOIN aggregate_metadata m ON m.aggregate_id = a.id
       WHERE a.name IS NOT NULL OR m.key IS NOT NULL ORDER BY a.uuid, m.key`,
    );
  const out = new Map<
    string,
    { uuid: string; name: string | null; metadata: Record<string, string> }
  >();
  for (const r of rows) {
    const agg = out.get(r.uuid) ?? { uuid: r.uuid, name: r.name, metadata: {} };
    if (r.key !== null) {
      agg.metadata[r.key] = r.value ?? '';
    }
    out.set(r.uuid, agg);
  }
  return [...out.values()];
}

/**
 * Aggregate names and metadata, loaded once and reloaded after an aggregate change (local or
 * heard through NOTIFY) or a reset. A load that overlaps a change is not kept.
 */
export class AggregateMetadataCache {
  private value: Promise<AggregateWithMetadata[]> | undefined;
  private version = 0;

  constructor(
    private readonly ds: DataSource,
    bus: ChangeBus,
  ) {
    bus.subscribe((change) => {
      if (change.kind === 'aggregates' || change.kind === 'all') {
        this.version++;
        this.value = undefined;
      }
    });
  }

  /** Bumped by every aggregate change heard (local or remote). */
  get changes(): number {
    return this.version;
  }

  /** Every aggregate with a name or metadata. */
  all(): Promise<AggregateWithMetadata[]> {
    if (this.value) {
      return this.value;
    }
    const started = this.version;
    const loading = loadAggregatesWithMetadata(this.ds);
    this.value = loading;
    loading.then(
      () => {
        if (this.version !== started && this.value === loading) {
          this.value = undefined;
        }
      },
      () => {
        if (this.value === loading) {
          this.value = undefined;
        }
      },
    );
    return loading;
  }
}
