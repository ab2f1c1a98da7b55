// Request schemas of traits (upstream: placement/schemas/trait.py).
import type { Schema } from '../json-schema';
import { CUSTOM_TRAIT_PATTERN } from './common';

const TRAIT = { type: 'string', minLength: 1, maxLength: 255 } as const satisfies Schema;

/** A custom trait name (PUT /traits/{name}). */
export const CUSTOM_TRAIT = { ...TRAIT, pattern: CUSTOM_TRAIT_PATTERN } as const satisfies Schema;

/** PUT /resource_providers/{uuid}/traits. */
export const SET_TRAITS_FOR_RP_SCHEMA = {
  type: 'object',
  properties: {
    traits: { type: 'array', items: TRAIT },
    resource_provider_generation: { type: 'integer' },
  },
  required: ['traits', 'resource_provider_generation'],
  additionalProperties: false,
} as const satisfies Schema;

/** GET /traits query. */
export const LIST_TRAIT_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' }, associated: { type: 'string' } },
  additionalProperties: false,
} as const satisfies Schema;
