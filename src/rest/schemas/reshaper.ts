// Request schema of POST /reshaper (upstream: placement/schemas/reshaper.py).
import type { Schema } from '../json-schema';
import {
  POST_ALLOCATIONS_V1_28,
  POST_ALLOCATIONS_V1_34,
  POST_ALLOCATIONS_V1_38,
} from './allocation';
import { UUID_PATTERN } from './common';
import { PUT_INVENTORY_SCHEMA } from './inventory';

const reshaper = (allocations: Schema): Schema => ({
  type: 'object',
  properties: {
    inventories: {
      type: 'object',
      patternProperties: { [UUID_PATTERN]: PUT_INVENTORY_SCHEMA },
      minProperties: 1,
      additionalProperties: false,
    },
    // The reshaper may carry no allocations at all.
    allocations: { ...allocations, minProperties: 0 },
  },
  required: ['inventories', 'allocations'],
  additionalProperties: false,
});

/** POST /reshaper, 1.30 - 1.33. */
export const POST_RESHAPER_SCHEMA = reshaper(POST_ALLOCATIONS_V1_28);
/** POST /reshaper, 1.34 - 1.37 (mappings). */
export const POST_RESHAPER_SCHEMA_V1_34 = reshaper(POST_ALLOCATIONS_V1_34);
/** POST /reshaper from 1.38 (consumer_type). */
export const POST_RESHAPER_SCHEMA_V1_38 = reshaper(POST_ALLOCATIONS_V1_38);
