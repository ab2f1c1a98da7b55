// Request schemas of inventories (upstream: placement/schemas/inventory.py).
import type { Schema } from '../json-schema';
import { MAX_INT, RC_PATTERN, SQL_SP_FLOAT_MAX } from './common';

const int = (minimum: number): Schema => ({ type: 'integer', maximum: MAX_INT, minimum });

const FIELDS: Readonly<Record<string, Schema>> = {
  resource_provider_generation: { type: 'integer' },
  total: int(1),
  reserved: int(0),
  min_unit: int(1),
  max_unit: int(1),
  step_size: int(1),
  allocation_ratio: { type: 'number', maximum: SQL_SP_FLOAT_MAX },
};

/** PUT /resource_providers/{uuid}/inventories/{rc}. */
export const BASE_INVENTORY_SCHEMA: Schema = {
  type: 'object',
  properties: FIELDS,
  required: ['total', 'resource_provider_generation'],
  additionalProperties: false,
};

/** POST /resource_providers/{uuid}/inventories. */
export const POST_INVENTORY_SCHEMA: Schema = {
  type: 'object',
  properties: { ...FIELDS, resource_class: { type: 'string', pattern: RC_PATTERN } },
  required: ['total', 'resource_class'],
  additionalProperties: false,
};

/** One inventory inside PUT .../inventories. */
export const PUT_INVENTORY_RECORD_SCHEMA: Schema = {
  type: 'object',
  properties: FIELDS,
  required: ['total'],
  additionalProperties: false,
};

/** PUT /resource_providers/{uuid}/inventories. */
export const PUT_INVENTORY_SCHEMA: Schema = {
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
};
