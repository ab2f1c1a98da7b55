// Domain error hierarchy with Placement's stable error codes (upstream: placement/errors.py + exception.py).
// The domain throws only these; adapters (GraphQL, REST) map them to their wire format.

/**
 * Precise codes for failures Placement reports with its generic code. GraphQL sends these; the
 * REST facade sends Placement's code instead ({@link restCode}), exactly as Placement does.
 */
const PRECISE_CODES = {
  INVALID_INPUT: 'berth.invalid_input',
  INVALID_UUID: 'berth.invalid_uuid',
  INVALID_NAME: 'berth.invalid_name',
  CONCURRENT_DELETE: 'berth.concurrent_delete',
  UNKNOWN_PROVIDER: 'berth.resource_provider.unknown',
  INVALID_PARENT: 'berth.resource_provider.invalid_parent',
  RESOURCE_CLASS_NOT_FOUND: 'berth.resource_class.not_found',
  RESOURCE_CLASS_EXISTS: 'berth.resource_class.exists',
  RESOURCE_CLASS_INUSE: 'berth.resource_class.inuse',
  RESOURCE_CLASS_STANDARD: 'berth.resource_class.standard',
  TRAIT_NOT_FOUND: 'berth.trait.not_found',
  TRAIT_EXISTS: 'berth.trait.exists',
  TRAIT_INUSE: 'berth.trait.inuse',
  TRAIT_STANDARD: 'berth.trait.standard',
  INVENTORY_INVALID: 'berth.inventory.invalid',
  INVENTORY_NOT_FOUND: 'berth.inventory.not_found',
  INVENTORY_EXISTS: 'berth.inventory.exists',
  ALLOCATION_INVALID: 'berth.allocation.invalid',
  ALLOCATION_NO_INVENTORY: 'berth.allocation.no_inventory',
  ALLOCATION_OUTSIDE_UNITS: 'berth.allocation.outside_units',
  ALLOCATION_EXCEEDS_CAPACITY: 'berth.allocation.exceeds_capacity',
  CONSUMER_NOT_FOUND: 'berth.consumer.not_found',
  CANDIDATES_INVALID: 'berth.candidates.invalid_request',
  CANDIDATES_NO_RESOURCES: 'berth.candidates.no_resources',
  QUOTA_INVALID_LIMIT: 'berth.quota.invalid_limit',
  QUOTA_UNKNOWN_RESOURCE: 'berth.quota.unknown_resource',
  UNKNOWN_PLUGIN: 'berth.scheduler.unknown_plugin',
  UNKNOWN_PROFILE: 'berth.scheduler.unknown_profile',
  SCHEDULER_RELOAD_FAILED: 'berth.scheduler.reload_failed',
  IMPORT_INVALID_SOURCE: 'berth.import.invalid_source',
  DRAIN_NO_HOSTS: 'berth.drain.no_hosts',
  DRAIN_TOO_MANY_HOSTS: 'berth.drain.too_many_hosts',
  DRAIN_UNKNOWN_HOST: 'berth.drain.unknown_host',
  DRAIN_NOT_A_HOST: 'berth.drain.not_a_host',
  SIMULATION_INVALID_PIPELINE: 'berth.simulation.invalid_pipeline',
  SIMULATION_INVALID_TRACE: 'berth.simulation.invalid_trace',
  SIMULATION_TOO_LARGE: 'berth.simulation.too_large',
  HEADROOM_FLAVOR_COUNT: 'berth.headroom.flavor_count',
  HEADROOM_DUPLICATE_FLAVOR: 'berth.headroom.duplicate_flavor',
} as const;

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
  /** The connection was lost during COMMIT and the outcome could not be settled (retryable). */
  COMMIT_UNKNOWN: 'berth.commit_unknown',
  MOVE_NOT_IN_PROGRESS: 'berth.move.not_in_progress',
  MOVE_IN_PROGRESS: 'berth.move.in_progress',
  NO_VALID_HOST: 'berth.schedule.no_valid_host',
  TOO_MANY_CANDIDATES: 'berth.too_many_candidates',
  FORBIDDEN: 'berth.forbidden',
  TOO_MANY_SUBSCRIPTIONS: 'berth.too_many_subscriptions',
  SERVER_GROUP_NOT_FOUND: 'berth.server_group.not_found',
  /** A claim would break its server group's hard policy (the scheduler tries the next host). */
  SERVER_GROUP_POLICY: 'berth.server_group.policy_violated',
  /** The consumer is already a member of another server group. */
  SERVER_GROUP_MEMBER: 'berth.server_group.member_elsewhere',
  ...PRECISE_CODES,
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const PRECISE: ReadonlySet<string> = new Set(Object.values(PRECISE_CODES));

/** Precise codes whose REST form is a Placement code other than the generic one. */
const REST_EXCEPTIONS: Readonly<Record<string, ErrorCode>> = {
  [PRECISE_CODES.CANDIDATES_NO_RESOURCES]: ErrorCode.QUERYPARAM_MISSING_VALUE,
};

/** The code the REST facade sends for `code`: Placement's own where berth's is more precise. */
export function restCode(code: string): string {
  return PRECISE.has(code) ? (REST_EXCEPTIONS[code] ?? ErrorCode.DEFAULT) : code;
}

/** HTTP-ish class of an error; REST uses it as the status, GraphQL exposes it as extensions.status. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 415 | 429 | 503;

/** Base class: a message written at the throw site, a stable code and a status class. */
export class PlacementError extends Error {
  readonly code: ErrorCode;
  readonly status: ErrorStatus;
  /**
   * Placement's exact wording when `message` adds berth's detail to it (the REST facade sends
   * this one; GraphQL sends `message`). Undefined when `message` is already Placement's.
   */
  placementMessage?: string;
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

/**
 * A write's COMMIT got no answer and the database could not be asked since whether it committed
 * (503): the caller re-reads before retrying.
 */
export class CommitUnknownError extends PlacementError {
  constructor(message: string) {
    super(message, 503, ErrorCode.COMMIT_UNKNOWN);
  }
}

/** Sets `e.placementMessage` (Placement's wording of berth's more detailed message); returns `e`. */
export function withPlacementMessage<E extends PlacementError>(e: E, message: string): E {
  e.placementMessage = message;
  return e;
}

/** True when `e` is a domain error (safe to show to clients). */
export function isPlacementError(e: unknown): e is PlacementError {
  return e instanceof PlacementError;
}
