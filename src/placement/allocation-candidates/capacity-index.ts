// In-memory capacity index over the whole provider forest, kept current by small mutators
// (upstream: the tables research_context.py queries; this is berth's replacement for those SQL reads).

import type {
  AggregateRow,
  IndexBuildFailureRow,
  IndexConsumerRow,
  IndexInventoryRow,
  IndexRows,
  IndexTraitRow,
  ProviderRow,
} from './index-rows';
import { IntSetPool, sortedIds } from './int-set-pool';
import { InternTable } from './intern-table';
import { growInt32, InventoryTable } from './inventory-table';
import { ProviderForest } from './provider-forest';
import { type AnchorSource, SharingAnchors } from './sharing-anchors';

/** The trait that marks a provider as sharing its inventory through aggregates. */
export const SHARING_TRAIT = 'MISC_SHARES_VIA_AGGREGATE';

/** Inventory fields without the provider id, as accepted by {@link CapacityIndex.replaceInventories}. */
export type InventoryInput = Omit<IndexInventoryRow, 'providerId'>;

const NO_INTS = new Int32Array(0);

function groupBy<T extends { readonly providerId: number }>(rows: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) {
    const list = out.get(r.providerId);
    if (list) {
      list.push(r);
    } else {
      out.set(r.providerId, [r]);
    }
  }
  return out;
}

/**
 * Compact index of providers, inventories (+usage), traits and aggregates. Names are interned to
 * small integers; numeric inventory columns live in typed arrays. Read by the candidate engine;
 * written by {@link CapacityIndex.fromRows} and the incremental mutators. Not thread-safe (one
 * writer, readers between writes), which is the Node model.
 */
export class CapacityIndex extends ProviderForest implements AnchorSource {
  readonly classes = new InternTable();
  readonly traitTable = new InternTable();
  readonly aggregateTable = new InternTable();
  readonly inventories = new InventoryTable();
  /** Per provider slot: sorted trait ids (shared between slots with the same set: read only). */
  readonly traits: Int32Array[] = [];
  /** Per trait (interned id): its id in the `traits` table, when the rows gave one. */
  readonly traitRowIds: number[] = [];
  /** Per provider slot: sorted aggregate ids (shared between slots with the same set: read only). */
  readonly aggregates: Int32Array[] = [];
  /** Per provider slot: sorted ids of the consumers with allocations on it. */
  readonly consumers: Int32Array[] = [];
  /** Per provider slot: sorted ids of those consumers with a move in progress. */
  readonly movingConsumers: Int32Array[] = [];
  /** Per provider slot: sorted ids of those moving consumers whose move started on it. */
  readonly movingFromConsumers: Int32Array[] = [];
  /** Per provider slot: consecutive failed builds reported for it (roots; 0 without a row). */
  readonly failedBuilds: number[] = [];
  /** Aggregate id -> provider slots in it. */
  readonly aggMembers = new Map<number, Set<number>>();
  /** Per provider slot: 1 when it has the sharing trait. */
  sharing = new Int32Array(0);
  /** The slots with the sharing trait (few: shared storage pools, network segments). */
  private readonly sharingSet = new Set<number>();
  readonly sharingTraitId: number;
  /** Sharing anchors cache. */
  readonly anchors = new SharingAnchors(this);
  /** Bumped on every change; caches of derived per-request data compare against it. */
  version = 0;
  /** Bumped when providers, inventories, traits or aggregates change (not usage): overlays check it. */
  shape = 0;
  private readonly traitSets = new IntSetPool();
  private readonly aggregateSets = new IntSetPool();
  private knownClasses: Set<string> | null = null;
  private knownTraits: Set<string> | null = null;

  constructor() {
    super();
    this.sharingTraitId = this.traitTable.intern(SHARING_TRAIT);
  }

  /** Builds an index from a full snapshot. @throws Error when a parent id is unknown. */
  static fromRows(rows: IndexRows): CapacityIndex {
    const index = CapacityIndex.withCatalogs(rows);
    index.addRows(rows);
    return index;
  }

  /** An empty index that knows these catalogues (absent: every name is accepted). */
  static withCatalogs(
    catalogs: Pick<IndexRows, 'resourceClassNames' | 'traitNames'>,
  ): CapacityIndex {
    const index = new CapacityIndex();
    index.knownClasses = catalogs.resourceClassNames ? new Set(catalogs.resourceClassNames) : null;
    index.knownTraits = catalogs.traitNames ? new Set(catalogs.traitNames) : null;
    return index;
  }

  /**
   * Adds the providers of `rows` with everything the rows say about them (a snapshot, or one
   * chunk of one: the loader reads the database a range of provider ids at a time).
   * @throws Error when a parent id is unknown.
   */
  addRows(rows: IndexRows): void {
    this.addProviders(rows.providers);
    this.inventories.reserve(rows.inventories.length);
    for (const [id, list] of groupBy(rows.inventories)) {
      this.replaceInventories(id, list);
    }
    for (const [id, list] of groupBy(rows.traits)) {
      this.setTraits(
        id,
        list.map((t: IndexTraitRow) => t.trait),
      );
    }
    this.noteTraitRowIds(rows.traits);
    for (const [id, list] of groupBy(rows.aggregates)) {
      this.setAggregates(
        id,
        list.map((a: AggregateRow) => a.aggregateUuid),
      );
    }
    for (const row of rows.consumers ?? []) {
      this.setConsumers(row);
    }
    for (const row of rows.buildFailures ?? []) {
      this.setFailedBuilds(row);
    }
  }

  /**
   * Replaces everything known about the providers `ids` by what `rows` says (rows may carry
   * other providers' data too; it is ignored). Ids absent from `rows.providers` are removed.
   * This is the natural target of a 'providers' change notification.
   */
  refreshProviders(ids: readonly number[], rows: IndexRows): void {
    const wanted = new Set(ids);
    const present = rows.providers.filter((p) => wanted.has(p.id));
    this.addProviders(present);
    const inv = groupBy(rows.inventories.filter((r) => wanted.has(r.providerId)));
    const trt = groupBy(rows.traits.filter((r) => wanted.has(r.providerId)));
    const agg = groupBy(rows.aggregates.filter((r) => wanted.has(r.providerId)));
    const con = new Map((rows.consumers ?? []).map((r) => [r.providerId, r]));
    const failed = new Map((rows.buildFailures ?? []).map((r) => [r.providerId, r]));
    for (const p of present) {
      this.setConsumers(con.get(p.id) ?? { providerId: p.id, consumerIds: [], movingIds: [] });
      this.setFailedBuilds(failed.get(p.id) ?? { providerId: p.id, failedBuilds: 0 });
      this.replaceInventories(p.id, inv.get(p.id) ?? []);
      this.setTraits(
        p.id,
        (trt.get(p.id) ?? []).map((t) => t.trait),
      );
      this.setAggregates(
        p.id,
        (agg.get(p.id) ?? []).map((a) => a.aggregateUuid),
      );
    }
    this.noteTraitRowIds(rows.traits);
    const kept = new Set(present.map((p) => p.id));
    const gone = ids.filter((id) => !kept.has(id));
    // Children first: a removal must never leave an orphan behind.
    gone.sort((a, b) => this.depthOfId(b) - this.depthOfId(a));
    for (const id of gone) {
      if (this.slotOfId(id) >= 0) {
        this.removeProvider(id);
      }
    }
  }

  /** Inserts or updates providers; parents may come later in the same batch. */
  addProviders(rows: readonly ProviderRow[]): void {
    this.upsertProviders(rows);
    this.touch();
  }

  /** Inserts or updates one provider (name, uuid, generation, parent). */
  upsertProvider(row: ProviderRow): void {
    this.addProviders([row]);
  }

  /** Moves a provider (and its subtree) under `parentId`, or makes it a root with null. */
  reparentProvider(id: number, parentId: number | null): void {
    this.setParent(this.slotOrThrow(id), parentId === null ? -1 : this.slotOrThrow(parentId));
    this.touch();
  }

  /** Removes a childless provider with its inventories, traits and aggregates. @throws Error if it has children. */
  removeProvider(id: number): void {
    const slot = this.slotOrThrow(id);
    this.replaceInventories(id, []);
    this.setTraits(id, []);
    this.setAggregates(id, []);
    this.consumers[slot] = NO_INTS;
    this.movingConsumers[slot] = NO_INTS;
    this.movingFromConsumers[slot] = NO_INTS;
    this.failedBuilds[slot] = 0;
    this.deleteSlot(slot);
    this.touch();
  }

  /** Replaces all inventories of a provider (usage included). */
  replaceInventories(providerId: number, rows: readonly InventoryInput[]): void {
    const slot = this.slotOrThrow(providerId);
    const compacted = this.inventories.replace(slot, rows, (r) => {
      this.knownClasses?.add(r.resourceClass);
      return this.classes.intern(r.resourceClass);
    });
    this.touchSlot(slot);
    this.version++;
    this.shape++;
    if (compacted) {
      for (const s of this.orderedSlots()) {
        this.touchSlot(s);
      }
      this.touch();
    }
  }

  /** The inventory slots of provider `slot` (a new array: for readers off the hot path). */
  inventorySlots(slot: number): Int32Array {
    return this.inventories.slotsOf(slot);
  }

  /**
   * Adds `deltaUsed` (negative to free) to the usage of one inventory. Returns false when the
   * provider has no inventory of that class (nothing changed).
   */
  applyAllocationDelta(providerId: number, resourceClass: string, deltaUsed: number): boolean {
    const slot = this.slotOfId(providerId);
    const classId = this.classes.lookup(resourceClass);
    const inv = slot < 0 || classId < 0 ? -1 : this.findInventory(slot, classId);
    if (inv < 0) {
      return false;
    }
    this.inventories.used[inv]! += deltaUsed;
    this.touchSlot(slot);
    this.version++;
    return true;
  }

  /** Replaces the traits of a provider. */
  setTraits(providerId: number, traits: readonly string[]): void {
    const slot = this.slotOrThrow(providerId);
    const ids = sortedIds(this.traitTable, traits);
    for (const t of traits) {
      this.knownTraits?.add(t);
    }
    this.traitSets.release(this.traits[slot]);
    this.traits[slot] = this.traitSets.acquire(ids);
    this.sharing = growInt32(this.sharing, slot + 1);
    const sharing = ids.includes(this.sharingTraitId) ? 1 : 0;
    if (this.sharing[slot] !== sharing) {
      this.sharing[slot] = sharing;
      if (sharing) {
        this.sharingSet.add(slot);
      } else {
        this.sharingSet.delete(slot);
      }
      this.anchors.invalidate();
    }
    this.touchSlot(slot);
    this.touch();
  }

  /** Records the `traits` table ids the rows carry (the order of traits in provider summaries). */
  noteTraitRowIds(rows: readonly IndexTraitRow[]): void {
    for (const r of rows) {
      if (r.traitId !== undefined) {
        this.traitRowIds[this.traitTable.intern(r.trait)] = r.traitId;
      }
    }
  }

  /** Replaces the aggregates of a provider. */
  setAggregates(providerId: number, aggregateUuids: readonly string[]): void {
    const slot = this.slotOrThrow(providerId);
    for (const agg of this.aggregates[slot] ?? NO_INTS) {
      this.aggMembers.get(agg)?.delete(slot);
    }
    const ids = sortedIds(this.aggregateTable, aggregateUuids);
    const before = this.aggregates[slot];
    this.aggregateSets.release(before);
    this.aggregates[slot] = this.aggregateSets.acquire(ids);
    if (this.aggregates[slot] !== before) {
      this.anchors.invalidate();
    }
    for (const agg of ids) {
      const set = this.aggMembers.get(agg);
      if (set) {
        set.add(slot);
      } else {
        this.aggMembers.set(agg, new Set([slot]));
      }
    }
    this.touchSlot(slot);
    this.touch();
  }

  /** Replaces the consumers with allocations on a provider (and which of them are moving). */
  setConsumers(row: IndexConsumerRow): void {
    const slot = this.slotOrThrow(row.providerId);
    this.consumers[slot] = Int32Array.from(row.consumerIds).sort();
    this.movingConsumers[slot] = Int32Array.from(row.movingIds).sort();
    this.movingFromConsumers[slot] = Int32Array.from(row.movingFromIds ?? row.movingIds).sort();
    this.touchSlot(slot);
    this.version++;
  }

  /** Sets the failed builds of a provider (a host's root). */
  setFailedBuilds(row: IndexBuildFailureRow): void {
    const slot = this.slotOrThrow(row.providerId);
    if (this.failedBuilds[slot] !== row.failedBuilds) {
      this.failedBuilds[slot] = row.failedBuilds;
      this.touchSlot(slot);
      this.version++;
    }
  }

  /** Declares a resource class as existing (only matters when a catalogue was loaded). */
  defineResourceClass(name: string): void {
    this.knownClasses?.add(name);
  }

  /** Declares a trait as existing (only matters when a catalogue was loaded). */
  defineTrait(name: string): void {
    this.knownTraits?.add(name);
  }

  /** Declares a resource class as deleted (only matters when a catalogue was loaded). */
  forgetResourceClass(name: string): void {
    this.knownClasses?.delete(name);
  }

  /** Declares a trait as deleted (only matters when a catalogue was loaded). */
  forgetTrait(name: string): void {
    this.knownTraits?.delete(name);
  }

  /** True unless a catalogue is loaded and does not list `name` (names used by rows are added). */
  isKnownResourceClass(name: string): boolean {
    return !this.knownClasses || this.knownClasses.has(name);
  }

  /** True unless a catalogue is loaded and does not list `name` (names used by rows are added). */
  isKnownTrait(name: string): boolean {
    return !this.knownTraits || this.knownTraits.has(name);
  }

  /** Inventory slot of class `classId` on provider `slot`, or -1. */
  findInventory(slot: number, classId: number): number {
    return this.inventories.find(slot, classId);
  }

  /** True when provider `slot` has trait `traitId`. */
  hasTrait(slot: number, traitId: number): boolean {
    return (this.traits[slot] ?? NO_INTS).includes(traitId);
  }

  /** True when provider `slot` is directly in aggregate `aggId`. */
  inAggregate(slot: number, aggId: number): boolean {
    return (this.aggregates[slot] ?? NO_INTS).includes(aggId);
  }

  /** Alive sharing providers, ordered by provider id. */
  sharingSlots(): readonly number[] {
    return [...this.sharingSet].sort((a, b) => this.providerId[a]! - this.providerId[b]!);
  }

  protected override onForestChanged(): void {
    this.anchors?.invalidate();
  }

  protected override onSlotCreated(slot: number): void {
    this.traits[slot] = NO_INTS;
    this.aggregates[slot] = NO_INTS;
    this.consumers[slot] = NO_INTS;
    this.movingConsumers[slot] = NO_INTS;
    this.movingFromConsumers[slot] = NO_INTS;
    this.failedBuilds[slot] = 0;
    this.sharing = growInt32(this.sharing, slot + 1);
    this.sharing[slot] = 0;
  }

  /**
   * Something but usage changed. The sharing anchors are dropped only where they can change:
   * a sharing flag, an aggregate set, or the forest (onForestChanged).
   */
  private touch(): void {
    this.version++;
    this.shape++;
  }
}
