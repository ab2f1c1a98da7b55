// Value rules of a resource provider's own fields, shared by the API (ResourceProviderService,
// through GraphQL and REST) and `berth import placement` (upstream: schemas/resource_provider.py,
// the name column of db/sqlalchemy/models.py). Pure: no database.
import { BadRequestError, ErrorCode } from './errors';
import { MAX_INT } from './inventory-rules';

/** Longest provider name, in characters (Placement's JSON schema and VARCHAR(200) column). */
export const MAX_PROVIDER_NAME = 200;

/** Length in characters (code points), as Placement's JSON schema and PostgreSQL count it. */
export function characters(s: string): number {
  let n = 0;
  for (const _ of s) {
    n += 1;
  }
  return n;
}

/**
 * Checks a provider name: 1 to 200 characters, no NUL (PostgreSQL text cannot hold U+0000; both
 * adapters refuse it before this runs, the importer reaches it from a source database).
 * @throws BadRequestError (berth.invalid_name).
 */
export function assertProviderNameOrThrow(name: string): void {
  const n = characters(name);
  if (n < 1 || n > MAX_PROVIDER_NAME) {
    throw new BadRequestError(
      `Invalid resource provider name '${name}': it must be 1 to ${MAX_PROVIDER_NAME} characters long.`,
      ErrorCode.INVALID_NAME,
    );
  }
  if (name.includes('\u0000')) {
    throw new BadRequestError(
      'Invalid resource provider name: it must not contain NUL (U+0000).',
      ErrorCode.INVALID_NAME,
    );
  }
}

/**
 * Checks a stored generation (provider or consumer): berth starts them at 0 and only increments
 * them, in a 32-bit column.
 * @param what e.g. 'resource provider generation'.
 * @throws BadRequestError (berth.invalid_input).
 */
export function assertGenerationOrThrow(what: string, generation: number): void {
  if (!Number.isInteger(generation) || generation < 0 || generation > MAX_INT) {
    throw new BadRequestError(
      `Invalid ${what}: it must be an integer from 0 to ${MAX_INT} (got ${generation}).`,
      ErrorCode.INVALID_INPUT,
    );
  }
}
