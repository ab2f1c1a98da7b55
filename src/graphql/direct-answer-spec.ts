// What a schema module declares to have its answers written directly (src/graphql/direct-answer.ts):
// an ObjectSpec per GraphQL type, field by field, and the scalar writers that reproduce the
// executor's serialisation (or refuse with NotDirect, so the normal path runs).
import type { JsonBytes } from '../lib/json-bytes';

/** How one field of a GraphQL object type is written from the type's source value. */
export type FieldSpec<T> =
  /** A scalar or list of scalars; returns the list items written (0 for a scalar). */
  | { readonly leaf: (w: JsonBytes, source: T) => number }
  /** An object: the source of the field's type. */
  | { readonly object: ObjectSpec<never>; readonly get: (source: T) => unknown }
  /**
   * A list of objects: `items` gives the sources as an array (written in a plain loop), or
   * `each` calls `visit` with the source of each item and returns their number (for lists the
   * source keeps in another shape, e.g. an object's entries).
   */
  | {
      readonly list: ObjectSpec<never>;
      readonly items?: (source: T) => readonly unknown[];
      readonly each?: (source: T, visit: (item: never) => void) => number;
    };

/** A scalar field (or list of scalars: return the items written). */
export function leaf<T>(write: (w: JsonBytes, source: T) => number): FieldSpec<T> {
  return { leaf: write };
}

/** An object field whose type has `spec`. */
export function object<T, S>(spec: ObjectSpec<S>, get: (source: T) => S): FieldSpec<T> {
  return { object: spec as ObjectSpec<never>, get };
}

/** A list field of objects of `spec`'s type, kept by the source as an array. */
export function array<T, I>(spec: ObjectSpec<I>, items: (source: T) => readonly I[]): FieldSpec<T> {
  return { list: spec as ObjectSpec<never>, items };
}

/** One entry of a record, as a list item (see `entries`). */
export interface Entry<V> {
  key: string;
  value: V;
}

/**
 * A list field of objects of `spec`'s type, one per entry of the record `of` gives, in its key
 * order (as Object.entries would list them).
 */
export function entries<T, V>(
  spec: ObjectSpec<Entry<V>>,
  of: (source: T) => Readonly<Record<string, V>>,
): FieldSpec<T> {
  const each = (source: T, visit: (item: Entry<V>) => void): number => {
    const record = of(source);
    // One item object reused: the writer is done with it before the next.
    const item: Entry<V> = { key: '', value: undefined as V };
    let n = 0;
    for (const key in record) {
      item.key = key;
      item.value = record[key]!;
      visit(item);
      n++;
    }
    return n;
  };
  return {
    list: spec as ObjectSpec<never>,
    each: each as unknown as (source: T, visit: (item: never) => void) => number,
  };
}

/** The fields of one GraphQL object type that can be written directly. */
export interface ObjectSpec<T> {
  readonly typeName: string;
  /**
   * Sources of this type that are frozen never change (the engine's shared provider summaries):
   * the bytes written for one are kept, per selection, and copied into later answers.
   */
  readonly keepFrozen?: boolean;
  readonly fields: { readonly [name: string]: FieldSpec<T> };
}

/** A root query field answered directly, with the spec of the type it returns. */
export interface DirectRoot {
  readonly field: string;
  readonly spec: ObjectSpec<never>;
}

/** Thrown by a spec for a value it cannot write as the executor would: the normal path runs. */
export class NotDirect extends Error {}

/** Writes an Int as GraphQL serialises it (a 32-bit integer; anything else is the executor's). */
export function writeInt(w: JsonBytes, n: number): number {
  if (!Number.isInteger(n) || n > 2_147_483_647 || n < -2_147_483_648) {
    throw new NotDirect();
  }
  w.num(n);
  return 0;
}

/** Writes a list of strings (String or ID items); returns its length. */
export function writeStrings(w: JsonBytes, items: readonly string[]): number {
  w.raw('[');
  for (let i = 0; i < items.length; i++) {
    if (i) {
      w.raw(',');
    }
    w.str(items[i]!);
  }
  w.raw(']');
  return items.length;
}

/** Writes a String or ID. */
export function writeString(w: JsonBytes, s: string): number {
  w.str(s);
  return 0;
}

/** Writes a SafeInt as its scalar serialises it (an integer within ±(2^53 - 1)). */
export function writeSafeInt(w: JsonBytes, n: number): number {
  if (!Number.isSafeInteger(n)) {
    throw new NotDirect();
  }
  w.num(n);
  return 0;
}
