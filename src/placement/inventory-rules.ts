// Value rules of one inventory and its defaults (upstream: schemas/inventory.py, handlers/inventory.py
// _validate_inventory_capacity).
import { BadRequestError, ErrorCode } from './errors';
import { capacityOf } from './types';

/** Largest value of a 32-bit inventory column (Placement's db constant MAX_INT). */
export const MAX_INT = 2147483647;
/** Largest allocation ratio (SQL single-precision float max). */
export const MAX_ALLOCATION_RATIO = 3.40282e38;

/** One inventory as written by a client (defaults applied by {@link normalizeInventory}). */
export interface InventoryInput {
  readonly resourceClass: string;
  readonly total: number;
  readonly reserved?: number;
  readonly minUnit?: number;
  readonly maxUnit?: number;
  readonly stepSize?: number;
  readonly allocationRatio?: number;
}

/** An inventory with every default applied. */
export type NormalizedInventory = Required<InventoryInput>;

/** Options mirroring microversion differences. */
export interface InventoryWriteOptions {
  /** Placement >= 1.26 lets reserved equal total (capacity 0); older versions need capacity > 0. */
  readonly allowZeroCapacity?: boolean;
  /**
   * Let an update leave capacity below current usage. Off by default: berth refuses it with
   * placement.inventory.inuse (the GraphQL API's rule). Placement accepts it and only logs a
   * warning; the REST facade sets this to behave as Placement, and the reshaper sets it for its
   * interim inventory (the allocations written next are checked against capacity).
   */
  readonly allowCapacityBelowUsage?: boolean;
}

function intIn(name: string, v: number, min: number, rc: string): void {
  if (!Number.isInteger(v) || v < min || v > MAX_INT) {
    throw new BadRequestError(
      `Bad inventory ${rc}: ${name} must be an integer from ${min} to ${MAX_INT} (got ${v}).`,
      ErrorCode.INVENTORY_INVALID,
    );
  }
}

/**
 * Applies defaults and checks the value rules of one inventory.
 * @throws BadRequestError naming the class and the rule broken.
 */
export function normalizeInventory(
  inv: InventoryInput,
  opts: InventoryWriteOptions = {},
): NormalizedInventory {
  const rc = inv.resourceClass;
  const n: NormalizedInventory = {
    resourceClass: rc,
    total: inv.total,
    reserved: inv.reserved ?? 0,
    minUnit: inv.minUnit ?? 1,
    maxUnit: inv.maxUnit ?? MAX_INT,
    stepSize: inv.stepSize ?? 1,
    allocationRatio: inv.allocationRatio ?? 1,
  };
  intIn('total', n.total, 1, rc);
  intIn('reserved', n.reserved, 0, rc);
  intIn('min_unit', n.minUnit, 1, rc);
  intIn('max_unit', n.maxUnit, 1, rc);
  intIn('step_size', n.stepSize, 1, rc);
  if (
    !Number.isFinite(n.allocationRatio) ||
    n.allocationRatio <= 0 ||
    n.allocationRatio > MAX_ALLOCATION_RATIO
  ) {
    throw new BadRequestError(
      `Bad inventory ${rc}: allocation_ratio must be a number greater than 0 (got ${n.allocationRatio}).`,
      ErrorCode.INVENTORY_INVALID,
    );
  }
  if (n.minUnit > n.maxUnit) {
    throw new BadRequestError(
      `Bad inventory ${rc}: min_unit (${n.minUnit}) must not exceed max_unit (${n.maxUnit}).`,
      ErrorCode.INVENTORY_INVALID,
    );
  }
  const capacity = capacityOf(n);
  if (opts.allowZeroCapacity === false ? capacity <= 0 : n.reserved > n.total || capacity < 0) {
    throw new BadRequestError(
      opts.allowZeroCapacity === false
        ? `Invalid inventory for ${rc}: the reserved value (${n.reserved}) must be less than the total (${n.total}), leaving capacity above 0.`
        : `Invalid inventory for ${rc}: the reserved value (${n.reserved}) is greater than the total (${n.total}).`,
      ErrorCode.INVENTORY_INVALID,
    );
  }
  return n;
}
