// Whole-number option parsers shared by the CLI's commands (commander's argParser form).
import { InvalidArgumentError } from 'commander';

/** An integer >= 0. @throws InvalidArgumentError otherwise. */
export function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    throw new InvalidArgumentError('expected a non-negative integer');
  }
  return n;
}

/** Milliseconds per duration unit (a bare number is seconds). */
const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, '': 1000 };

/**
 * A duration as whole milliseconds: `500ms`, `30s`, `2m`, or a bare number of seconds; `0` = none.
 * @throws InvalidArgumentError otherwise.
 */
export function durationMs(v: string): number {
  const m = /^(\d+)(ms|s|m|)$/.exec(v.trim());
  const ms = m ? Number(m[1]) * DURATION_UNITS[m[2]!]! : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms > 2_147_483_647) {
    throw new InvalidArgumentError('expected a duration such as 500ms, 30s or 2m (0 = none)');
  }
  return ms;
}

/** An integer >= 1. @throws InvalidArgumentError otherwise. */
export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError('expected an integer of at least 1');
  }
  return n;
}
