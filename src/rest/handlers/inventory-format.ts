// Wire format of inventories: request records to domain input, domain records to JSON
// (upstream: placement/handlers/inventory.py _extract_inventory, _serialize_inventory).
import type { InventoryInput } from '../../placement/inventory-rules';
import type { InventoryRecord } from '../../placement/types';

/** An inventory as clients write it (schema-validated). */
export interface WireInventory {
  readonly total: number;
  readonly reserved?: number;
  readonly min_unit?: number;
  readonly max_unit?: number;
  readonly step_size?: number;
  readonly allocation_ratio?: number;
}

/** Domain input of `wire` for class `rc` (defaults are the domain's, equal to Placement's). */
export function toInventoryInput(rc: string, wire: WireInventory): InventoryInput {
  return {
    resourceClass: rc,
    total: wire.total,
    reserved: wire.reserved,
    minUnit: wire.min_unit,
    maxUnit: wire.max_unit,
    stepSize: wire.step_size,
    allocationRatio: wire.allocation_ratio,
  };
}

/** One inventory; `generation` is added when truthy (Placement's `if generation:`). */
export function serializeInventory(inv: InventoryRecord, generation?: number) {
  const data: Record<string, number> = {
    total: inv.total,
    reserved: inv.reserved,
    min_unit: inv.minUnit,
    max_unit: inv.maxUnit,
    step_size: inv.stepSize,
    allocation_ratio: inv.allocationRatio,
  };
  if (generation) {
    data.resource_provider_generation = generation;
  }
  return data;
}

/** { resource_provider_generation, inventories: { class: inventory } }. */
export function serializeInventories(inventories: readonly InventoryRecord[], generation: number) {
  return {
    resource_provider_generation: generation,
    inventories: Object.fromEntries(
      inventories.map((i) => [i.resourceClass, serializeInventory(i)]),
    ),
  };
}
