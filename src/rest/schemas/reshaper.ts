// Request schema of POST /reshaper (upstream: placement/schemas/reshaper.py).
import type { Schema } from '../json-schema';
import {
  ALLOCATION_SCHEMA_V1_34,
  ALLOCATION_SCHEMA_V1_38,
  consumersSchema,
  REQUIRED_GENERATION_ALLOCS_POST,
} from './allocation';
import { UUID_PATTERN } from './common';
import { PUT_INVENTORY_SCHEMA } from './inventory';

/** The reshaper body whose allocations hold consumers validating against `consumer`. */
const reshaper = <const C extends Schema>(consumer: C) =>
  ({
    type: 'object',
    properties: {
      inventories: {
        type: 'object',
        patternProperties: { [UUID_PATTERN]: PUT_INVENTORY_SCHEMA },
        minProperties: 1,
        additionalProperties: false,
      },
      // The reshaper may carry no allocations at all: POST /allocations' schema, 0 consumers.
      allocations: consumersSchema(consumer, 0),
    },
    required: ['inventories', 'allocations'],
    additionalProperties: false,
  }) as const satisfies Schema;

/** POST /reshaper, 1.30 - 1.33. */
export const POST_RESHAPER_SCHEMA = reshaper(REQUIRED_GENERATION_ALLOCS_POST);
/** POST /reshaper, 1.34 - 1.37 (mappings). */
export const POST_RESHAPER_SCHEMA_V1_34 = reshaper(ALLOCATION_SCHEMA_V1_34);
/** POST /reshaper from 1.38 (consumer_type). */
export const POST_RESHAPER_SCHEMA_V1_38 = reshaper(ALLOCATION_SCHEMA_V1_38);
