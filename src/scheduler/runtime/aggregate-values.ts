// Numbers from aggregate metadata, read as Nova reads them (upstream: nova/scheduler/filters/
// utils.py aggregate_values_from_key and validate_num_values, nova/scheduler/utils.py
// get_weight_multiplier): the key's raw values across the host's aggregates (not split on commas),
// each cast with Python's int() or float(), the lowest one used; when any value does not cast,
// the configured default. Re-exported by ../helpers.ts, the module plugins import.
import type { AggregateView } from '../plugin-api';
import { parseNovaFloat } from './extra-spec-ops';

/**
 * The distinct raw values of `key` across the aggregates, in first-seen order (Nova
 * `aggregate_values_from_key`: a set of whole values; `"3,5"` is one value, not two).
 */
export function aggregateValuesFromKey(
  aggregates: readonly AggregateView[],
  key: string,
): string[] {
  const values: string[] = [];
  for (const aggregate of aggregates) {
    const value = aggregate.metadata[key];
    if (value !== undefined && !values.includes(value)) {
      values.push(value);
    }
  }
  return values;
}

// Python's int(str) in base 10: surrounding blanks, a sign, digits with single underscores between
// them (`1_000`). Decimal digits of other scripts, which Python also takes, are not accepted here.
const INT_RE = /^[+-]?\d+(?:_\d+)*$/;
// An underscore in a Python float literal must sit between two digits.
const BAD_UNDERSCORE_RE = /(?:^|[^0-9])_|_(?:[^0-9]|$)/;

/** Parses `raw` as Python's `int()` does; `null` where Python raises ValueError (`"3.5"`, `""`). */
export function parsePythonInt(raw: string): number | null {
  const s = raw.trim();
  if (!INT_RE.test(s)) {
    return null;
  }
  const n = Number(s.replace(/_/g, ''));
  return n === 0 ? 0 : n;
}

/**
 * Parses `raw` as Python's `float()` does (`"1e3"`, `" .5 "`, `"1_000.5"`, `"inf"`, `"nan"`);
 * `null` where Python raises ValueError.
 */
export function parsePythonFloat(raw: string): number | null {
  if (raw.includes('_')) {
    const s = raw.trim();
    return BAD_UNDERSCORE_RE.test(s) ? null : parseNovaFloat(s.replace(/_/g, ''));
  }
  return parseNovaFloat(raw);
}

/**
 * Nova `validate_num_values(values, default, cast_to, based_on=min)` as its callers use it (a
 * ValueError means the default): the lowest of `values` cast with Python's `int()` or `float()`,
 * or `fallback` when there are none or any of them does not cast. One deliberate difference: a
 * float that casts to infinity or NaN (`"inf"`, `"nan"`) also means `fallback`, where Nova would
 * weigh or compare with it (a NaN multiplier makes Nova's ranking arbitrary).
 */
export function validateNumValues<T>(
  values: readonly string[],
  fallback: T,
  cast: 'int' | 'float',
): number | T {
  if (values.length === 0) {
    return fallback;
  }
  let lowest = Number.POSITIVE_INFINITY;
  for (const value of values) {
    const n = cast === 'int' ? parsePythonInt(value) : parsePythonFloat(value);
    if (n === null || !Number.isFinite(n)) {
      return fallback;
    }
    lowest = Math.min(lowest, n);
  }
  return lowest;
}
