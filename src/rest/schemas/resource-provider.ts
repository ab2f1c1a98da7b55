// Request schemas of /resource_providers (upstream: placement/schemas/resource_provider.py).
import type { Schema } from '../json-schema';

const name = { type: 'string', maxLength: 200 } as const satisfies Schema;
const uuid = { type: 'string', format: 'uuid' } as const satisfies Schema;
const parent = {
  anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }],
} as const satisfies Schema;

/** POST /resource_providers before 1.14. */
export const POST_RESOURCE_PROVIDER_SCHEMA = {
  type: 'object',
  properties: { name, uuid },
  required: ['name'],
  additionalProperties: false,
} as const satisfies Schema;

/** PUT /resource_providers/{uuid} before 1.14. */
export const PUT_RESOURCE_PROVIDER_SCHEMA = {
  type: 'object',
  properties: { name },
  required: ['name'],
  additionalProperties: false,
} as const satisfies Schema;

/** POST from 1.14 (parent_provider_uuid). */
export const POST_RP_SCHEMA_V1_14 = {
  type: 'object',
  properties: { name, uuid, parent_provider_uuid: parent },
  required: ['name'],
  additionalProperties: false,
} as const satisfies Schema;

/** PUT from 1.14. */
export const PUT_RP_SCHEMA_V1_14 = {
  type: 'object',
  properties: { name, parent_provider_uuid: parent },
  required: ['name'],
  additionalProperties: false,
} as const satisfies Schema;

const STRING = { type: 'string' } as const satisfies Schema;
const GET_1_0 = { name: STRING, uuid } as const;
const GET_1_3 = { ...GET_1_0, member_of: STRING } as const;
const GET_1_4 = { ...GET_1_3, resources: STRING } as const;
const GET_1_14 = { ...GET_1_4, in_tree: uuid } as const;
const GET_1_18 = { ...GET_1_14, required: STRING } as const;

const query = <const P extends Readonly<Record<string, Schema>>>(properties: P) =>
  ({ type: 'object', properties, additionalProperties: false }) as const satisfies Schema;

/** GET /resource_providers query schemas by microversion, newest first. */
export const GET_RPS_SCHEMAS = [
  ['1.18', query(GET_1_18)],
  ['1.14', query(GET_1_14)],
  ['1.4', query(GET_1_4)],
  ['1.3', query(GET_1_3)],
  ['1.0', query(GET_1_0)],
] as const;
