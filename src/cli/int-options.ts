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

/** An integer >= 1. @throws InvalidArgumentError otherwise. */
export function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError('expected an integer of at least 1');
  }
  return n;
}
