// Request schemas of /resource_providers (upstream: placement/schemas/resource_provider.py).
import type { Schema } from '../json-schema';

const name: Schema = { type: 'string', maxLength: 200 };
const uuid: Schema = { type: 'string', format: 'uuid' };
const parent: Schema = { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] };

/** POST /resource_providers before 1.14. */
export const POST_RESOURCE_PROVIDER_SCHEMA: Schema = {
  type: 'object',
  properties: { name, uuid },
  required: ['name'],
  additionalProperties: false,
};

/** PUT /resource_providers/{uuid} before 1.14. */
export const PUT_RESOURCE_PROVIDER_SCHEMA: Schema = {
  type: 'object',
  properties: { name },
  required: ['name'],
  additionalProperties: false,
};

/** POST from 1.14 (parent_provider_uuid). */
export const POST_RP_SCHEMA_V1_14: Schema = {
  type: 'object',
  properties: { name, uuid, parent_provider_uuid: parent },
  required: ['name'],
  additionalProperties: false,
};

/** PUT from 1.14. */
export const PUT_RP_SCHEMA_V1_14: Schema = {
  type: 'object',
  properties: { name, parent_provider_uuid: parent },
  required: ['name'],
  additionalProperties: false,
};

const GET_1_0 = { name: { type: 'string' }, uuid } as const;
const GET_1_3 = { ...GET_1_0, member_of: { type: 'string' } };
const GET_1_4 = { ...GET_1_3, resources: { type: 'string' } };
const GET_1_14 = { ...GET_1_4, in_tree: { type: 'string', format: 'uuid' } as Schema };
const GET_1_18 = { ...GET_1_14, required: { type: 'string' } };

const query = (properties: Record<string, Schema>): Schema => ({
  type: 'object',
  properties,
  additionalProperties: false,
});

/** GET /resource_providers query schemas by microversion, newest first. */
export const GET_RPS_SCHEMAS: readonly (readonly [string, Schema])[] = [
  ['1.18', query(GET_1_18)],
  ['1.14', query(GET_1_14)],
  ['1.4', query(GET_1_4)],
  ['1.3', query(GET_1_3)],
  ['1.0', query(GET_1_0)],
];
