// What was computed from a frozen value, kept with it while it lives: the written bodies of a
// shared candidates answer (src/app/candidate-answers.ts freezes the answers it shares), one per
// way of writing it (a REST shape, a GraphQL plan). A value that is not frozen may still change,
// so nothing is kept for it.

const memos = new WeakMap<object, Map<unknown, unknown>>();

/**
 * `compute()` for (`value`, `key`), computed once per frozen `value` and key; an undefined result
 * is not kept. Callers must not change what is returned for a frozen value: it is shared.
 */
export function memoOnFrozen<T>(value: unknown, key: unknown, compute: () => T): T {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) {
    return compute();
  }
  let byKey = memos.get(value);
  if (byKey?.has(key)) {
    return byKey.get(key) as T;
  }
  const result = compute();
  if (result !== undefined) {
    if (!byKey) {
      byKey = new Map();
      memos.set(value, byKey);
    }
    byKey.set(key, result);
  }
  return result;
}
