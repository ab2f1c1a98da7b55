// Request schemas of allocations, one per microversion step (upstream:
// placement/schemas/allocation.py).
import type { Schema } from '../json-schema';
import { CONSUMER_TYPE_PATTERN, GROUP_PAT_1_33, RC_PATTERN, UUID_PATTERN } from './common';

const RESOURCES = {
  type: 'object',
  minProperties: 1,
  patternProperties: { [RC_PATTERN]: { type: 'integer', minimum: 1 } },
  additionalProperties: false,
} as const satisfies Schema;

const ID = { type: 'string', minLength: 1, maxLength: 255 } as const satisfies Schema;

/** PUT /allocations/{consumer}, 1.0 - 1.7: a list of {resource_provider: {uuid}, resources}. */
export const ALLOCATION_SCHEMA = {
  type: 'object',
  properties: {
    allocations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          resource_provider: {
            type: 'object',
            properties: { uuid: { type: 'string', format: 'uuid' } },
            additionalProperties: false,
            required: ['uuid'],
          },
          resources: RESOURCES,
        },
        required: ['resource_provider', 'resources'],
        additionalProperties: false,
      },
    },
  },
  required: ['allocations'],
  additionalProperties: false,
} as const satisfies Schema;

/** 1.8 - 1.11: project_id and user_id required. */
export const ALLOCATION_SCHEMA_V1_8 = {
  ...ALLOCATION_SCHEMA,
  properties: { ...ALLOCATION_SCHEMA.properties, project_id: ID, user_id: ID },
  required: ['allocations', 'project_id', 'user_id'],
} as const satisfies Schema;

function dictAllocations<const N extends number>(minProperties: N) {
  return {
    type: 'object',
    minProperties,
    patternProperties: {
      [UUID_PATTERN]: {
        type: 'object',
        properties: { generation: { type: 'integer' }, resources: RESOURCES },
        required: ['resources'],
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  } as const satisfies Schema;
}

/** 1.12 - 1.27: allocations keyed by provider uuid, like GET. */
export const ALLOCATION_SCHEMA_V1_12 = {
  type: 'object',
  properties: { allocations: dictAllocations(1), project_id: ID, user_id: ID },
  additionalProperties: false,
  required: ['allocations', 'project_id', 'user_id'],
} as const satisfies Schema;

/** One consumer of POST /allocations (1.13): allocations may be empty. */
const DELETABLE_ALLOCATIONS = {
  ...ALLOCATION_SCHEMA_V1_12,
  properties: { ...ALLOCATION_SCHEMA_V1_12.properties, allocations: dictAllocations(0) },
} as const satisfies Schema;

const GENERATION = {
  type: ['integer', 'null'],
  additionalProperties: false,
} as const satisfies Schema;

/** 1.28 - 1.33: consumer_generation required. */
export const ALLOCATION_SCHEMA_V1_28 = {
  ...DELETABLE_ALLOCATIONS,
  properties: { ...DELETABLE_ALLOCATIONS.properties, consumer_generation: GENERATION },
  required: ['allocations', 'project_id', 'user_id', 'consumer_generation'],
} as const satisfies Schema;

const MAPPINGS = {
  type: 'object',
  minProperties: 1,
  patternProperties: {
    [GROUP_PAT_1_33]: { type: 'array', minItems: 1, items: { type: 'string', format: 'uuid' } },
  },
} as const satisfies Schema;

/** 1.34 - 1.37: optional mappings. */
export const ALLOCATION_SCHEMA_V1_34 = {
  ...ALLOCATION_SCHEMA_V1_28,
  properties: { ...ALLOCATION_SCHEMA_V1_28.properties, mappings: MAPPINGS },
} as const satisfies Schema;

/** 1.38: consumer_type required. */
export const ALLOCATION_SCHEMA_V1_38 = {
  ...ALLOCATION_SCHEMA_V1_34,
  properties: {
    ...ALLOCATION_SCHEMA_V1_34.properties,
    consumer_type: { type: 'string', pattern: CONSUMER_TYPE_PATTERN, minLength: 1, maxLength: 255 },
  },
  required: ['allocations', 'project_id', 'user_id', 'consumer_generation', 'consumer_type'],
} as const satisfies Schema;

/** Consumers keyed by uuid, each validating against `consumer` (at least `minProperties`). */
export function consumersSchema<const C extends Schema, const N extends number = 1>(
  consumer: C,
  minProperties: N = 1 as N,
) {
  return {
    type: 'object',
    minProperties,
    additionalProperties: false,
    patternProperties: { [UUID_PATTERN]: consumer },
  } as const satisfies Schema;
}

/** POST /allocations, 1.13 - 1.27. */
export const POST_ALLOCATIONS_V1_13 = consumersSchema(DELETABLE_ALLOCATIONS);

/** One consumer of POST /allocations from 1.28 (generation required). */
export const REQUIRED_GENERATION_ALLOCS_POST = ALLOCATION_SCHEMA_V1_28;

/** POST /allocations, 1.28 - 1.33. */
export const POST_ALLOCATIONS_V1_28 = consumersSchema(REQUIRED_GENERATION_ALLOCS_POST);
/** POST /allocations, 1.34 - 1.37. */
export const POST_ALLOCATIONS_V1_34 = consumersSchema(ALLOCATION_SCHEMA_V1_34);
/** POST /allocations from 1.38. */
export const POST_ALLOCATIONS_V1_38 = consumersSchema(ALLOCATION_SCHEMA_V1_38);
