// NUL (U+0000) in input: PostgreSQL text cannot store it, so no valid berth value contains one.
// Both adapters refuse it up front (GraphQL: graphql/nul-guard.ts, REST: rest/request.ts) instead
// of letting it reach the database as an internal error (found by the fuzzers).

/** True when any string inside `value` (keys and values, deep) contains U+0000. */
export function valueHasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') {
    return value.includes('\u0000');
  }
  if (value === null || typeof value !== 'object' || depth > 64) {
    return false;
  }
  const items = Array.isArray(value) ? value : [...Object.keys(value), ...Object.values(value)];
  return items.some((v) => valueHasNul(v, depth + 1));
}
