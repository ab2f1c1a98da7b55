// Interchangeable providers for symmetry pruning (berth-specific; upstream enumerates every
// permutation of identical children with itertools.product and filters afterwards).
import type { CapacityIndex } from './capacity-index';

function sameInts(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}

/**
 * True when swapping providers `a` and `b` maps every valid candidate to a valid candidate:
 * non-sharing leaf siblings (same parent) with identical traits, aggregates, inventories and usage.
 */
export function sameShape(index: CapacityIndex, a: number, b: number): boolean {
  if (
    a === b ||
    index.parent[a] !== index.parent[b] ||
    index.parent[a] === -1 ||
    index.children[a]!.length > 0 ||
    index.children[b]!.length > 0 ||
    index.sharing[a] === 1 ||
    index.sharing[b] === 1 ||
    !sameInts(index.traits[a]!, index.traits[b]!) ||
    !sameInts(index.aggregates[a]!, index.aggregates[b]!)
  ) {
    return false;
  }
  const { start, end } = index.inventories;
  const [startA, endA] = [start[a]!, end[a]!];
  if (endA - startA !== end[b]! - start[b]!) {
    return false;
  }
  for (let i = startA; i < endA; i++) {
    const other = index.findInventory(b, index.inventories.resourceClass[i]!);
    if (other < 0 || !index.inventories.sameAs(i, other)) {
      return false;
    }
  }
  return true;
}
