// Applies pre-candidate amendments to the request (upstream: nova/scheduler/request_filter.py, which
// edits the RequestSpec's member_of / forbidden aggregates / root traits before the Placement query).
import type { RequestGroup } from '../placement/allocation-candidates/request';
import { emptyRequestGroup } from './helpers';
import type { RequestAmendment, RequestSpec } from './plugin-api';

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && v !== '');
}

function isAnyOfList(value: unknown): value is readonly (readonly string[])[] {
  return Array.isArray(value) && value.every(isStringList);
}

/** Why an amendment returned by a plugin is malformed, or `null` when it is well formed. */
export function amendmentProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'amendment must be an object or null';
  }
  const a = value as Record<string, unknown>;
  for (const key of ['memberOf', 'rootRequiredTraits'] as const) {
    if (a[key] !== undefined && !isAnyOfList(a[key])) {
      return `${key} must be a list of lists of non-empty strings`;
    }
  }
  for (const key of ['forbiddenAggregates', 'rootForbiddenTraits'] as const) {
    if (a[key] !== undefined && !isStringList(a[key])) {
      return `${key} must be a list of non-empty strings`;
    }
  }
  for (const key of ['unsatisfiable', 'note'] as const) {
    if (a[key] !== undefined && typeof a[key] !== 'string') {
      return `${key} must be a string`;
    }
  }
  return null;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Returns `spec` with the amendment applied: `memberOf` and `forbiddenAggregates` are added to the
 * unsuffixed group (created without resources when the request has none, so the constraint spans the
 * whole tree as Placement's unnumbered `member_of` does); root traits go to the request-wide fields.
 * An empty any-of set in `memberOf` cannot be expressed in Placement; callers treat it as unsatisfiable
 * (see `emptyMemberOf`).
 */
export function applyAmendment(spec: RequestSpec, amendment: RequestAmendment): RequestSpec {
  const req = spec.candidateRequest;
  const memberOf = amendment.memberOf ?? [];
  const forbidden = amendment.forbiddenAggregates ?? [];
  let groups: readonly RequestGroup[] = req.groups;
  if (memberOf.length > 0 || forbidden.length > 0) {
    const base = req.groups.find((g) => g.suffix === '');
    const amended: RequestGroup = {
      ...(base ?? emptyRequestGroup('')),
      memberOf: [...(base?.memberOf ?? []), ...memberOf.map((set) => unique(set))],
      forbiddenAggregates: unique([...(base?.forbiddenAggregates ?? []), ...forbidden]),
    };
    groups = base ? req.groups.map((g) => (g === base ? amended : g)) : [amended, ...req.groups];
  }
  const rootRequired = [...(req.rootRequired ?? []), ...(amendment.rootRequiredTraits ?? [])];
  const rootForbidden = unique([
    ...(req.rootForbidden ?? []),
    ...(amendment.rootForbiddenTraits ?? []),
  ]);
  return {
    ...spec,
    candidateRequest: {
      ...req,
      groups,
      ...(rootRequired.length > 0 ? { rootRequired } : {}),
      ...(rootForbidden.length > 0 ? { rootForbidden } : {}),
    },
  };
}

/** True when the amendment requires membership in an empty set of aggregates (nothing can match). */
export function emptyMemberOf(amendment: RequestAmendment): boolean {
  return (amendment.memberOf ?? []).some((set) => set.length === 0);
}
