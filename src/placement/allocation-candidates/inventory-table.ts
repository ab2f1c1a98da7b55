// Column store of inventories and their usage, the data behind every capacity check
// (upstream: research_context.py _capacity_check_clause and get_usages_by_provider_trees).
import type { InventoryAmounts } from '../types';

/** Grows a typed array to at least `min` elements, keeping its contents. */
export function growFloat64(
  arr: Float64Array<ArrayBuffer>,
  min: number,
): Float64Array<ArrayBuffer> {
  if (arr.length >= min) {
    return arr;
  }
  const next = new Float64Array(grownLength(arr.length, min));
  next.set(arr);
  return next;
}

/** The length a column grows to: half as much again (not double: columns are the index's bulk). */
function grownLength(now: number, min: number): number {
  return Math.max(min, Math.ceil(now * 1.5), 16);
}

/** Grows a typed array to at least `min` elements, keeping its contents. */
export function growInt32(
  arr: Int32Array<ArrayBuffer>,
  min: number,
  fill = 0,
): Int32Array<ArrayBuffer> {
  if (arr.length >= min) {
    return arr;
  }
  const next = new Int32Array(grownLength(arr.length, min));
  if (fill !== 0) {
    next.fill(fill, arr.length);
  }
  next.set(arr);
  return next;
}

/** Numeric fields of one inventory, as accepted by {@link InventoryTable.put}. */
export interface InventoryValues extends InventoryAmounts {
  readonly used: number;
}

/**
 * Inventories in parallel typed arrays indexed by an inventory slot; the inventories of one
 * provider take consecutive slots (the capacity index keeps each provider's range). `capacity` caches floor((total - reserved) * allocation_ratio).
 * total, reserved, min_unit, max_unit and step_size are 32-bit integers in the database (and
 * checked against MAX_INT by inventory-rules); the ratio, usage and capacity are doubles.
 */
export class InventoryTable {
  provider = new Int32Array(0);
  resourceClass = new Int32Array(0);
  total = new Int32Array(0);
  reserved = new Int32Array(0);
  minUnit = new Int32Array(0);
  maxUnit = new Int32Array(0);
  stepSize = new Int32Array(0);
  ratio = new Float64Array(0);
  used = new Float64Array(0);
  capacity = new Float64Array(0);
  /** Per provider slot: its inventories are the slots start[p] to end[p] - 1. */
  start = new Int32Array(0);
  end = new Int32Array(0);
  /** One past the highest slot in use. */
  size = 0;
  /** Released slots below `size`. */
  holes = 0;

  /** Takes `n` consecutive new slots (a provider's inventories) and returns the first. */
  private append(n: number): number {
    const start = this.size;
    this.ensure(start + n);
    this.size += n;
    return start;
  }

  /** Stores an inventory in `slot`. */
  private put(slot: number, providerSlot: number, classId: number, v: InventoryValues): void {
    this.provider[slot] = providerSlot;
    this.resourceClass[slot] = classId;
    this.total[slot] = v.total;
    this.reserved[slot] = v.reserved;
    this.minUnit[slot] = v.minUnit;
    this.maxUnit[slot] = v.maxUnit;
    this.stepSize[slot] = v.stepSize;
    this.ratio[slot] = v.allocationRatio;
    this.used[slot] = v.used;
    this.capacity[slot] = Math.floor((v.total - v.reserved) * v.allocationRatio);
  }

  /** Copies `n` inventories from slot `src` of `from` to slot `dst` of this table. */
  private copyFrom(from: InventoryTable, src: number, dst: number, n: number): void {
    const end = src + n;
    this.provider.set(from.provider.subarray(src, end), dst);
    this.resourceClass.set(from.resourceClass.subarray(src, end), dst);
    this.total.set(from.total.subarray(src, end), dst);
    this.reserved.set(from.reserved.subarray(src, end), dst);
    this.minUnit.set(from.minUnit.subarray(src, end), dst);
    this.maxUnit.set(from.maxUnit.subarray(src, end), dst);
    this.stepSize.set(from.stepSize.subarray(src, end), dst);
    this.ratio.set(from.ratio.subarray(src, end), dst);
    this.used.set(from.used.subarray(src, end), dst);
    this.capacity.set(from.capacity.subarray(src, end), dst);
  }

  /** Releases slots `from` to `to - 1` (the end of the table is given back at once). */
  private release(from: number, to: number): void {
    this.provider.fill(-1, from, to);
    if (to === this.size) {
      this.size = from;
    } else {
      this.holes += to - from;
    }
  }

  /**
   * Replaces the inventories of provider slot `p` (in place when their number is unchanged);
   * `classOf` gives a row's interned resource class.
   * @returns true when this moved every provider's inventories: released slots outnumbered those
   *   in use, and the table was compacted (inventory slots held elsewhere are then stale).
   */
  replace<R extends InventoryValues>(
    p: number,
    rows: readonly R[],
    classOf: (row: R) => number,
  ): boolean {
    if (this.start.length <= p) {
      this.start = growInt32(this.start, p + 1);
      this.end = growInt32(this.end, p + 1);
    }
    let from = this.start[p]!;
    const had = this.end[p]! - from;
    if (had !== rows.length) {
      if (had > 0) {
        this.release(from, from + had);
      }
      from = rows.length > 0 ? this.append(rows.length) : 0;
    }
    for (let i = 0; i < rows.length; i++) {
      this.put(from + i, p, classOf(rows[i]!), rows[i]!);
    }
    this.start[p] = from;
    this.end[p] = from + rows.length;
    if (this.holes > 4096 && this.holes * 2 > this.size) {
      this.compact();
      return true;
    }
    return false;
  }

  /** The inventory slots of provider slot `p` (a new array: for readers off the hot path). */
  slotsOf(p: number): Int32Array {
    const from = this.start[p] ?? 0;
    const out = new Int32Array(Math.max(0, (this.end[p] ?? 0) - from));
    for (let i = 0; i < out.length; i++) {
      out[i] = from + i;
    }
    return out;
  }

  /** Inventory slot of class `classId` on provider slot `p`, or -1. */
  find(p: number, classId: number): number {
    const classes = this.resourceClass;
    for (let i = this.start[p] ?? 0, end = this.end[p] ?? 0; i < end; i++) {
      if (classes[i] === classId) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Moves every provider's inventories into new columns sized exactly, without released slots
   * (inventory slots held elsewhere are then stale).
   */
  compact(): void {
    let from: InventoryTable = this;
    if (this.holes > 0) {
      from = new InventoryTable();
      from.reserve(this.size - this.holes);
      for (let p = 0; p < this.start.length; p++) {
        const n = this.end[p]! - this.start[p]!;
        const to = from.append(n);
        from.copyFrom(this, this.start[p]!, to, n);
        this.start[p] = to;
        this.end[p] = to + n;
      }
    }
    const n = from.size;
    // A column already n long (the new table's) is taken as it is; a longer one is cut to n.
    const int = (a: Int32Array<ArrayBuffer>) => (a.length === n ? a : a.slice(0, n));
    const dbl = (a: Float64Array<ArrayBuffer>) => (a.length === n ? a : a.slice(0, n));
    this.provider = int(from.provider);
    this.resourceClass = int(from.resourceClass);
    this.total = int(from.total);
    this.reserved = int(from.reserved);
    this.minUnit = int(from.minUnit);
    this.maxUnit = int(from.maxUnit);
    this.stepSize = int(from.stepSize);
    this.ratio = dbl(from.ratio);
    this.used = dbl(from.used);
    this.capacity = dbl(from.capacity);
    this.size = n;
    this.holes = 0;
  }

  /**
   * True when `amount` may be taken from this inventory on its own: min_unit <= amount <= max_unit,
   * amount is a multiple of step_size and used + amount <= capacity.
   */
  fits(slot: number, amount: number): boolean {
    return (
      amount >= this.minUnit[slot]! &&
      amount <= this.maxUnit[slot]! &&
      amount % this.stepSize[slot]! === 0 &&
      this.used[slot]! + amount <= this.capacity[slot]!
    );
  }

  /** True when two slots hold identical numbers (class, limits, ratio and usage). */
  sameAs(a: number, b: number): boolean {
    return (
      this.resourceClass[a] === this.resourceClass[b] &&
      this.total[a] === this.total[b] &&
      this.reserved[a] === this.reserved[b] &&
      this.minUnit[a] === this.minUnit[b] &&
      this.maxUnit[a] === this.maxUnit[b] &&
      this.stepSize[a] === this.stepSize[b] &&
      this.ratio[a] === this.ratio[b] &&
      this.used[a] === this.used[b]
    );
  }

  /** Makes room for `n` more inventories at once (a bulk load sizes the columns exactly). */
  reserve(n: number): void {
    this.ensure(this.size + n);
  }

  private ensure(n: number): void {
    if (this.provider.length >= n) {
      return;
    }
    this.provider = growInt32(this.provider, n);
    this.resourceClass = growInt32(this.resourceClass, n);
    this.total = growInt32(this.total, n);
    this.reserved = growInt32(this.reserved, n);
    this.minUnit = growInt32(this.minUnit, n);
    this.maxUnit = growInt32(this.maxUnit, n);
    this.stepSize = growInt32(this.stepSize, n);
    this.ratio = growFloat64(this.ratio, n);
    this.used = growFloat64(this.used, n);
    this.capacity = growFloat64(this.capacity, n);
  }
}
