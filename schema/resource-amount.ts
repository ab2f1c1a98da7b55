// GraphQL: ResourceAmountInput, the "class: amount" pair shared by provider filters, allocations
// and (later) allocation-candidate request groups (upstream: util.normalize_resources_qs_param).
import { BadRequestError, ErrorCode } from '../src/placement/errors';
import { builder } from './builder';

/** GraphQL ResourceAmountInput. */
export const ResourceAmountInput = builder.inputType('ResourceAmountInput', {
  description: 'An amount of one resource class.',
  fields: (t) => ({
    resourceClass: t.string({ description: 'The resource class name.', required: true }),
    amount: t.int({ description: 'The units, at least 1.', required: true }),
  }),
});

/**
 * Turns a list of amounts into a class -> amount record.
 * @throws BadRequestError (with `opts.code`) naming `what` when a class appears twice, or when an
 *   amount is below `opts.minAmount` (the domain checks every other limit).
 */
export function resourceMapOrThrow(
  amounts: readonly { resourceClass: string; amount: number }[],
  what: string,
  opts: { minAmount?: number; code?: ErrorCode } = {},
): Record<string, number> {
  const code = opts.code ?? ErrorCode.INVALID_INPUT;
  const out: Record<string, number> = {};
  for (const { resourceClass, amount } of amounts) {
    if (Object.hasOwn(out, resourceClass)) {
      throw new BadRequestError(
        `Resource class ${resourceClass} appears more than once in ${what}.`,
        code,
      );
    }
    if (opts.minAmount !== undefined && amount < opts.minAmount) {
      throw new BadRequestError(
        `Requested resource ${resourceClass} in ${what} requires amount >= ${opts.minAmount}. Got: ${amount}.`,
        code,
      );
    }
    out[resourceClass] = amount;
  }
  return out;
}
