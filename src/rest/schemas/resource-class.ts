// Request schemas of /resource_classes (upstream: placement/schemas/resource_class.py).
import type { Schema } from '../json-schema';
import { CUSTOM_RC_PATTERN } from './common';

/** POST /resource_classes, and PUT before 1.7 (also validates the name in the 1.7 PUT). */
export const POST_RC_SCHEMA_V1_2 = {
  type: 'object',
  properties: { name: { type: 'string', pattern: CUSTOM_RC_PATTERN, maxLength: 255 } },
  required: ['name'],
  additionalProperties: false,
} as const satisfies Schema;

/** PUT /resource_classes/{name}, 1.2 - 1.6. */
export const PUT_RC_SCHEMA_V1_2 = POST_RC_SCHEMA_V1_2;
