// Reusable per-index scratch arrays for the search, so a request allocates almost nothing
// (berth-specific; upstream allocates Python objects per candidate instead).
import type { CapacityIndex } from './capacity-index';
import { growFloat64, growInt32 } from './inventory-table';

/**
 * Counters indexed by provider slot / inventory slot. Every user restores the zeros it changed
 * (undo on backtrack), so no request pays for clearing them.
 */
export class SearchScratch {
  /** Assignments on the current search path using a provider (any group). */
  touch = new Int32Array(0);
  /** Suffixed-group assignments on the current path using a provider (group_policy=isolate). */
  isolated = new Int32Array(0);
  /** Amount taken on the current path per inventory slot. */
  taken = new Float64Array(0);
  /** Matching: variable matched to a provider slot (+1; 0 = none) and visit stamps. */
  matchedVar = new Int32Array(0);
  stamp = new Int32Array(0);
  stampClock = 0;
  inUse = false;

  /** Grows the arrays to the index's current slot counts. */
  ensureSize(providerSlots: number, inventorySlots: number): void {
    this.touch = growInt32(this.touch, providerSlots);
    this.isolated = growInt32(this.isolated, providerSlots);
    this.matchedVar = growInt32(this.matchedVar, providerSlots);
    this.stamp = growInt32(this.stamp, providerSlots);
    this.taken = growFloat64(this.taken, inventorySlots);
  }
}

const pool = new WeakMap<CapacityIndex, SearchScratch>();

/** Borrows the index's scratch (or a fresh one when it is already borrowed). Call release after use. */
export function borrowScratch(index: CapacityIndex): SearchScratch {
  let scratch = pool.get(index);
  if (!scratch || scratch.inUse) {
    scratch = new SearchScratch();
    if (!pool.has(index)) {
      pool.set(index, scratch);
    }
  }
  scratch.inUse = true;
  scratch.ensureSize(index.providerId.length, index.inventories.size);
  return scratch;
}

/** Returns a borrowed scratch. */
export function releaseScratch(scratch: SearchScratch): void {
  scratch.inUse = false;
}
