// Turning domain errors into HTTP errors, optionally re-worded per handler the way Placement's
// handlers wrap object exceptions (upstream: the try/except blocks of placement/handlers/*.py).
import { isPlacementError, type PlacementError } from '../placement/errors';
import { HttpError } from './http-error';

/** Per-status rewording: receives the domain error, returns the HTTP error to send. */
export type ErrorMapping = Partial<Record<number, (e: PlacementError) => HttpError>>;

/**
 * `e` as Placement words it: a copy whose `message` is `e.placementMessage` when the domain
 * added berth's detail to Placement's message (GraphQL keeps the detailed one), else `e`.
 */
export function inPlacementWords(e: PlacementError): PlacementError {
  if (e.placementMessage === undefined) {
    return e;
  }
  const copy = Object.assign(Object.create(Object.getPrototypeOf(e)) as PlacementError, e);
  Object.defineProperty(copy, 'message', { value: e.placementMessage });
  return copy;
}

/** The HTTP error for `e`: status, message (Placement's words) and code unless remapped. */
export function toHttpError(e: PlacementError, mapping: ErrorMapping = {}): HttpError {
  const placed = inPlacementWords(e);
  const remap = mapping[e.status];
  return remap ? remap(placed) : new HttpError(e.status, placed.message, e.code);
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
