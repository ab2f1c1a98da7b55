// Query schemas of GET /allocation_candidates per microversion (upstream:
// placement/schemas/allocation_candidate.py).
import type { Schema } from '../json-schema';
import { GROUP_PAT, GROUP_PAT_1_33 } from './common';

const STRING = { type: 'string' } as const satisfies Schema;
const STRING_LIST = { type: ['string'] } as const satisfies Schema;
const LIMIT = {
  type: ['integer', 'string'],
  pattern: '^[1-9][0-9]*$',
  minimum: 1,
  minLength: 1,
} as const satisfies Schema;
const GROUP_POLICY = { type: 'string', enum: ['none', 'isolate'] } as const satisfies Schema;

type Properties = Readonly<Record<string, Schema>>;

const flat = <const P extends Properties>(properties: P) =>
  ({
    type: 'object',
    properties,
    required: ['resources'],
    additionalProperties: false,
  }) as const satisfies Schema;

const groupKeys = (pat: string, kinds: readonly string[]): Record<string, typeof STRING> =>
  Object.fromEntries(kinds.map((k) => [`^${k}(${pat})?$`, STRING]));

const granular = <const P extends Properties>(
  properties: P,
  pat: string,
  kinds: readonly string[],
) =>
  ({
    type: 'object',
    properties,
    additionalProperties: false,
    patternProperties: groupKeys(pat, kinds),
  }) as const satisfies Schema;

const KINDS_1_25 = ['resources', 'required', 'member_of'];
const KINDS_1_31 = [...KINDS_1_25, 'in_tree'];
const GRANULAR_PROPS = { limit: LIMIT, group_policy: GROUP_POLICY } as const;

/** Schemas by minimum microversion, newest first (the handler's _get_schema). */
export const GET_AC_SCHEMAS = [
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
] as const;
