// Provider id -> slot of the capacity index. Provider ids come from a sequence, so they are dense:
// a typed array indexed by id answers in one load and costs 4 bytes per id, where a Map of a
// million entries costs ~40 MB and a hash lookup. Ids far beyond the number of providers (a
// sequence that jumped) go to a Map, so a sparse id space never costs a huge array.

/** Ids below this always fit the array; above it only while the array stays ≤ 8 × the count. */
const DENSE_FLOOR = 1 << 16;

/** Maps provider ids to slots (-1: unknown). */
export class IdSlots {
  private dense = new Int32Array(0);
  private readonly sparse = new Map<number, number>();
  private count = 0;

  get(id: number): number {
    if (id >= 0 && id < this.dense.length) {
      return this.dense[id]! - 1;
    }
    return this.sparse.get(id) ?? -1;
  }

  set(id: number, slot: number): void {
    if (this.get(id) < 0) {
      this.count++;
    }
    if (id >= 0 && (id < this.dense.length || this.growTo(id))) {
      this.dense[id] = slot + 1;
    } else {
      this.sparse.set(id, slot);
    }
  }

  delete(id: number): void {
    if (this.get(id) < 0) {
      return;
    }
    this.count--;
    if (id >= 0 && id < this.dense.length) {
      this.dense[id] = 0;
    } else {
      this.sparse.delete(id);
    }
  }

  /** The slots of every id, ordered by id. */
  slotsInIdOrder(): Int32Array {
    const out = new Int32Array(this.count);
    let n = 0;
    for (let id = 0; id < this.dense.length; id++) {
      if (this.dense[id] !== 0) {
        out[n++] = this.dense[id]! - 1;
      }
    }
    // Every sparse id is beyond the array (growTo moves those it can hold into it).
    for (const [, slot] of [...this.sparse].sort((a, b) => a[0] - b[0])) {
      out[n++] = slot;
    }
    return out;
  }

  /** Grows the array to hold `id` when that keeps it dense enough; moves fitting sparse ids in. */
  private growTo(id: number): boolean {
    const want = Math.max(id + 1, Math.ceil(this.dense.length * 1.5));
    if (want > DENSE_FLOOR && want > 8 * (this.count + 1)) {
      return false;
    }
    const next = new Int32Array(want);
    next.set(this.dense);
    this.dense = next;
    for (const [k, slot] of this.sparse) {
      if (k < want) {
        this.dense[k] = slot + 1;
        this.sparse.delete(k);
      }
    }
    return true;
  }
}
