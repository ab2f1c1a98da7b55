// Shared sorted id lists: the trait and aggregate sets of the capacity index. Most providers of a
// cloud carry one of a few trait sets and aggregate sets, so each distinct set is stored once and
// every provider slot holding it points at the same array (a small typed array costs ~200 bytes
// of heap on its own; 100,000 hosts held 200,000 of them).

import type { InternTable } from './intern-table';

const NO_INTS = new Int32Array(0);

/** The interned ids of `names`, sorted, without duplicates. */
export function sortedIds(table: InternTable, names: readonly string[]): Int32Array {
  if (names.length === 1) {
    return Int32Array.of(table.intern(names[0]!));
  }
  const ids = new Set<number>();
  for (const n of names) {
    ids.add(table.intern(n));
  }
  return Int32Array.from(ids).sort();
}

function keyOf(ids: Int32Array): string {
  return ids.join(',');
}

/**
 * Reference-counted pool of sorted `Int32Array`s, one per distinct content. Arrays handed out are
 * shared between slots: callers must never write into them.
 */
export class IntSetPool {
  private readonly sets = new Map<string, { readonly ids: Int32Array; refs: number }>();

  /** The pooled array equal to `ids` (sorted, no duplicates), counted as one more holder. */
  acquire(ids: Int32Array): Int32Array {
    if (ids.length === 0) {
      return NO_INTS;
    }
    const key = keyOf(ids);
    const entry = this.sets.get(key);
    if (entry) {
      entry.refs++;
      return entry.ids;
    }
    this.sets.set(key, { ids, refs: 1 });
    return ids;
  }

  /** Drops one holder of a pooled array; the set is forgotten with its last holder. */
  release(ids: Int32Array | undefined): void {
    if (!ids || ids.length === 0) {
      return;
    }
    const key = keyOf(ids);
    const entry = this.sets.get(key);
    if (entry && --entry.refs === 0) {
      this.sets.delete(key);
    }
  }

  /** How many distinct non-empty sets are held. */
  get size(): number {
    return this.sets.size;
  }
}
