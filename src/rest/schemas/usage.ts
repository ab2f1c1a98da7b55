// Query schemas of GET /usages (upstream: placement/schemas/usage.py).
import type { Schema } from '../json-schema';
import { CONSUMER_TYPE_GET_PATTERN } from './common';

const id = { type: 'string', minLength: 1, maxLength: 255 } as const satisfies Schema;

/** GET /usages, 1.9 - 1.37. */
export const GET_USAGES_SCHEMA_1_9 = {
  type: 'object',
  properties: { project_id: id, user_id: id },
  required: ['project_id'],
  additionalProperties: false,
} as const satisfies Schema;

/** GET /usages from 1.38 (consumer_type filter). */
export const GET_USAGES_SCHEMA_V1_38 = {
  type: 'object',
  properties: {
    project_id: id,
    user_id: id,
    consumer_type: {
      type: 'string',
      pattern: CONSUMER_TYPE_GET_PATTERN,
      minLength: 1,
      maxLength: 255,
    },
  },
  required: ['project_id'],
  additionalProperties: false,
} as const satisfies Schema;
