// Values shared between requests (cached host views, locally memoised candidate sets) are frozen
// all the way down, so a caller that mutates one fails loudly instead of corrupting the others.

/** Freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) {
      deepFreeze(v);
    }
  }
  return value;
}
