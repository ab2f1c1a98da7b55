// The microversion-dependent inventory capacity check that upstream performs in the handler,
// before the object layer (upstream: placement/handlers/inventory.py
// _validate_inventory_capacity). Kept here, with Placement's wording, because the gabbits that
// assert the message are $LAST_URL anchors the conformance runner cannot skip; the domain's
// normalizeInventory() enforces the same rule (allowZeroCapacity) and stays authoritative.
import { badRequest } from '../http-error';
import type { RestRequest } from '../request';
import type { WireInventory } from './inventory-format';

/** int((total - reserved) * allocation_ratio), with Placement's defaults. */
function capacity(inv: WireInventory): number {
  return Math.trunc((inv.total - (inv.reserved ?? 0)) * (inv.allocation_ratio ?? 1));
}

/**
 * Before 1.26 capacity must be > 0, from 1.26 on >= 0 (reserved may equal total).
 * @throws HttpError 400 '<prefix>: Invalid inventory for ... The reserved value is greater than
 *   (or equal to) total.'
 */
export function validateInventoryCapacityOrThrow(
  req: RestRequest,
  providerUuid: string,
  inventories: Readonly<Record<string, WireInventory>>,
  prefix: string,
): void {
  const reservedCanBeTotal = req.matches('1.26');
  for (const [rc, inv] of Object.entries(inventories)) {
    const cap = capacity(inv);
    if (reservedCanBeTotal ? cap < 0 : cap <= 0) {
      const rule = reservedCanBeTotal ? 'greater than total' : 'greater than or equal to total';
      throw badRequest(
        `${prefix}: Invalid inventory for '${rc}' on resource provider '${providerUuid}'. ` +
          `The reserved value is ${rule}.`,
      );
    }
  }
}
