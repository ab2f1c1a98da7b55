// Value grammar of AggregateInstanceTypeFilter: `<or>` alternatives, the * ~ ! sentinels and Nova
// operators, and when one side's alternatives satisfy the other's (upstream: nfv-filters
// aggregate_instance_type_filter.py; design note "Filter - Aggregate Instance Type Filter").
import {
  isOperatorExpression,
  type MatchResult,
  matchExtraSpec,
} from '../../src/scheduler/helpers';

/** A parsed value: plain values / operator expressions, plus which sentinels were present. */
export interface Alternatives {
  readonly values: readonly string[];
  /** `*`: the key is present, with any value. */
  readonly any: boolean;
  /** `~`: the key may be absent. */
  readonly optional: boolean;
  /** `!`: the key must be absent. */
  readonly forbidden: boolean;
  /** The text as written, for reasons. */
  readonly text: string;
}

/** The other side of a comparison: absent, or present with alternatives (literal = Nova's old string compare). */
export type Side =
  | { readonly present: false }
  | { readonly present: true; readonly alts: Alternatives; readonly literal: boolean };

/**
 * Parses a value. `<or> a <or> b` splits on the `<or>` token (each alternative may itself be an
 * operator expression such as `>= 4`); anything else is one alternative. Returns a string on an
 * invalid value: `!` together with `*` or `~`, or an `<or>` without alternatives.
 */
export function parseAlternatives(raw: string): Alternatives | string {
  const tokens = raw.trim().split(/\s+/);
  let parts: string[];
  if (tokens[0] === '<or>') {
    parts = [];
    let current: string[] = [];
    for (const token of tokens.slice(1)) {
      if (token === '<or>') {
        parts.push(current.join(' '));
        current = [];
      } else {
        current.push(token);
      }
    }
    parts.push(current.join(' '));
    parts = parts.filter((p) => p !== '');
    if (parts.length === 0) {
      return `"${raw}" has <or> but no alternative`;
    }
  } else {
    parts = [['*', '~', '!'].includes(raw.trim()) ? raw.trim() : raw];
  }
  const alts: Alternatives = {
    values: parts.filter((p) => p !== '*' && p !== '~' && p !== '!'),
    any: parts.includes('*'),
    optional: parts.includes('~'),
    forbidden: parts.includes('!'),
    text: raw,
  };
  if (alts.forbidden && (alts.any || alts.optional)) {
    return `"${raw}" combines "!" with "*" or "~"`;
  }
  return alts;
}

/** The literal (no grammar) reading of aggregate values: Nova's backwards-compatible behaviour. */
export function literalAlternatives(values: readonly string[]): Alternatives {
  return { values, any: false, optional: false, forbidden: false, text: values.join(',') };
}

/** Union of several parsed values (a key's values across the host's aggregates). */
export function unionAlternatives(list: readonly Alternatives[]): Alternatives {
  return {
    values: [...new Set(list.flatMap((a) => a.values))],
    any: list.some((a) => a.any),
    optional: list.some((a) => a.optional),
    forbidden: list.some((a) => a.forbidden),
    text: list.map((a) => a.text).join(','),
  };
}

/**
 * The aggregate side of one key: absent, its literal values (Nova's behaviour), or under
 * force_metadata_check the union of its parsed values. A string when a value is invalid.
 */
export function aggregateSide(
  values: readonly string[] | undefined,
  force: boolean,
): Side | string {
  if (values === undefined) {
    return { present: false };
  }
  if (!force) {
    return { present: true, alts: literalAlternatives(values), literal: true };
  }
  const parsed = values.map(parseAlternatives);
  const invalid = parsed.find((p): p is string => typeof p === 'string');
  return (
    invalid ?? { present: true, alts: unionAlternatives(parsed as Alternatives[]), literal: false }
  );
}

/** How a side reads in a rejection reason. */
export function describeSide(side: Side): string {
  return side.present ? `"${side.alts.text}"` : 'nothing';
}

function pairMatch(want: string, found: string, literal: boolean): MatchResult {
  if (literal) {
    return matchExtraSpec(found, want);
  }
  const wantOp = isOperatorExpression(want);
  const foundOp = isOperatorExpression(found);
  if (wantOp && foundOp) {
    // Two constraints cannot be compared; only the same constraint written twice agrees.
    return { matched: want.trim().split(/\s+/).join(' ') === found.trim().split(/\s+/).join(' ') };
  }
  if (foundOp) {
    return matchExtraSpec(want, found);
  }
  return wantOp ? matchExtraSpec(found, want) : { matched: want === found };
}

/** Whether `want` is satisfied by `other`; `error` carries a numeric-operator problem, if one decided it. */
export function satisfied(want: Alternatives, other: Side): MatchResult {
  if (!other.present) {
    return { matched: want.optional || want.forbidden };
  }
  const found = other.alts;
  if (want.any && (found.values.length > 0 || found.any)) {
    return { matched: true };
  }
  if (found.any && want.values.length > 0) {
    return { matched: true };
  }
  let error: string | undefined;
  for (const w of want.values) {
    for (const f of found.values) {
      const result = pairMatch(w, f, other.literal);
      if (result.matched) {
        return { matched: true };
      }
      error ??= result.error;
    }
  }
  return error === undefined ? { matched: false } : { matched: false, error };
}
