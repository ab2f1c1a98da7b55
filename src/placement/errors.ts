// Domain error hierarchy with Placement's stable error codes (upstream: placement/errors.py + exception.py).
// The domain throws only these; adapters (GraphQL, REST) map them to their wire format.

/** Stable error codes. Never change or reuse one (upstream errors.py rule). */
export const ErrorCode = {
  DEFAULT: 'placement.undefined_code',
  INVENTORY_INUSE: 'placement.inventory.inuse',
  CONCURRENT_UPDATE: 'placement.concurrent_update',
  DUPLICATE_NAME: 'placement.duplicate_name',
  PROVIDER_IN_USE: 'placement.resource_provider.inuse',
  PROVIDER_CANNOT_DELETE_PARENT: 'placement.resource_provider.cannot_delete_parent',
  RESOURCE_PROVIDER_NOT_FOUND: 'placement.resource_provider.not_found',
  ILLEGAL_DUPLICATE_QUERYPARAM: 'placement.query.duplicate_key',
  QUERYPARAM_BAD_VALUE: 'placement.query.bad_value',
  QUERYPARAM_MISSING_VALUE: 'placement.query.missing_value',
  // berth-specific codes (same naming scheme, own namespace).
  QUOTA_EXCEEDED: 'berth.quota.exceeded',
  UNAVAILABLE: 'berth.unavailable',
  MOVE_NOT_IN_PROGRESS: 'berth.move.not_in_progress',
  MOVE_IN_PROGRESS: 'berth.move.in_progress',
  NO_VALID_HOST: 'berth.schedule.no_valid_host',
  TOO_MANY_CANDIDATES: 'berth.too_many_candidates',
  FORBIDDEN: 'berth.forbidden',
  TOO_MANY_SUBSCRIPTIONS: 'berth.too_many_subscriptions',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** HTTP-ish class of an error; REST uses it as the status, GraphQL exposes it as extensions.status. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 415 | 429 | 503;

/** Base class: a message written at the throw site, a stable code and a status class. */
export class PlacementError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  constructor(message: string, status: ErrorStatus, code: ErrorCode = ErrorCode.DEFAULT) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
  }
}

/** Malformed or semantically invalid input (400). */
export class BadRequestError extends PlacementError {
  constructor(message: string, code: ErrorCode = ErrorCode.DEFAULT) {
    super(message, 400, code);
  }
}

/** A referenced object does not exist (404). */
export class NotFoundError extends PlacementError {
  constructor(message: string, code: ErrorCode = ErrorCode.DEFAULT) {
    super(message, 404, code);
  }
}

/** A state conflict (409). */
export class ConflictError extends PlacementError {
  constructor(message: string, code: ErrorCode = ErrorCode.DEFAULT) {
    super(message, 409, code);
  }
}

/** A generation compare-and-swap failed: someone else changed the object first (409). */
export class ConcurrentUpdateError extends ConflictError {
  constructor(message: string) {
    super(message, ErrorCode.CONCURRENT_UPDATE);
  }
}

/** Inventory cannot change because allocations depend on it (409). */
export class InventoryInUseError extends ConflictError {
  constructor(message: string) {
    super(message, ErrorCode.INVENTORY_INUSE);
  }
}

/** A write would exceed a project's or user's quota (409). */
export class QuotaExceededError extends ConflictError {
  constructor(message: string) {
    super(message, ErrorCode.QUOTA_EXCEEDED);
  }
}

/** Caller is not authenticated (401). */
export class UnauthorizedError extends PlacementError {
  constructor(message: string) {
    super(message, 401);
  }
}

/** Caller lacks the role for this operation (403). */
export class ForbiddenError extends PlacementError {
  constructor(message: string, code: ErrorCode = ErrorCode.DEFAULT) {
    super(message, 403, code);
  }
}

/** A dependency (database) is temporarily unavailable; the caller may retry (503). */
export class UnavailableError extends PlacementError {
  constructor(message: string) {
    super(message, 503, ErrorCode.UNAVAILABLE);
  }
}

/** True when `e` is a domain error (safe to show to clients). */
export function isPlacementError(e: unknown): e is PlacementError {
  return e instanceof PlacementError;
}
