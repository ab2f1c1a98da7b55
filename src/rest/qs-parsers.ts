// The query-string mini-languages on the REST facade: the domain parsers of
// src/placement/query-syntax.ts behind Placement's microversion gates, with their structured
// issues worded as Placement's 400 messages (upstream: placement/util.py normalize_*_qs_param(s)).
import {
  mergeTraitTerms,
  parseInTreeOrThrow as parseInTree,
  parseMemberOfOrThrow as parseMemberOf,
  parseResourcesOrThrow as parseResources,
  parseTraitValueOrThrow,
  QuerySyntaxError,
  type QuerySyntaxIssue,
  type TraitTerms,
} from '../placement/query-syntax';
import { badRequest } from './http-error';
import type { Microversion } from './microversion';
import type { QueryParams } from './query-params';

/** ANDed any-of trait sets plus forbidden traits (util.normalize_traits_qs_param's result). */
export type ParsedTraits = TraitTerms;

/** ANDed any-of aggregate sets plus forbidden aggregates. */
export interface ParsedMemberOf {
  readonly required: string[][];
  readonly forbidden: string[];
}

const INVALID = 'Invalid query string parameters: ';
const RESOURCES_FORM =
  'Badly formed resources parameter. Expected resources query string parameter in form: ' +
  '?resources=VCPU:2,MEMORY_MB:1024.';
const IN_FORM = "The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC'";
const REQUIRED_FORM = "Expected 'required' parameter value of the form:";

/**
 * Placement's message for a query syntax issue; `suffix` is the request group's.
 */
export function placementMessage(i: QuerySyntaxIssue, suffix = ''): string {
  switch (i.kind) {
    case 'resources-empty':
      return `${RESOURCES_FORM} Got: empty string.`;
    case 'resources-form':
      return `${RESOURCES_FORM} Got: ${i.term}.`;
    case 'resources-amount':
      return `Requested resource ${i.resourceClass} expected positive integer amount. Got: ${i.amount}.`;
    case 'resources-amount-low':
      return `Requested resource ${i.resourceClass} requires amount >= 1. Got: ${i.amount}.`;
    case 'traits-any-of-unsupported':
      return `${INVALID}${IN_FORM} only supported since microversion 1.39. Got: ${i.value}`;
    case 'traits-any-of-empty':
      return `${INVALID}${REQUIRED_FORM} in:HW_CPU_X86_VMX,CUSTOM_MAGIC. Got an empty trait in: ${i.value}`;
    case 'traits-any-of-forbidden':
      return `${INVALID}${IN_FORM} does not support forbidden traits. Got: ${i.value}`;
    case 'traits-empty': {
      const form = i.allowForbidden
        ? 'HW_CPU_X86_VMX,!CUSTOM_MAGIC'
        : 'HW_CPU_X86_VMX,CUSTOM_MAGIC';
      return `${INVALID}${REQUIRED_FORM} ${form}. Got an empty trait in: ${i.value}`;
    }
    case 'traits-forbidden-unsupported':
      return `${INVALID}${REQUIRED_FORM} HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: ${i.value}`;
    case 'traits-conflict':
      return `Conflicting required and forbidden traits found in the following traits keys: required${suffix}: (${i.traits.join(', ')})`;
    case 'member-of-several':
      return (
        "Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword " +
        `using the valid microversion. Got: ${i.value}`
      );
    case 'member-of-any-of-forbidden':
    case 'member-of-uuid':
      // Placement has no rule for '!' inside 'in:': '!uuid' simply is no valid uuid there.
      return `${INVALID}Expected 'member_of' parameter to contain valid UUID(s). Got: ${i.uuid}`;
    case 'member-of-forbidden-unsupported':
      return `Forbidden member_of${suffix} parameters are not supported in the specified microversion`;
    case 'in-tree-uuid':
      return `${INVALID}Expected 'in_tree' parameter to be a format of uuid. Got: ${i.value}`;
  }
}

/** Runs a domain parser, turning its QuerySyntaxError into Placement's 400. */
function placementOrThrow<T>(fn: () => T, suffix = ''): T {
  try {
    return fn();
  } catch (e) {
    throw e instanceof QuerySyntaxError ? badRequest(placementMessage(e.issue, suffix)) : e;
  }
}

/**
 * 'VCPU:2,MEMORY_MB:1024' -> { VCPU: 2, MEMORY_MB: 1024 } (later duplicates win).
 * @throws HttpError 400 with Placement's messages for empty, malformed or non-positive amounts.
 */
export function parseResourcesOrThrow(qs: string): Record<string, number> {
  return placementOrThrow(() => parseResources(qs));
}

/**
 * One `required` value: 'A,!B' or (from 1.39) 'in:A,B'.
 * @throws HttpError 400 for empty names, '!' before 1.22, 'in:' before 1.39 or '!' inside 'in:'.
 */
export function parseTraitsOrThrow(
  val: string,
  allowForbidden: boolean,
  allowAnyOf: boolean,
): ParsedTraits {
  return placementOrThrow(() => parseTraitValueOrThrow(val, { allowForbidden, allowAnyOf }));
}

/**
 * Every `required<suffix>` value (only the last before 1.39), ANDed.
 * @throws HttpError 400 from {@link parseTraitsOrThrow}.
 */
export function traitParamsOrThrow(q: QueryParams, v: Microversion, suffix = ''): ParsedTraits {
  const allowForbidden = v.matches('1.22');
  const allowAnyOf = v.matches('1.39');
  let values = q.getAll(`required${suffix}`);
  if (!allowAnyOf) {
    values = values.slice(-1);
  }
  return mergeTraitTerms(values.map((val) => parseTraitsOrThrow(val, allowForbidden, allowAnyOf)));
}

/**
 * Every `member_of<suffix>` value: several only from 1.24, forbidden ones only from 1.32.
 * @throws HttpError 400 with Placement's messages.
 */
export function memberOfParamsOrThrow(
  q: QueryParams,
  v: Microversion,
  suffix = '',
): ParsedMemberOf {
  const values = q.getAll(`member_of${suffix}`);
  if (!v.matches('1.24') && values.length > 1) {
    throw badRequest(`Multiple member_of${suffix} parameters are not supported`);
  }
  const parsed = placementOrThrow(() => parseMemberOf(values, v.matches('1.32')), suffix);
  return { required: parsed.memberOf, forbidden: parsed.forbidden };
}

/**
 * An in_tree value: a provider uuid.
 * @throws HttpError 400 "Expected 'in_tree' parameter to be a format of uuid".
 */
export function parseInTreeOrThrow(value: string): string {
  return placementOrThrow(() => parseInTree(value));
}
