// Request schemas of traits (upstream: placement/schemas/trait.py).
import type { Schema } from '../json-schema';
import { CUSTOM_TRAIT_PATTERN } from './common';

const TRAIT: Schema = { type: 'string', minLength: 1, maxLength: 255 };

/** A custom trait name (PUT /traits/{name}). */
export const CUSTOM_TRAIT: Schema = { ...TRAIT, pattern: CUSTOM_TRAIT_PATTERN };

/** PUT /resource_providers/{uuid}/traits. */
export const SET_TRAITS_FOR_RP_SCHEMA: Schema = {
  type: 'object',
  properties: {
    traits: { type: 'array', items: TRAIT },
    resource_provider_generation: { type: 'integer' },
  },
  required: ['traits', 'resource_provider_generation'],
  additionalProperties: false,
};

/** GET /traits query. */
export const LIST_TRAIT_SCHEMA: Schema = {
  type: 'object',
  properties: { name: { type: 'string' }, associated: { type: 'string' } },
  additionalProperties: false,
};
