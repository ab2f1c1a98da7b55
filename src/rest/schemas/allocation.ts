// Request schemas of allocations, one per microversion step (upstream:
// placement/schemas/allocation.py).
import type { Schema } from '../json-schema';
import { CONSUMER_TYPE_PATTERN, GROUP_PAT_1_33, RC_PATTERN, UUID_PATTERN } from './common';

const RESOURCES: Schema = {
  type: 'object',
  minProperties: 1,
  patternProperties: { [RC_PATTERN]: { type: 'integer', minimum: 1 } },
  additionalProperties: false,
};

const ID: Schema = { type: 'string', minLength: 1, maxLength: 255 };

/** PUT /allocations/{consumer}, 1.0 - 1.7: a list of {resource_provider: {uuid}, resources}. */
export const ALLOCATION_SCHEMA: Schema = {
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
};

/** 1.8 - 1.11: project_id and user_id required. */
export const ALLOCATION_SCHEMA_V1_8: Schema = {
  ...ALLOCATION_SCHEMA,
  properties: { ...ALLOCATION_SCHEMA.properties, project_id: ID, user_id: ID },
  required: ['allocations', 'project_id', 'user_id'],
};

function dictAllocations(minProperties: number): Schema {
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
  };
}

/** 1.12 - 1.27: allocations keyed by provider uuid, like GET. */
export const ALLOCATION_SCHEMA_V1_12: Schema = {
  type: 'object',
  properties: { allocations: dictAllocations(1), project_id: ID, user_id: ID },
  additionalProperties: false,
  required: ['allocations', 'project_id', 'user_id'],
};

/** One consumer of POST /allocations (1.13): allocations may be empty. */
const DELETABLE_ALLOCATIONS: Schema = {
  ...ALLOCATION_SCHEMA_V1_12,
  properties: { ...ALLOCATION_SCHEMA_V1_12.properties, allocations: dictAllocations(0) },
};

const GENERATION: Schema = { type: ['integer', 'null'], additionalProperties: false };

/** 1.28 - 1.33: consumer_generation required. */
export const ALLOCATION_SCHEMA_V1_28: Schema = {
  ...DELETABLE_ALLOCATIONS,
  properties: { ...DELETABLE_ALLOCATIONS.properties, consumer_generation: GENERATION },
  required: ['allocations', 'project_id', 'user_id', 'consumer_generation'],
};

const MAPPINGS: Schema = {
  type: 'object',
  minProperties: 1,
  patternProperties: {
    [GROUP_PAT_1_33]: { type: 'array', minItems: 1, items: { type: 'string', format: 'uuid' } },
  },
};

/** 1.34 - 1.37: optional mappings. */
export const ALLOCATION_SCHEMA_V1_34: Schema = {
  ...ALLOCATION_SCHEMA_V1_28,
  properties: { ...ALLOCATION_SCHEMA_V1_28.properties, mappings: MAPPINGS },
};

/** 1.38: consumer_type required. */
export const ALLOCATION_SCHEMA_V1_38: Schema = {
  ...ALLOCATION_SCHEMA_V1_34,
  properties: {
    ...ALLOCATION_SCHEMA_V1_34.properties,
    consumer_type: { type: 'string', pattern: CONSUMER_TYPE_PATTERN, minLength: 1, maxLength: 255 },
  },
  required: ['allocations', 'project_id', 'user_id', 'consumer_generation', 'consumer_type'],
};

const postSchema = (consumer: Schema): Schema => ({
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  patternProperties: { [UUID_PATTERN]: consumer },
});

/** POST /allocations, 1.13 - 1.27. */
export const POST_ALLOCATIONS_V1_13 = postSchema(DELETABLE_ALLOCATIONS);

/** One consumer of POST /allocations from 1.28 (generation required). */
export const REQUIRED_GENERATION_ALLOCS_POST: Schema = ALLOCATION_SCHEMA_V1_28;

/** POST /allocations, 1.28 - 1.33. */
export const POST_ALLOCATIONS_V1_28 = postSchema(REQUIRED_GENERATION_ALLOCS_POST);
/** POST /allocations, 1.34 - 1.37. */
export const POST_ALLOCATIONS_V1_34 = postSchema(ALLOCATION_SCHEMA_V1_34);
/** POST /allocations from 1.38. */
export const POST_ALLOCATIONS_V1_38 = postSchema(ALLOCATION_SCHEMA_V1_38);
