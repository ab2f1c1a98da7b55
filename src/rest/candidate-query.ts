// GET /allocation_candidates query string -> the engine's CandidateRequest: request groups by
// suffix and the request-wide parameters, with the checks that depend on the microversion
// (upstream: placement/lib.py RequestGroup.dict_from_request, RequestWideParams.from_request).

import {
  type CandidateRequest,
  emptyRequestGroup,
  type RequestGroupDraft,
} from '../placement/allocation-candidates/request';
import { ErrorCode } from '../placement/errors';
import { splitGroupKey } from '../placement/query-syntax';
import { badRequest } from './http-error';
import type { Microversion } from './microversion';
import {
  memberOfParamsOrThrow,
  parseInTreeOrThrow,
  parseResourcesOrThrow,
  parseTraitsOrThrow,
  traitParamsOrThrow,
} from './qs-parsers';
import type { QueryParams } from './query-params';

/** Groups keyed by suffix in first-appearance order (lib.RequestGroup._parse_request_items). */
function parseGroupsOrThrow(q: QueryParams, v: Microversion): RequestGroupDraft[] {
  const bySuffix = new Map<string, RequestGroupDraft>();
  for (const [key, val] of q.items()) {
    const m = splitGroupKey(key, v.matches('1.33'));
    if (!m) {
      continue;
    }
    const { param: prefix, suffix } = m;
    let g = bySuffix.get(suffix);
    if (!g) {
      g = emptyRequestGroup(suffix);
      bySuffix.set(suffix, g);
    }
    if (prefix === 'resources') {
      g.resources = parseResourcesOrThrow(val);
    } else if (prefix === 'required') {
      const t = traitParamsOrThrow(q, v, suffix);
      g.requiredTraits = t.required;
      g.forbiddenTraits = t.forbidden;
    } else if (prefix === 'member_of') {
      const mo = memberOfParamsOrThrow(q, v, suffix);
      g.memberOf = mo.required;
      g.forbiddenAggregates = mo.forbidden;
    } else {
      g.inTree = parseInTreeOrThrow(val);
    }
  }
  return [...bySuffix.values()];
}

/** Before 1.36 every group needs resources (lib.RequestGroup._check_for_orphans). */
function checkOrphansOrThrow(groups: readonly RequestGroupDraft[]): void {
  const traitOrphans = groups
    .filter((g) => g.requiredTraits.length > 0 && Object.keys(g.resources).length === 0)
    .map((g) => `required${g.suffix}`);
  if (traitOrphans.length > 0) {
    throw badRequest(
      'All traits parameters must be associated with resources.  Found the following orphaned ' +
        `traits keys: ${traitOrphans.join(', ')}`,
    );
  }
  const memberOrphans = groups
    .filter(
      (g) =>
        Object.keys(g.resources).length === 0 &&
        (g.memberOf.length > 0 || g.forbiddenAggregates.length > 0),
    )
    .map((g) => `member_of${g.suffix}`);
  if (memberOrphans.length > 0) {
    throw badRequest(
      'All member_of parameters must be associated with resources. Found the following ' +
        `orphaned member_of keys: ${memberOrphans.join(', ')}`,
    );
  }
  if (!groups.every((g) => Object.keys(g.resources).length > 0)) {
    throw badRequest('All request groups must specify resources.');
  }
  if (groups.length === 0) {
    throw badRequest('At least one request group (`resources` or `resources{$S}`) is required.');
  }
}

/** root_required: once only, no 'in:', forbidden allowed (RequestWideParams.from_request). */
function rootTraitsOrThrow(q: QueryParams) {
  const values = q.getAll('root_required');
  if (values.length === 0) {
    return {};
  }
  if (values.length > 1) {
    throw badRequest(
      "Query parameter 'root_required' may be specified only once.",
      ErrorCode.ILLEGAL_DUPLICATE_QUERYPARAM,
    );
  }
  const parsed = parseTraitsOrThrow(values[0]!, true, false);
  return { rootRequired: parsed.required, rootForbidden: parsed.forbidden };
}

/**
 * group_policy as Placement reads it: the first value (the schema checked the last one), no
 * policy when empty, 'isolate', or else no isolation ('none').
 */
function groupPolicyOf(first: string | undefined): CandidateRequest['groupPolicy'] {
  if (!first) {
    return undefined;
  }
  return first === 'isolate' ? 'isolate' : 'none';
}

/**
 * The engine request for a GET /allocation_candidates query (already schema-validated).
 * Checks that need no data and do not depend on the microversion are left to the engine.
 * @throws HttpError 400 with Placement's messages for malformed parameters.
 */
export function candidateRequestOrThrow(q: QueryParams, v: Microversion): CandidateRequest {
  const limit = q.getAll('limit')[0];
  const groupPolicy = groupPolicyOf(q.getAll('group_policy')[0]);
  const root = rootTraitsOrThrow(q);
  const sameSubtree = q
    .getAll('same_subtree')
    .map((val) => [...new Set(val.split(',').map((s) => s.trim()))]);
  const groups = parseGroupsOrThrow(q, v);
  if (!v.matches('1.36')) {
    checkOrphansOrThrow(groups);
  }
  return {
    groups,
    groupPolicy,
    ...root,
    sameSubtree,
    limit: limit === undefined ? undefined : Number(limit),
  };
}
