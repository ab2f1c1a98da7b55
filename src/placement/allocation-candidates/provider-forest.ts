// The provider forest of the capacity index: slots, parent/root links, tree membership and a
// stable root order (upstream: resource_providers.parent_provider_id / root_provider_id).

import { IdSlots } from './id-slots';
import type { ProviderRow } from './index-rows';
import { growInt32 } from './inventory-table';

/** The children list of every leaf: shared, frozen (a slot gets its own list with its first child). */
const NO_CHILDREN = Object.freeze([]) as unknown as number[];

function insertSorted(list: number[], slot: number, key: (s: number) => number): void {
  const k = key(slot);
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(list[mid]!) < k) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  list.splice(lo, 0, slot);
}

/** Provider slots with parent/root links; the base of {@link CapacityIndex}. */
export class ProviderForest {
  /** Per slot: provider id, uuid, name, generation. */
  readonly providerId: number[] = [];
  readonly uuid: string[] = [];
  readonly name: string[] = [];
  readonly generation: number[] = [];
  /** Per slot: parent slot (-1 for a root) and root slot. */
  parent = new Int32Array(0);
  root = new Int32Array(0);
  /** Per slot: child slots. */
  readonly children: number[][] = [];
  /** Per root slot: every slot of its tree ordered by provider id (empty for non-roots). */
  readonly members: number[][] = [];
  /** Number of providers that have a parent (Placement's has_trees when > 0). */
  nestedCount = 0;
  /** Per slot: a value that changes whenever the provider's summary would (see {@link touchSlot}). */
  stamp = new Int32Array(0);
  private stampClock = 0;
  private readonly slotById = new IdSlots();
  private readonly slotByUuid = new Map<string, number>();
  private readonly freeSlots: number[] = [];
  private slotCount = 0;
  private order: Int32Array | null = null;
  private roots: Int32Array | null = null;
  private rootPosition = new Int32Array(0);

  /** Slot of a provider id, or -1. */
  slotOfId(id: number): number {
    return this.slotById.get(id);
  }

  /** Slot of a provider uuid, or -1. */
  slotOfUuid(uuid: string): number {
    return this.slotByUuid.get(uuid) ?? -1;
  }

  /** Slot of a provider id. @throws Error when unknown. */
  slotOrThrow(id: number): number {
    const slot = this.slotOfId(id);
    if (slot < 0) {
      throw new Error(`capacity index: unknown resource provider id ${id}`);
    }
    return slot;
  }

  /** Root slots ordered by provider id (cached until the forest changes). */
  rootOrder(): Int32Array {
    if (!this.roots) {
      this.roots = Int32Array.from(this.orderedSlots().filter((s) => this.parent[s] === -1));
      this.rootPosition = growInt32(this.rootPosition, this.slotCount);
      this.roots.forEach((slot, pos) => {
        this.rootPosition[slot] = pos;
      });
    }
    return this.roots;
  }

  /** Position of a root slot in {@link rootOrder}. */
  rootPos(rootSlot: number): number {
    this.rootOrder();
    return this.rootPosition[rootSlot]!;
  }

  /** Alive slots ordered by provider id (cached until the forest changes). */
  orderedSlots(): Int32Array {
    if (!this.order) {
      this.order = this.slotById.slotsInIdOrder();
    }
    return this.order;
  }

  /** True when `a` is `b` or one of its ancestors. */
  isAncestorOrSelf(a: number, b: number): boolean {
    for (let s = b; s >= 0; s = this.parent[s]!) {
      if (s === a) {
        return true;
      }
    }
    return false;
  }

  /** Number of ancestors of provider `id` (0 for a root or an unknown id). */
  depthOfId(id: number): number {
    let depth = 0;
    for (let s = this.parent[this.slotOfId(id)] ?? -1; s >= 0; s = this.parent[s]!) {
      depth++;
    }
    return depth;
  }

  /**
   * Marks the data of a slot (uuid, name, generation, links, inventories, usage, traits,
   * aggregates) as changed: provider summaries and scheduler host views are cached by stamp.
   */
  touchSlot(slot: number): void {
    this.stamp[slot] = ++this.stampClock;
  }

  /** Hook for subclasses to initialise per-slot data of a new slot. */
  protected onSlotCreated(_slot: number): void {}

  /** Inserts or updates providers; parents may appear later in `rows`. @throws Error on unknown parent or cycle. */
  protected upsertProviders(rows: readonly ProviderRow[]): void {
    for (const row of rows) {
      let slot = this.slotOfId(row.id);
      const created = slot < 0;
      if (created) {
        slot = this.createSlot(row.id);
      } else if (this.uuid[slot] !== row.uuid) {
        this.slotByUuid.delete(this.uuid[slot]!);
        for (const s of [slot, ...this.children[slot]!, ...this.members[slot]!]) {
          this.touchSlot(s);
        }
      }
      if (created || this.name[slot] !== row.name || this.generation[slot] !== row.generation) {
        this.touchSlot(slot);
      }
      this.uuid[slot] = row.uuid;
      this.slotByUuid.set(row.uuid, slot);
      this.name[slot] = row.name;
      this.generation[slot] = row.generation;
    }
    for (const row of rows) {
      const slot = this.slotOfId(row.id);
      const parent = row.parentId === null ? -1 : this.slotOrThrow(row.parentId);
      if (this.parent[slot] !== parent) {
        this.setParent(slot, parent);
      }
    }
  }

  /** Moves `slot` (with its subtree) under `parentSlot` (-1: make it a root). @throws Error on a cycle. */
  protected setParent(slot: number, parentSlot: number): void {
    if (parentSlot >= 0 && this.isAncestorOrSelf(slot, parentSlot)) {
      throw new Error(
        `capacity index: provider ${this.providerId[slot]} cannot be its own ancestor`,
      );
    }
    const old = this.parent[slot]!;
    if (old === parentSlot) {
      return;
    }
    if (old >= 0) {
      const siblings = this.children[old]!;
      siblings.splice(siblings.indexOf(slot), 1);
      this.nestedCount--;
    }
    if (parentSlot >= 0) {
      if (this.children[parentSlot] === NO_CHILDREN) {
        this.children[parentSlot] = [];
      }
      insertSorted(this.children[parentSlot]!, slot, (s) => this.providerId[s]!);
      this.nestedCount++;
    }
    this.parent[slot] = parentSlot;
    const oldRoot = this.root[slot]!;
    const newRoot = parentSlot >= 0 ? this.root[parentSlot]! : slot;
    const subtree = this.subtree(slot);
    const oldMembers = this.members[oldRoot]!;
    const moved = new Set(subtree);
    this.members[oldRoot] = oldMembers.filter((s) => !moved.has(s));
    for (const s of subtree) {
      this.touchSlot(s);
      this.root[s] = newRoot;
      insertSorted(this.members[newRoot]!, s, (x) => this.providerId[x]!);
    }
    this.invalidateOrder();
  }

  /** Deletes a childless slot. @throws Error when it has children. */
  protected deleteSlot(slot: number): void {
    if (this.children[slot]!.length > 0) {
      throw new Error(`capacity index: provider ${this.providerId[slot]} still has children`);
    }
    const parent = this.parent[slot]!;
    if (parent >= 0) {
      const siblings = this.children[parent]!;
      siblings.splice(siblings.indexOf(slot), 1);
      this.nestedCount--;
    }
    const root = this.root[slot]!;
    const members = this.members[root]!;
    members.splice(members.indexOf(slot), 1);
    this.slotById.delete(this.providerId[slot]!);
    this.slotByUuid.delete(this.uuid[slot]!);
    this.parent[slot] = -1;
    this.root[slot] = slot;
    this.members[slot] = [];
    this.freeSlots.push(slot);
    this.invalidateOrder();
  }

  private createSlot(id: number): number {
    const slot = this.freeSlots.pop() ?? this.slotCount++;
    this.parent = growInt32(this.parent, this.slotCount, -1);
    this.root = growInt32(this.root, this.slotCount);
    this.stamp = growInt32(this.stamp, this.slotCount);
    this.touchSlot(slot);
    this.providerId[slot] = id;
    this.slotById.set(id, slot);
    this.parent[slot] = -1;
    this.root[slot] = slot;
    this.children[slot] = NO_CHILDREN;
    this.members[slot] = [slot];
    this.onSlotCreated(slot);
    this.invalidateOrder();
    return slot;
  }

  private subtree(slot: number): number[] {
    const out = [slot];
    for (let i = 0; i < out.length; i++) {
      out.push(...this.children[out[i]!]!);
    }
    return out;
  }

  private invalidateOrder(): void {
    this.order = null;
    this.roots = null;
    this.onForestChanged();
  }

  /** Hook for subclasses: a slot was created or deleted, or a subtree moved (roots changed). */
  protected onForestChanged(): void {}
}
