// Every mutation takes its arguments as one `input` object. Mutations that first took flat
// arguments (the client contract) keep them, deprecated and optional: a call passes one form or
// the other, and a call that mixes them or leaves out a required field gets berth.invalid_input.
import type { ArgBuilder, SchemaTypes } from '@pothos/core';
import { BadRequestError, ErrorCode } from '../src/placement/errors';
import { builder } from './builder';

/** deprecationReason of a flat argument that moved into `input`. */
export const USE_INPUT = 'Pass it in `input` (every mutation takes one input object).';

/**
 * The mutation's arguments: `args.input` when given, else the flat arguments `flatNames` (fields
 * of the input type), which must then include every name in `required` (default: all of them).
 * @throws BadRequestError (berth.invalid_input) for both forms at once or a missing field.
 */
export function inputOrFlat<T extends object>(
  field: string,
  args: { readonly input?: T | null } & Readonly<Record<string, unknown>>,
  flatNames: readonly (keyof T & string)[],
  required: readonly (keyof T & string)[] = flatNames,
): T {
  const flat = Object.fromEntries(
    flatNames.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]),
  );
  if (args.input !== undefined && args.input !== null) {
    const mixed = Object.keys(flat);
    if (mixed.length > 0) {
      throw new BadRequestError(
        `${field}: pass the arguments in input only (got input and ${mixed.join(', ')}).`,
        ErrorCode.INVALID_INPUT,
      );
    }
    return args.input;
  }
  const missing = required.filter((k) => flat[k] === undefined || flat[k] === null);
  if (missing.length > 0) {
    throw new BadRequestError(
      `${field}: input is required (with ${required.join(', ')}).`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return flat as T;
}

/** The input of a mutation that names one custom resource class or trait. */
export const CustomNameInput = builder.inputType('CustomNameInput', {
  description: 'One custom resource class or trait, by name.',
  fields: (t) => ({
    name: t.string({
      required: true,
      description: 'A CUSTOM_ name (upper case letters, digits and underscores).',
    }),
  }),
});

/** The name a create/delete call of a class or trait names, from `input` or the flat `name`. */
export function customNameOf(
  field: string,
  args: { readonly input?: { name: string } | null; readonly name?: string | null },
): string {
  return inputOrFlat<{ name: string }>(field, args, ['name']).name;
}

/**
 * The deprecated flat `providerUuid` and `generation` arguments of a write to one provider's
 * traits, aggregates or inventories (now fields of its `input`).
 */
export function flatProviderArgs<T extends SchemaTypes>(arg: ArgBuilder<T>) {
  return {
    providerUuid: arg.id({
      required: false,
      description: 'The provider.',
      deprecationReason: USE_INPUT,
    }),
    generation: arg.int({
      required: false,
      description: 'The provider generation you read.',
      deprecationReason: USE_INPUT,
    }),
  };
}
