// Applies pre-candidate amendments to the request (upstream: nova/scheduler/request_filter.py, which
// edits the RequestSpec's member_of / forbidden aggregates / root traits before the Placement query).
import {
  emptyRequestGroup,
  type RequestGroup,
} from '../../placement/allocation-candidates/request';
import type { RequestAmendment, RequestSpec } from '../plugin-api';
import { errorMessage } from './isolation';

/** Longest list a plugin's amendment may carry (a Proxy could claim any length). */
const MAX_LIST = 10_000;

/** A copy of `value` when it is a list of non-empty strings, else undefined. */
function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length > MAX_LIST) {
    return undefined;
  }
  const copy = Array.from(value as unknown[]);
  return copy.every((v) => typeof v === 'string' && v !== '') ? (copy as string[]) : undefined;
}

/** A copy of `value` when it is a list of lists of non-empty strings, else undefined. */
function anyOfList(value: unknown): string[][] | undefined {
  if (!Array.isArray(value) || value.length > MAX_LIST) {
    return undefined;
  }
  const copy = Array.from(value as unknown[], stringList);
  return copy.every((v) => v !== undefined) ? (copy as string[][]) : undefined;
}

const LIST_FIELDS = [
  ['memberOf', anyOfList],
  ['forbiddenAggregates', stringList],
  ['rootRequiredTraits', anyOfList],
  ['rootForbiddenTraits', stringList],
] as const;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Reads an amendment returned by a plugin into a fresh plain object holding only the known fields
 * (each read once; unknown fields dropped), or says why it is malformed. Never throws: getters and
 * Proxies that throw, circular or BigInt-laden extras all end as a problem or are dropped, so what
 * the explanation keeps (and prints) is always plain data the plugin can no longer change.
 */
export function readAmendment(
  value: unknown,
): { readonly amendment: RequestAmendment } | { readonly problem: string } {
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { problem: 'amendment must be an object or null' };
    }
    const a = value as Record<string, unknown>;
    const out: Mutable<RequestAmendment> = {};
    for (const [key, read] of LIST_FIELDS) {
      const raw = a[key];
      if (raw === undefined) {
        continue;
      }
      const list = read(raw);
      if (list === undefined) {
        return {
          problem: `${key} must be a list of ${read === anyOfList ? 'lists of ' : ''}non-empty strings`,
        };
      }
      (out as Record<string, unknown>)[key] = list;
    }
    for (const key of ['unsatisfiable', 'note'] as const) {
      const raw = a[key];
      if (raw === undefined) {
        continue;
      }
      if (typeof raw !== 'string') {
        return { problem: `${key} must be a string` };
      }
      out[key] = raw;
    }
    return { amendment: out };
  } catch (err) {
    return { problem: `amendment cannot be read: ${errorMessage(err)}` };
  }
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
