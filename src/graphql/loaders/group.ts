// Helpers that shape batched rows into DataLoader results: one entry per key, in key order.

/**
 * Groups `items` by `keyOf` and returns one array per key, in the order of `keys` (an empty array
 * for a key with no items; items whose key is null or was not asked for are dropped).
 */
export function groupByKeys<K, T>(
  keys: readonly K[],
  items: readonly T[],
  keyOf: (item: T) => K | null,
): T[][] {
  const byKey = new Map<K, T[]>();
  for (const key of keys) {
    byKey.set(key, []);
  }
  for (const item of items) {
    const key = keyOf(item);
    if (key !== null) {
      byKey.get(key)?.push(item);
    }
  }
  return keys.map((key) => byKey.get(key) ?? []);
}

/** Reads `map` in the order of `keys`, using `missing` for absent keys. */
export function pickInKeyOrder<K, V>(keys: readonly K[], map: ReadonlyMap<K, V>, missing: V): V[] {
  return keys.map((key) => map.get(key) ?? missing);
}

/** The non-null values of a DataLoader `loadMany` result; per-key errors are rethrown. */
export function presentOrThrow<V>(values: readonly (V | null | Error)[]): V[] {
  const out: V[] = [];
  for (const v of values) {
    if (v instanceof Error) {
      throw v;
    }
    if (v !== null) {
      out.push(v);
    }
  }
  return out;
}
