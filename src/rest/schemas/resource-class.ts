// Request schemas of /resource_classes (upstream: placement/schemas/resource_class.py).
import type { Schema } from '../json-schema';
import { CUSTOM_RC_PATTERN } from './common';

/** POST /resource_classes, and PUT before 1.7 (also validates the name in the 1.7 PUT). */
export const POST_RC_SCHEMA_V1_2: Schema = {
  type: 'object',
  properties: { name: { type: 'string', pattern: CUSTOM_RC_PATTERN, maxLength: 255 } },
  required: ['name'],
  additionalProperties: false,
};

/** PUT /resource_classes/{name}, 1.2 - 1.6. */
export const PUT_RC_SCHEMA_V1_2: Schema = POST_RC_SCHEMA_V1_2;
