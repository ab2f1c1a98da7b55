// Query schemas of GET /allocation_candidates per microversion (upstream:
// placement/schemas/allocation_candidate.py).
import type { Schema } from '../json-schema';
import { GROUP_PAT, GROUP_PAT_1_33 } from './common';

const STRING: Schema = { type: 'string' };
const STRING_LIST: Schema = { type: ['string'] };
const LIMIT: Schema = {
  type: ['integer', 'string'],
  pattern: '^[1-9][0-9]*$',
  minimum: 1,
  minLength: 1,
};
const GROUP_POLICY: Schema = { type: 'string', enum: ['none', 'isolate'] };

const flat = (properties: Record<string, Schema>): Schema => ({
  type: 'object',
  properties,
  required: ['resources'],
  additionalProperties: false,
});

const groupKeys = (pat: string, kinds: readonly string[]): Record<string, Schema> =>
  Object.fromEntries(kinds.map((k) => [`^${k}(${pat})?$`, STRING]));

const granular = (
  properties: Record<string, Schema>,
  pat: string,
  kinds: readonly string[],
): Schema => ({
  type: 'object',
  properties,
  additionalProperties: false,
  patternProperties: groupKeys(pat, kinds),
});

const KINDS_1_25 = ['resources', 'required', 'member_of'];
const KINDS_1_31 = [...KINDS_1_25, 'in_tree'];
const GRANULAR_PROPS = { limit: LIMIT, group_policy: GROUP_POLICY };

/** Schemas by minimum microversion, newest first (the handler's _get_schema). */
export const GET_AC_SCHEMAS: readonly (readonly [string, Schema])[] = [
  [
    '1.36',
    granular(
      { ...GRANULAR_PROPS, root_required: STRING_LIST, same_subtree: STRING_LIST },
      GROUP_PAT_1_33,
      KINDS_1_31,
    ),
  ],
  ['1.35', granular({ ...GRANULAR_PROPS, root_required: STRING_LIST }, GROUP_PAT_1_33, KINDS_1_31)],
  ['1.33', granular(GRANULAR_PROPS, GROUP_PAT_1_33, KINDS_1_31)],
  ['1.31', granular(GRANULAR_PROPS, GROUP_PAT, KINDS_1_31)],
  ['1.25', granular(GRANULAR_PROPS, GROUP_PAT, KINDS_1_25)],
  [
    '1.21',
    flat({ resources: STRING, limit: LIMIT, required: STRING_LIST, member_of: STRING_LIST }),
  ],
  ['1.17', flat({ resources: STRING, limit: LIMIT, required: STRING_LIST })],
  ['1.16', flat({ resources: STRING, limit: LIMIT })],
  ['1.10', flat({ resources: STRING })],
];
