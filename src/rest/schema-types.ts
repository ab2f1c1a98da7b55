// The type of a value that validates against a request schema, read from the schema's literal
// type: what json-schema.ts's validator guarantees, and nothing more. Schemas are declared
// `as const satisfies Schema`; only the keywords that constrain a value's shape count
// (type, enum, anyOf, properties, required, patternProperties, additionalProperties, items).
import type { Schema } from './json-schema';

/**
 * The type of a value that validates against schema `S`. A union of schemas gives the union of
 * their types (each schema its own), so one handler can take the body of any of its
 * microversions and tell them apart by their fields.
 */
export type Validated<S> = S extends Schema ? Anyof<S, Enum<S, OfType<S>>> : never;

/** Any JSON value (a schema without `type`). */
type AnyJson = unknown;

/** An object type without properties. */
type NoKeys = Record<never, never>;

/** `type`: the union of the named types (no `type`: any value). */
type OfType<S extends Schema> = S extends { readonly type: infer T }
  ? Named<S, T extends readonly (infer E)[] ? E : T>
  : AnyJson;

type Named<S extends Schema, T> = T extends 'object'
  ? ObjectOf<S>
  : T extends 'array'
    ? ArrayOf<S>
    : T extends 'string'
      ? string
      : T extends 'integer' | 'number'
        ? number
        : T extends 'boolean'
          ? boolean
          : T extends 'null'
            ? null
            : never;

/** `enum`: only the listed values. */
type Enum<S extends Schema, B> = S extends { readonly enum: readonly (infer E)[] } ? B & E : B;

/** `anyOf`: also one of the alternatives. */
type Anyof<S extends Schema, B> = S extends { readonly anyOf: readonly (infer A)[] }
  ? B & Validated<A>
  : B;

type ArrayOf<S extends Schema> = S extends { readonly items: infer I }
  ? readonly Validated<I>[]
  : readonly AnyJson[];

type Props<S extends Schema> = S extends { readonly properties: infer P } ? P : NoKeys;
type RequiredKeys<S extends Schema> = S extends { readonly required: readonly (infer R)[] }
  ? R & string
  : never;

/** Keys other than the declared properties: any value unless `additionalProperties: false`. */
type Others<S extends Schema> = S extends { readonly additionalProperties: false }
  ? S extends { readonly patternProperties: infer PP }
    ? { readonly [key: string]: Validated<PP[keyof PP]> | Validated<Props<S>[keyof Props<S>]> }
    : NoKeys
  : { readonly [key: string]: AnyJson };

/** One object type rather than an intersection (readable where the compiler prints it). */
type Flat<T> = { [K in keyof T]: T[K] };

type ObjectOf<S extends Schema> = Flat<
  {
    readonly [K in RequiredKeys<S>]: K extends keyof Props<S> ? Validated<Props<S>[K]> : AnyJson;
  } & {
    readonly [K in Exclude<keyof Props<S>, RequiredKeys<S>>]?: Validated<Props<S>[K]>;
  } & Others<S>
>;
