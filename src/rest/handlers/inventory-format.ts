// Wire format of inventories: request records to domain input, domain records to JSON
// (upstream: placement/handlers/inventory.py _extract_inventory, _serialize_inventory).
import type { InventoryInput } from '../../placement/inventory-rules';
import type { InventoryRecord } from '../../placement/types';
import { badRequest } from '../http-error';
import { validateSchema, validates } from '../json-schema';
import { jsonWithFloats } from '../py-json';
import { jsonResponse, type RestResponse } from '../response';
import type { Validated } from '../schema-types';
import {
  LOOSE_INVENTORY_RECORD_SCHEMA,
  type PUT_INVENTORY_RECORD_SCHEMA,
} from '../schemas/inventory';

/** An inventory as clients write it (one record of PUT .../inventories; the other bodies add fields). */
export type WireInventory = Validated<typeof PUT_INVENTORY_RECORD_SCHEMA>;

/**
 * The `inventories` of a PUT .../inventories or reshaper body, every value an inventory.
 * Placement's schema checks the values of the keys that are class names (RC_PATTERN) and lets
 * any other key through with any value: Placement's handler then reads an object's inventory
 * fields, ignoring others, and answers 500 for a value that is no object or lacks a numeric
 * total. Such a value is checked here against LOOSE_INVENTORY_RECORD_SCHEMA; no class has such
 * a name, so an inventory that passes is refused as an unknown resource class, as in Placement.
 * @throws HttpError 400 'JSON does not validate: ...' (the error within that inventory).
 */
export function checkedInventoriesOrThrow(
  inventories: Readonly<Record<string, unknown>>,
): Record<string, WireInventory> {
  return Object.fromEntries(
    Object.entries(inventories).map(([rc, value]) => {
      if (!validates(value, LOOSE_INVENTORY_RECORD_SCHEMA)) {
        throw badRequest(
          `JSON does not validate: ${validateSchema(value, LOOSE_INVENTORY_RECORD_SCHEMA)}`,
        );
      }
      return [rc, value];
    }),
  );
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

/**
 * One inventory; `generation` is added when truthy (Placement's `if generation:`). With
 * `intRatio` the allocation ratio is written as an integer: Placement's write handlers echo the
 * request's values, so a ratio the client wrote as `16` comes back as `16`, a stored one (GET)
 * or a default one as a float (`16.0`, `1.0`).
 */
export function serializeInventory(inv: InventoryRecord, generation?: number, intRatio = false) {
  const ratio = inv.allocationRatio;
  const data: Record<string, number | bigint> = {
    total: inv.total,
    reserved: inv.reserved,
    min_unit: inv.minUnit,
    max_unit: inv.maxUnit,
    step_size: inv.stepSize,
    allocation_ratio: intRatio && Number.isInteger(ratio) ? BigInt(ratio) : ratio,
  };
  if (generation) {
    data.resource_provider_generation = generation;
  }
  return data;
}

/**
 * { resource_provider_generation, inventories: { class: inventory } }; `intRatios` names the
 * classes whose allocation ratio the client wrote as an integer (see serializeInventory).
 */
export function serializeInventories(
  inventories: readonly InventoryRecord[],
  generation: number,
  intRatios: ReadonlySet<string> = new Set(),
) {
  return {
    resource_provider_generation: generation,
    inventories: Object.fromEntries(
      inventories.map((i) => [
        i.resourceClass,
        serializeInventory(i, undefined, intRatios.has(i.resourceClass)),
      ]),
    ),
  };
}

const RATIO_LITERAL = /"allocation_ratio"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * Which `allocation_ratio` values of a request body are written as JSON integers, in document
 * order (Python's json reads `16` as an int and `16.0` as a float; JSON.parse cannot tell them
 * apart). `expected` is how many ratios the parsed body holds; when the text holds another number
 * (duplicate keys, escaped key names) every ratio counts as a float.
 */
export function intRatioLiterals(body: Buffer | string, expected: number): boolean[] {
  const found = Array.from(String(body).matchAll(RATIO_LITERAL), (m) => /^-?\d+$/.test(m[1]!));
  return found.length === expected ? found : new Array<boolean>(expected).fill(false);
}

/** The inventory fields Placement stores as floats (written `4.0`, not `4`). */
const FLOAT_FIELDS: ReadonlySet<string> = new Set(['allocation_ratio']);

/** A JSON response of inventory `body`, with allocation_ratio written as a Python float. */
export function inventoryJsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): RestResponse {
  return { ...jsonResponse(null, status, headers), body: jsonWithFloats(body, FLOAT_FIELDS) };
}
