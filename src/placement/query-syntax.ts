// Parsers for Placement's filter syntax shared by GraphQL and REST (upstream: placement/util.py
// normalize_member_of_qs_params, normalize_traits_qs_param, normalize_resources_qs_param).
import { BadRequestError, ErrorCode } from './errors';
import { normalizeUuidOrThrow } from './uuid';

/** Parsed member_of terms: ANDed any-of sets, plus aggregates none of which may match. */
export interface MemberOf {
  readonly memberOf: string[][];
  readonly forbidden: string[];
}

/**
 * Parses member_of terms: 'agg', 'in:a,b', '!agg', '!in:a,b'. Terms are ANDed.
 * @throws BadRequestError for malformed UUIDs or '!' inside 'in:'.
 */
export function parseMemberOfOrThrow(terms: readonly string[], allowForbidden = true): MemberOf {
  const memberOf: string[][] = [];
  const forbidden: string[] = [];
  for (const raw of terms) {
    let term = raw.trim();
    const negated = term.startsWith('!');
    if (negated) {
      if (!allowForbidden) {
        throw new BadRequestError(
          `Invalid query string parameters: Forbidden member_of '${raw}' is not supported at this microversion.`,
          ErrorCode.QUERYPARAM_BAD_VALUE,
        );
      }
      term = term.slice(1);
    }
    let uuids: string[];
    if (term.startsWith('in:')) {
      const parts = term.slice(3).split(',');
      if (parts.some((p) => p.trim().startsWith('!'))) {
        throw new BadRequestError(
          `Invalid query string parameters: Forbidden aggregates in 'in:' are not allowed; use '!in:' (got '${raw}').`,
          ErrorCode.QUERYPARAM_BAD_VALUE,
        );
      }
      uuids = parts.map((p) => normalizeMemberUuid(p, raw));
    } else {
      if (term.includes(',')) {
        throw new BadRequestError(
          `Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Use 'in:' for several (got '${raw}').`,
          ErrorCode.QUERYPARAM_BAD_VALUE,
        );
      }
      uuids = [normalizeMemberUuid(term, raw)];
    }
    if (negated) {
      forbidden.push(...uuids);
    } else {
      memberOf.push([...new Set(uuids)]);
    }
  }
  return { memberOf, forbidden: [...new Set(forbidden)] };
}

function normalizeMemberUuid(v: string, raw: string): string {
  try {
    return normalizeUuidOrThrow(v.trim(), 'aggregate uuid');
  } catch {
    throw new BadRequestError(
      `Invalid query string parameters: Expected 'member_of' parameter to contain valid UUID(s). Got: ${raw}`,
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
}

/** Parsed trait terms: ANDed any-of sets, and forbidden traits. */
export interface TraitTerms {
  readonly required: string[][];
  readonly forbidden: string[];
}

/**
 * Parses trait terms: 'T', '!T', 'in:T1,T2' (one entry may also hold 'A,!B' as REST's required=).
 * @throws BadRequestError for empty names or conflicting required/forbidden traits.
 */
export function parseTraitTermsOrThrow(
  terms: readonly string[],
  opts: { allowForbidden?: boolean; allowAnyOf?: boolean } = {},
): TraitTerms {
  const required: string[][] = [];
  const forbidden: string[] = [];
  for (const raw of terms) {
    const term = raw.trim();
    if (term.startsWith('in:')) {
      if (opts.allowAnyOf === false) {
        throw new BadRequestError(
          `Invalid query string parameters: 'in:' is not supported for traits at this microversion (got '${raw}').`,
          ErrorCode.QUERYPARAM_BAD_VALUE,
        );
      }
      const names = term
        .slice(3)
        .split(',')
        .map((s) => s.trim());
      if (names.some((n) => n === '' || n.startsWith('!'))) {
        throw new BadRequestError(
          `Invalid query string parameters: Invalid trait list '${raw}': 'in:' takes non-empty, non-forbidden trait names.`,
          ErrorCode.QUERYPARAM_BAD_VALUE,
        );
      }
      required.push([...new Set(names)]);
      continue;
    }
    for (const part of term.split(',').map((s) => s.trim())) {
      if (part === '' || part === '!') {
        throw new BadRequestError(
          `Invalid query string parameters: Invalid trait name in '${raw}'.`,
          ErrorCode.QUERYPARAM_BAD_VALUE,
        );
      }
      if (part.startsWith('!')) {
        if (opts.allowForbidden === false) {
          throw new BadRequestError(
            `Invalid query string parameters: forbidden traits ('${part}') are not supported at this microversion.`,
            ErrorCode.QUERYPARAM_BAD_VALUE,
          );
        }
        forbidden.push(part.slice(1));
      } else {
        required.push([part]);
      }
    }
  }
  const requiredSingles = new Set(required.filter((s) => s.length === 1).map((s) => s[0]!));
  const conflict = forbidden.filter((f) => requiredSingles.has(f));
  if (conflict.length > 0) {
    throw new BadRequestError(
      `Invalid query string parameters: Conflicting required and forbidden traits found: ${conflict.sort().join(', ')}`,
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
  return { required, forbidden: [...new Set(forbidden)] };
}
