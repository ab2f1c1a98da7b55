// UUID validation and normalisation (Placement accepts dashed or plain hex, any case).
import { BadRequestError, ErrorCode } from './errors';

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** Already canonical: lower case, dashed (nearly every uuid; returned as is). */
const CANONICAL_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True when `v` is a UUID in any accepted form. */
export function isUuid(v: string): boolean {
  return UUID_RE.test(v);
}

/**
 * Returns the canonical lower-case dashed form.
 * @throws BadRequestError naming `what` when `v` is not a UUID.
 */
export function normalizeUuidOrThrow(v: string, what = 'uuid'): string {
  if (CANONICAL_RE.test(v)) {
    return v;
  }
  if (!UUID_RE.test(v)) {
    throw new BadRequestError(
      `Invalid ${what}: '${v}' is not a valid UUID.`,
      ErrorCode.INVALID_UUID,
    );
  }
  const hex = v.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
