// Turning domain errors into HTTP errors, optionally re-worded per handler the way Placement's
// handlers wrap object exceptions (upstream: the try/except blocks of placement/handlers/*.py).
import { isPlacementError, type PlacementError } from '../placement/errors';
import { HttpError } from './http-error';

/** Per-status rewording: receives the domain error, returns the HTTP error to send. */
export type ErrorMapping = Partial<Record<number, (e: PlacementError) => HttpError>>;

/** The HTTP error for `e`: status, message and code of the domain error unless remapped. */
export function toHttpError(e: PlacementError, mapping: ErrorMapping = {}): HttpError {
  const remap = mapping[e.status];
  return remap ? remap(e) : new HttpError(e.status, e.message, e.code);
}

/**
 * Runs `fn`; domain errors are rethrown as HttpErrors (re-worded by `mapping`), anything else
 * propagates unchanged (and becomes a 500).
 */
export async function mapDomainErrors<T>(fn: () => Promise<T>, mapping: ErrorMapping = {}) {
  try {
    return await fn();
  } catch (err) {
    if (isPlacementError(err)) {
      throw toHttpError(err, mapping);
    }
    throw err;
  }
}
