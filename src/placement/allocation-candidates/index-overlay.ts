// A private, writable copy-on-write view of a live capacity index, for what-if planning
// (headroom, simulation, drain plans): allocations placed or released on it change what the
// engine and the host views read from it, never the live index, the database or any cache of
// the live index. It shares everything with the live index except the usage column, the
// per-provider stamps and consumer lists (one number or pointer per inventory and per provider,
// copied when it is made: ~0.3 MB at 10,000 hosts), so making one costs a few milliseconds and
// holding one costs no copy of the providers, traits, aggregates or inventories.

import type { CapacityIndex } from './capacity-index';
import type { InventoryTable } from './inventory-table';

/** Allocations of one consumer as the overlay takes them: provider uuid -> class -> amount. */
export type OverlayAllocations = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** A planning overlay: the index the engine reads, and whether it still matches the live one. */
export interface IndexOverlay {
  /** Reads like the live index, with this overlay's usage and consumers. */
  readonly index: CapacityIndex;
  /**
   * False once the live index's providers, inventories, traits or aggregates changed since the
   * overlay was made (usage changes do not count): its usage column no longer lines up with the
   * live inventories, and the overlay must be made again.
   */
  current(): boolean;
}

/** Writable own copies of the per-provider arrays an overlay changes. */
interface Writable {
  inventories: InventoryTable;
  stamp: Int32Array;
  consumers: Int32Array[];
  movingConsumers: Int32Array[];
  movingFromConsumers: Int32Array[];
  failedBuilds: number[];
  version: number;
}

/** Makes an overlay of `live` as it is now. */
export function overlayIndex(live: CapacityIndex): IndexOverlay {
  const index = Object.create(live) as CapacityIndex;
  const inventories = Object.create(live.inventories) as InventoryTable;
  inventories.used = live.inventories.used.slice();
  const own = index as unknown as Writable;
  own.inventories = inventories;
  own.stamp = live.stamp.slice();
  own.consumers = live.consumers.slice();
  own.movingConsumers = live.movingConsumers.slice();
  own.movingFromConsumers = live.movingFromConsumers.slice();
  own.failedBuilds = live.failedBuilds.slice();
  own.version = live.version;
  const shape = live.shape;
  return { index, current: () => live.shape === shape };
}

/** Where allocations could not be applied (an unknown provider or class). */
export class OverlayMismatch extends Error {}

function sortedWith(list: Int32Array, id: number): Int32Array {
  if (list.includes(id)) {
    return list;
  }
  const next = new Int32Array(list.length + 1);
  next.set(list);
  next[list.length] = id;
  return next.sort();
}

function sortedWithout(list: Int32Array, id: number): Int32Array {
  return list.includes(id) ? list.filter((x) => x !== id) : list;
}

/**
 * Adds (`sign` 1) or removes (`sign` -1) one consumer's allocations on the overlay: usage of
 * each inventory, the consumer in each provider's consumer list (so host views count it), and
 * the providers' stamps (so cached views and summaries of them are rebuilt). Nothing is checked
 * against capacity: the caller places what the engine offered, or releases what was placed.
 * @throws OverlayMismatch when a provider or class is unknown to the index (nothing changed).
 */
export function applyOverlay(
  overlay: IndexOverlay,
  allocations: OverlayAllocations,
  consumerId: number,
  sign: 1 | -1,
): void {
  const index = overlay.index;
  const plan: { slot: number; inv: number; amount: number }[] = [];
  for (const [uuid, resources] of Object.entries(allocations)) {
    const slot = index.slotOfUuid(uuid);
    if (slot < 0) {
      throw new OverlayMismatch(`unknown resource provider ${uuid}`);
    }
    for (const [rc, amount] of Object.entries(resources)) {
      const classId = index.classes.lookup(rc);
      const inv = classId < 0 ? -1 : index.findInventory(slot, classId);
      if (inv < 0) {
        throw new OverlayMismatch(`resource provider ${uuid} has no ${rc} inventory`);
      }
      plan.push({ slot, inv, amount });
    }
  }
  const used = index.inventories.used;
  for (const { inv, amount } of plan) {
    used[inv]! += sign * amount;
  }
  const own = index as unknown as Writable;
  for (const slot of new Set(plan.map((p) => p.slot))) {
    const list = own.consumers[slot]!;
    own.consumers[slot] = sign > 0 ? sortedWith(list, consumerId) : sortedWithout(list, consumerId);
    if (sign < 0) {
      own.movingConsumers[slot] = sortedWithout(own.movingConsumers[slot]!, consumerId);
      own.movingFromConsumers[slot] = sortedWithout(own.movingFromConsumers[slot]!, consumerId);
    }
    index.touchSlot(slot);
  }
  own.version++;
}
