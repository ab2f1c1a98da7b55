// Parsers of Placement's query-string mini-languages with their 400 messages: resources,
// required (! and in:), member_of (in:, !, !in:), in_tree (upstream: placement/util.py
// normalize_*_qs_param(s)).
import { badRequest } from './http-error';
import { isUuidLike } from './json-schema';
import type { Microversion } from './microversion';
import type { QueryParams } from './query-params';

/** ANDed any-of trait sets plus forbidden traits (util.normalize_traits_qs_param's result). */
export interface ParsedTraits {
  readonly required: string[][];
  readonly forbidden: string[];
}

/** One member_of value: an any-of set and/or forbidden aggregates. */
export interface MemberOfTerm {
  readonly required: string[];
  readonly forbidden: string[];
}

/** ANDed any-of aggregate sets plus forbidden aggregates. */
export interface ParsedMemberOf {
  readonly required: string[][];
  readonly forbidden: string[];
}

const RESOURCES_FORM =
  'Badly formed resources parameter. Expected resources query string parameter in form: ' +
  '?resources=VCPU:2,MEMORY_MB:1024.';

function pyIntOrUndefined(s: string): number | undefined {
  const t = s.trim();
  return /^[+-]?\d+$/.test(t) ? Number(t) : undefined;
}

/**
 * 'VCPU:2,MEMORY_MB:1024' -> { VCPU: 2, MEMORY_MB: 1024 } (later duplicates win).
 * @throws HttpError 400 with Placement's messages for empty, malformed or non-positive amounts.
 */
export function parseResourcesOrThrow(qs: string): Record<string, number> {
  if (qs.trim() === '') {
    throw badRequest(`${RESOURCES_FORM} Got: empty string.`);
  }
  const out: Record<string, number> = {};
  for (const rt of qs.split(',')) {
    const parts = rt.split(':');
    if (parts.length !== 2) {
      throw badRequest(`${RESOURCES_FORM} Got: ${rt}.`);
    }
    const [rc, raw] = parts as [string, string];
    const amount = pyIntOrUndefined(raw);
    if (amount === undefined) {
      throw badRequest(`Requested resource ${rc} expected positive integer amount. Got: ${raw}.`);
    }
    if (amount < 1) {
      throw badRequest(`Requested resource ${rc} requires amount >= 1. Got: ${amount}.`);
    }
    out[rc] = amount;
  }
  return out;
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
  if (val.startsWith('in:')) {
    if (!allowAnyOf) {
      throw badRequest(
        "Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' only " +
          `supported since microversion 1.39. Got: ${val}`,
      );
    }
    const anyOf = [
      ...new Set(
        val
          .slice(3)
          .split(',')
          .map((s) => s.trim()),
      ),
    ];
    if (!anyOf.every((t) => t.length > 0)) {
      throw badRequest(
        "Invalid query string parameters: Expected 'required' parameter value of the form: " +
          `in:HW_CPU_X86_VMX,CUSTOM_MAGIC. Got an empty trait in: ${val}`,
      );
    }
    if (anyOf.some((t) => t.startsWith('!'))) {
      throw badRequest(
        "Invalid query string parameters: The format 'in:HW_CPU_X86_VMX,CUSTOM_MAGIC' does not " +
          `support forbidden traits. Got: ${val}`,
      );
    }
    return { required: [anyOf], forbidden: [] };
  }
  const all = val.split(',').map((s) => s.trim());
  const forbidden = [
    ...new Set(all.filter((t) => t.startsWith('!')).map((t) => t.replace(/^!+/, ''))),
  ];
  if (![...forbidden, ...all].every((t) => t.length > 0)) {
    const form = allowForbidden ? 'HW_CPU_X86_VMX,!CUSTOM_MAGIC' : 'HW_CPU_X86_VMX,CUSTOM_MAGIC';
    throw badRequest(
      "Invalid query string parameters: Expected 'required' parameter value of the form: " +
        `${form}. Got an empty trait in: ${val}`,
    );
  }
  if (forbidden.length > 0 && !allowForbidden) {
    throw badRequest(
      "Invalid query string parameters: Expected 'required' parameter value of the form: " +
        `HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: ${val}`,
    );
  }
  return { required: all.filter((t) => !t.startsWith('!')).map((t) => [t]), forbidden };
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
  const required: string[][] = [];
  const forbidden = new Set<string>();
  for (const value of values) {
    const parsed = parseTraitsOrThrow(value, allowForbidden, allowAnyOf);
    required.push(...parsed.required);
    for (const f of parsed.forbidden) {
      forbidden.add(f);
    }
  }
  return { required, forbidden: [...forbidden] };
}

/**
 * One member_of value: 'uuid', '!uuid', 'in:a,b' or '!in:a,b'.
 * @throws HttpError 400 for several uuids without in:, or malformed uuids.
 */
export function parseMemberOfOrThrow(value: string): MemberOfTerm {
  if (value.includes(',') && !(value.startsWith('in:') || value.startsWith('!in:'))) {
    throw badRequest(
      "Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword " +
        `using the valid microversion. Got: ${value}`,
    );
  }
  let required: string[] = [];
  let forbidden: string[] = [];
  if (value.startsWith('!in:')) {
    forbidden = value.slice(4).split(',');
  } else if (value.startsWith('!')) {
    forbidden = [value.slice(1)];
  } else if (value.startsWith('in:')) {
    required = value.slice(3).split(',');
  } else {
    required = [value];
  }
  for (const agg of [...required, ...forbidden]) {
    if (!isUuidLike(agg)) {
      throw badRequest(
        "Invalid query string parameters: Expected 'member_of' parameter to contain valid " +
          `UUID(s). Got: ${agg}`,
      );
    }
  }
  return { required: [...new Set(required)], forbidden: [...new Set(forbidden)] };
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
  const required: string[][] = [];
  const forbidden = new Set<string>();
  for (const value of values) {
    const parsed = parseMemberOfOrThrow(value);
    if (parsed.required.length > 0) {
      required.push(parsed.required);
    }
    if (parsed.forbidden.length > 0) {
      if (!v.matches('1.32')) {
        throw badRequest(
          `Forbidden member_of${suffix} parameters are not supported in the specified microversion`,
        );
      }
      for (const f of parsed.forbidden) {
        forbidden.add(f);
      }
    }
  }
  return { required, forbidden: [...forbidden] };
}

/**
 * An in_tree value: a provider uuid.
 * @throws HttpError 400 "Expected 'in_tree' parameter to be a format of uuid".
 */
export function parseInTreeOrThrow(value: string): string {
  const ret = value.trim();
  if (!isUuidLike(ret)) {
    throw badRequest(
      "Invalid query string parameters: Expected 'in_tree' parameter to be a format of uuid. " +
        `Got: ${value}`,
    );
  }
  return ret;
}
