// Placement's filter mini-languages, parsed once for GraphQL and REST: `resources`, `required`
// (`!`, `in:`), `member_of` (`in:`, `!`, `!in:`), `in_tree` and request-group suffixes (upstream:
// placement/util.py normalize_*_qs_param(s), lib.py RequestGroup). A malformed term throws a
// QuerySyntaxError carrying a structured issue: GraphQL shows its message, the REST facade words
// it as Placement does (src/rest/qs-parsers.ts). Microversion gates stay with the REST facade.
import { BadRequestError, ErrorCode } from './errors';

/** What is wrong with a term; `value` is the whole term as given. */
export type QuerySyntaxIssue =
  | { readonly kind: 'resources-empty' }
  | { readonly kind: 'resources-form'; readonly term: string }
  | { readonly kind: 'resources-amount'; readonly resourceClass: string; readonly amount: string }
  | {
      readonly kind: 'resources-amount-low';
      readonly resourceClass: string;
      readonly amount: number;
    }
  | { readonly kind: 'traits-any-of-unsupported'; readonly value: string }
  | { readonly kind: 'traits-any-of-empty'; readonly value: string }
  | { readonly kind: 'traits-any-of-forbidden'; readonly value: string }
  | { readonly kind: 'traits-empty'; readonly value: string; readonly allowForbidden: boolean }
  | { readonly kind: 'traits-forbidden-unsupported'; readonly value: string }
  | { readonly kind: 'traits-conflict'; readonly traits: readonly string[] }
  | { readonly kind: 'member-of-several'; readonly value: string }
  | { readonly kind: 'member-of-any-of-forbidden'; readonly value: string; readonly uuid: string }
  | { readonly kind: 'member-of-uuid'; readonly value: string; readonly uuid: string }
  | { readonly kind: 'member-of-forbidden-unsupported'; readonly value: string }
  | { readonly kind: 'in-tree-uuid'; readonly value: string };

/** berth's wording of an issue (what GraphQL clients see; REST words it as Placement does). */
function wording(i: QuerySyntaxIssue): string {
  switch (i.kind) {
    case 'resources-empty':
      return 'Badly formed resources: empty string; expected VCPU:2,MEMORY_MB:1024.';
    case 'resources-form':
      return `Badly formed resources: '${i.term}'; expected VCPU:2,MEMORY_MB:1024.`;
    case 'resources-amount':
      return `Requested resource ${i.resourceClass} expected positive integer amount. Got: ${i.amount}.`;
    case 'resources-amount-low':
      return `Requested resource ${i.resourceClass} requires amount >= 1. Got: ${i.amount}.`;
    case 'traits-any-of-unsupported':
      return `'in:' is not supported for traits here (got '${i.value}').`;
    case 'traits-any-of-empty':
    case 'traits-any-of-forbidden':
      return `Invalid trait list '${i.value}': 'in:' takes non-empty, non-forbidden trait names.`;
    case 'traits-empty':
      return `Invalid trait name in '${i.value}'.`;
    case 'traits-forbidden-unsupported':
      return `Forbidden traits ('${i.value}') are not supported here.`;
    case 'traits-conflict':
      return `Conflicting required and forbidden traits found: ${i.traits.join(', ')}`;
    case 'member-of-several':
      return `Each memberOf entry is one aggregate UUID; use 'in:' for several (got '${i.value}').`;
    case 'member-of-any-of-forbidden':
      return `Forbidden aggregates in 'in:' are not allowed; use '!in:' (got '${i.value}').`;
    case 'member-of-uuid':
      return `memberOf must contain valid aggregate UUID(s). Got: ${i.value}`;
    case 'member-of-forbidden-unsupported':
      return `Forbidden memberOf '${i.value}' is not supported here.`;
    case 'in-tree-uuid':
      return `inTree must be a provider UUID. Got: ${i.value}`;
  }
}

/** A malformed filter term (400, placement.query.bad_value); `issue` says what is wrong. */
export class QuerySyntaxError extends BadRequestError {
  constructor(readonly issue: QuerySyntaxIssue) {
    super(wording(issue), ErrorCode.QUERYPARAM_BAD_VALUE);
  }
}

const fail = (issue: QuerySyntaxIssue): never => {
  throw new QuerySyntaxError(issue);
};

/**
 * The canonical dashed lower-case form of a UUID written as oslo's is_uuid_like accepts it
 * (any case, dashes optional, `urn:`/`uuid:` prefixes and braces allowed); undefined otherwise.
 */
export function uuidLikeOrUndefined(v: string): string | undefined {
  const hex = v
    .replace(/urn:|uuid:/g, '')
    .replace(/^[{}]+|[{}]+$/g, '')
    .replace(/-/g, '')
    .toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) {
    return undefined;
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `resources`: 'VCPU:2,MEMORY_MB:1024' -> { VCPU: 2, MEMORY_MB: 1024 } (later duplicates win).
 * @throws QuerySyntaxError for an empty value, a malformed pair or an amount below 1.
 */
export function parseResourcesOrThrow(value: string): Record<string, number> {
  if (value.trim() === '') {
    fail({ kind: 'resources-empty' });
  }
  const out: Record<string, number> = {};
  for (const term of value.split(',')) {
    const parts = term.split(':');
    if (parts.length !== 2) {
      fail({ kind: 'resources-form', term });
    }
    const [resourceClass, raw] = parts as [string, string];
    if (!/^[+-]?\d+$/.test(raw.trim())) {
      fail({ kind: 'resources-amount', resourceClass, amount: raw });
    }
    const amount = Number(raw.trim());
    if (amount < 1) {
      fail({ kind: 'resources-amount-low', resourceClass, amount });
    }
    out[resourceClass] = amount;
  }
  return out;
}

/** ANDed any-of trait sets plus forbidden traits. */
export interface TraitTerms {
  readonly required: string[][];
  readonly forbidden: string[];
}

/** Which trait syntax is allowed (REST: '!' from 1.22, 'in:' from 1.39). Both default to true. */
export interface TraitSyntax {
  readonly allowForbidden?: boolean;
  readonly allowAnyOf?: boolean;
}

/**
 * One `required` value: 'A,!B' (each name one set, '!' forbids) or 'in:A,B' (one any-of set).
 * @throws QuerySyntaxError for empty names, 'in:' or '!' where not allowed, or '!' inside 'in:'.
 */
export function parseTraitValueOrThrow(value: string, syntax: TraitSyntax = {}): TraitTerms {
  if (value.startsWith('in:')) {
    if (syntax.allowAnyOf === false) {
      fail({ kind: 'traits-any-of-unsupported', value });
    }
    const anyOf = [
      ...new Set(
        value
          .slice(3)
          .split(',')
          .map((s) => s.trim()),
      ),
    ];
    if (!anyOf.every((t) => t.length > 0)) {
      fail({ kind: 'traits-any-of-empty', value });
    }
    if (anyOf.some((t) => t.startsWith('!'))) {
      fail({ kind: 'traits-any-of-forbidden', value });
    }
    return { required: [anyOf], forbidden: [] };
  }
  const all = value.split(',').map((s) => s.trim());
  const forbidden = [
    ...new Set(all.filter((t) => t.startsWith('!')).map((t) => t.replace(/^!+/, ''))),
  ];
  if (![...forbidden, ...all].every((t) => t.length > 0)) {
    fail({ kind: 'traits-empty', value, allowForbidden: syntax.allowForbidden !== false });
  }
  if (forbidden.length > 0 && syntax.allowForbidden === false) {
    fail({ kind: 'traits-forbidden-unsupported', value });
  }
  return { required: all.filter((t) => !t.startsWith('!')).map((t) => [t]), forbidden };
}

/** ANDs several parsed `required` values. */
export function mergeTraitTerms(parts: readonly TraitTerms[]): TraitTerms {
  return {
    required: parts.flatMap((p) => p.required),
    forbidden: [...new Set(parts.flatMap((p) => p.forbidden))],
  };
}

/**
 * Several `required` values, ANDed, refusing a trait both required alone and forbidden.
 * @throws QuerySyntaxError from {@link parseTraitValueOrThrow}, or 'traits-conflict'.
 */
export function parseTraitTermsOrThrow(
  values: readonly string[],
  syntax: TraitSyntax = {},
): TraitTerms {
  const merged = mergeTraitTerms(values.map((v) => parseTraitValueOrThrow(v, syntax)));
  const singles = new Set(merged.required.filter((s) => s.length === 1).map((s) => s[0]!));
  const conflict = merged.forbidden.filter((f) => singles.has(f));
  if (conflict.length > 0) {
    fail({ kind: 'traits-conflict', traits: conflict.sort() });
  }
  return merged;
}

/** One `member_of` value: an any-of set of aggregates and/or aggregates none may match. */
export interface MemberOfValue {
  readonly anyOf: string[];
  readonly forbidden: string[];
}

/**
 * One `member_of` value: 'agg', 'in:a,b', '!agg' or '!in:a,b' (canonical uuids, deduplicated).
 * @throws QuerySyntaxError for several uuids without 'in:', '!' inside 'in:', or a bad uuid.
 */
export function parseMemberOfValueOrThrow(value: string): MemberOfValue {
  const negated = value.startsWith('!');
  const body = negated ? value.slice(1) : value;
  const listed = body.startsWith('in:');
  if (!listed && body.includes(',')) {
    fail({ kind: 'member-of-several', value });
  }
  const uuids = (listed ? body.slice(3) : body).split(',').map((s) => s.trim());
  const canonical = uuids.map((uuid) => {
    if (listed && uuid.startsWith('!')) {
      fail({ kind: 'member-of-any-of-forbidden', value, uuid });
    }
    return uuidLikeOrUndefined(uuid) ?? fail({ kind: 'member-of-uuid', value, uuid });
  });
  const set = [...new Set(canonical)];
  return negated ? { anyOf: [], forbidden: set } : { anyOf: set, forbidden: [] };
}

/** Parsed member_of terms: ANDed any-of sets, plus aggregates none of which may match. */
export interface MemberOf {
  readonly memberOf: string[][];
  readonly forbidden: string[];
}

/**
 * Several `member_of` values, ANDed.
 * @throws QuerySyntaxError from {@link parseMemberOfValueOrThrow}, or when a term forbids
 *   aggregates and `allowForbidden` is false.
 */
export function parseMemberOfOrThrow(values: readonly string[], allowForbidden = true): MemberOf {
  const memberOf: string[][] = [];
  const forbidden = new Set<string>();
  for (const value of values) {
    const parsed = parseMemberOfValueOrThrow(value);
    if (parsed.anyOf.length > 0) {
      memberOf.push(parsed.anyOf);
    }
    if (parsed.forbidden.length > 0 && !allowForbidden) {
      fail({ kind: 'member-of-forbidden-unsupported', value });
    }
    for (const f of parsed.forbidden) {
      forbidden.add(f);
    }
  }
  return { memberOf, forbidden: [...forbidden] };
}

/**
 * An `in_tree` value: a provider uuid, returned as given (trimmed).
 * @throws QuerySyntaxError 'in-tree-uuid'.
 */
export function parseInTreeOrThrow(value: string): string {
  const ret = value.trim();
  return uuidLikeOrUndefined(ret) === undefined ? fail({ kind: 'in-tree-uuid', value }) : ret;
}

/** Numbered request-group suffix (every microversion with granular groups). */
export const NUMBERED_GROUP_SUFFIX = '[1-9][0-9]*';
/** Any request-group suffix: numbers or, from Placement 1.33, up to 64 of [a-zA-Z0-9_-]. */
export const STRING_GROUP_SUFFIX = '[a-zA-Z0-9_-]{1,64}';

/** The parameters a request group is made of. */
export type GroupParam = 'resources' | 'required' | 'member_of' | 'in_tree';

/**
 * Splits a query key into its group parameter and suffix ('resources_NET' -> resources, '_NET');
 * undefined when the key is no group parameter or the suffix is not allowed.
 */
export function splitGroupKey(
  key: string,
  allowStringSuffix = true,
): { readonly param: GroupParam; readonly suffix: string } | undefined {
  const pat = allowStringSuffix ? STRING_GROUP_SUFFIX : NUMBERED_GROUP_SUFFIX;
  const m = new RegExp(`^(resources|required|member_of|in_tree)(${pat})?$`).exec(key);
  return m ? { param: m[1] as GroupParam, suffix: m[2] ?? '' } : undefined;
}

/** True when `suffix` names a request group ('' is the unsuffixed group). */
export function isGroupSuffix(suffix: string, allowStringSuffix = true): boolean {
  const pat = allowStringSuffix ? STRING_GROUP_SUFFIX : NUMBERED_GROUP_SUFFIX;
  return suffix === '' || new RegExp(`^(${pat})$`).test(suffix);
}
