// Request schemas of provider aggregates (upstream: placement/schemas/aggregate.py).
import type { Schema } from '../json-schema';

const AGGREGATES_LIST = {
  type: 'array',
  items: { type: 'string', format: 'uuid' },
  uniqueItems: true,
} as const satisfies Schema;

/** PUT .../aggregates, 1.1 - 1.18: a bare list. */
export const PUT_AGGREGATES_SCHEMA_V1_1 = AGGREGATES_LIST;

/** PUT .../aggregates from 1.19: with the provider generation. */
export const PUT_AGGREGATES_SCHEMA_V1_19 = {
  type: 'object',
  properties: {
    aggregates: AGGREGATES_LIST,
    resource_provider_generation: { type: 'integer' },
  },
  required: ['aggregates', 'resource_provider_generation'],
  additionalProperties: false,
} as const satisfies Schema;
