// Request schemas of inventories (upstream: placement/schemas/inventory.py).
import type { Schema } from '../json-schema';
import { MAX_INT, RC_PATTERN, SQL_SP_FLOAT_MAX } from './common';

const int = <const M extends number>(minimum: M) =>
  ({ type: 'integer', maximum: MAX_INT, minimum }) as const satisfies Schema;

const FIELDS = {
  resource_provider_generation: { type: 'integer' },
  total: int(1),
  reserved: int(0),
  min_unit: int(1),
  max_unit: int(1),
  step_size: int(1),
  allocation_ratio: { type: 'number', maximum: SQL_SP_FLOAT_MAX },
} as const satisfies Readonly<Record<string, Schema>>;

/** PUT /resource_providers/{uuid}/inventories/{rc}. */
export const BASE_INVENTORY_SCHEMA = {
  type: 'object',
  properties: FIELDS,
  required: ['total', 'resource_provider_generation'],
  additionalProperties: false,
} as const satisfies Schema;

/** POST /resource_providers/{uuid}/inventories. */
export const POST_INVENTORY_SCHEMA = {
  type: 'object',
  properties: { ...FIELDS, resource_class: { type: 'string', pattern: RC_PATTERN } },
  required: ['total', 'resource_class'],
  additionalProperties: false,
} as const satisfies Schema;

/** One inventory inside PUT .../inventories. */
export const PUT_INVENTORY_RECORD_SCHEMA = {
  type: 'object',
  properties: FIELDS,
  required: ['total'],
  additionalProperties: false,
} as const satisfies Schema;

/**
 * An inventory under a key of PUT .../inventories that is no class name, which Placement's
 * schema leaves unchecked and its handler reads with any other fields ignored (berth's check of
 * such a value; not one of Placement's schemas).
 */
export const LOOSE_INVENTORY_RECORD_SCHEMA = {
  type: 'object',
  properties: FIELDS,
  required: ['total'],
} as const satisfies Schema;

/**
 * PUT /resource_providers/{uuid}/inventories. As in Placement, `inventories` allows other keys
 * than class names, and does not check their values.
 */
export const PUT_INVENTORY_SCHEMA = {
  type: 'object',
  properties: {
    resource_provider_generation: { type: 'integer' },
    inventories: {
      type: 'object',
      patternProperties: { [RC_PATTERN]: PUT_INVENTORY_RECORD_SCHEMA },
    },
  },
  required: ['resource_provider_generation', 'inventories'],
  additionalProperties: false,
} as const satisfies Schema;
