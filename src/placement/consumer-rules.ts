// Value rules of consumers and their allocations, shared by the API (allocation writes, claims,
// the reshaper, quota limits; through GraphQL and REST) and `berth import placement` (upstream:
// schemas/allocation.py, the external_id columns of db/sqlalchemy/models.py). Pure: no database.
import { BadRequestError, ErrorCode } from './errors';
import { MAX_INT } from './inventory-rules';
import { characters } from './provider-rules';

/** Longest project or user id, in characters (Placement's VARCHAR(255) external_id). */
export const MAX_EXTERNAL_ID = 255;

/**
 * Checks a project or user id (Keystone's external id): 1 to 255 characters, no NUL.
 * @param what the field(s) named in the message, e.g. 'project_id and user_id'.
 * @throws BadRequestError (berth.invalid_name).
 */
export function assertExternalIdOrThrow(what: string, id: string): void {
  const n = characters(id);
  if (n < 1 || n > MAX_EXTERNAL_ID || id.includes('\u0000')) {
    throw new BadRequestError(
      `${what} must be 1 to ${MAX_EXTERNAL_ID} characters${id.includes('\u0000') ? ', without NUL (U+0000)' : ''}.`,
      ErrorCode.INVALID_NAME,
    );
  }
}

/**
 * Checks one allocated amount: an integer from 1 to 2147483647.
 * @throws BadRequestError (berth.allocation.invalid) naming the class and the consumer.
 */
export function assertAllocationAmountOrThrow(
  consumerUuid: string,
  resourceClass: string,
  amount: number,
): void {
  if (!Number.isInteger(amount) || amount < 1 || amount > MAX_INT) {
    throw new BadRequestError(
      `Invalid amount ${amount} of ${resourceClass} for consumer ${consumerUuid}: it must be an integer from 1 to ${MAX_INT}.`,
      ErrorCode.ALLOCATION_INVALID,
    );
  }
}
