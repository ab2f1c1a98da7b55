// The shared filter mini-language parsers: values, and the structured issue of every malformed
// term (upstream: placement/tests/unit/test_util.py normalize_*_qs_param cases).
import {
  isGroupSuffix,
  parseInTreeOrThrow,
  parseMemberOfOrThrow,
  parseResourcesOrThrow,
  parseTraitTermsOrThrow,
  parseTraitValueOrThrow,
  QuerySyntaxError,
  type QuerySyntaxIssue,
  splitGroupKey,
} from '../../../src/placement/query-syntax';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

/** The issue `fn` throws (fails the test when it throws nothing or something else). */
function issueOf(fn: () => unknown): QuerySyntaxIssue {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QuerySyntaxError);
    expect(e).toMatchObject({ status: 400, code: 'placement.query.bad_value' });
    return (e as QuerySyntaxError).issue;
  }
  throw new Error('expected a QuerySyntaxError');
}

describe('parseResourcesOrThrow', () => {
  it('parses class:amount pairs, later duplicates winning', () => {
    expect(parseResourcesOrThrow('VCPU:2,MEMORY_MB:1024,VCPU:3')).toEqual({
      VCPU: 3,
      MEMORY_MB: 1024,
    });
  });

  it.each([
    { name: 'empty value', qs: ' ', want: { kind: 'resources-empty' } },
    { name: 'no amount', qs: 'VCPU', want: { kind: 'resources-form', term: 'VCPU' } },
    {
      name: 'non-integer amount',
      qs: 'VCPU:x',
      want: { kind: 'resources-amount', resourceClass: 'VCPU', amount: 'x' },
    },
    {
      name: 'zero amount',
      qs: 'VCPU:0',
      want: { kind: 'resources-amount-low', resourceClass: 'VCPU', amount: 0 },
    },
  ])('reports $name', ({ qs, want }) => {
    expect(issueOf(() => parseResourcesOrThrow(qs))).toEqual(want);
  });
});

describe('trait terms', () => {
  it('splits required and forbidden names, and reads in: as one any-of set', () => {
    expect(parseTraitValueOrThrow('A,!B, C')).toEqual({
      required: [['A'], ['C']],
      forbidden: ['B'],
    });
    expect(parseTraitTermsOrThrow(['A', 'in:B,C', '!D'])).toEqual({
      required: [['A'], ['B', 'C']],
      forbidden: ['D'],
    });
  });

  it.each([
    {
      name: 'in: where not allowed',
      val: 'in:A,B',
      syntax: { allowAnyOf: false },
      want: { kind: 'traits-any-of-unsupported', value: 'in:A,B' },
    },
    {
      name: '! inside in:',
      val: 'in:A,!B',
      syntax: {},
      want: { kind: 'traits-any-of-forbidden', value: 'in:A,!B' },
    },
    {
      name: 'an empty name inside in:',
      val: 'in:A,,B',
      syntax: {},
      want: { kind: 'traits-any-of-empty', value: 'in:A,,B' },
    },
    {
      name: 'an empty name',
      val: 'A,,B',
      syntax: { allowForbidden: false },
      want: { kind: 'traits-empty', value: 'A,,B', allowForbidden: false },
    },
    {
      name: 'a bare !',
      val: 'A,!',
      syntax: {},
      want: { kind: 'traits-empty', value: 'A,!', allowForbidden: true },
    },
    {
      name: '! where not allowed',
      val: '!A',
      syntax: { allowForbidden: false },
      want: { kind: 'traits-forbidden-unsupported', value: '!A' },
    },
  ])('reports $name', ({ val, syntax, want }) => {
    expect(issueOf(() => parseTraitValueOrThrow(val, syntax))).toEqual(want);
  });

  it('reports a trait both required and forbidden across terms', () => {
    expect(issueOf(() => parseTraitTermsOrThrow(['B,A', '!A']))).toEqual({
      kind: 'traits-conflict',
      traits: ['A'],
    });
  });
});

describe('parseMemberOfOrThrow', () => {
  it('ANDs terms, canonicalises uuids and collects forbidden aggregates', () => {
    expect(
      parseMemberOfOrThrow([A, `in:${A},${B.toUpperCase()}`, `!${B}`, `!in:${A},{${B}}`]),
    ).toEqual({ memberOf: [[A], [A, B]], forbidden: [B, A] });
  });

  it.each([
    { name: 'several uuids without in:', val: `${A},${B}`, kind: 'member-of-several' },
    { name: '! inside in:', val: `in:${A},!${B}`, kind: 'member-of-any-of-forbidden' },
    { name: '! inside !in:', val: `!in:${A},!${B}`, kind: 'member-of-any-of-forbidden' },
    { name: 'a bad uuid', val: 'in:nope', kind: 'member-of-uuid' },
  ])('reports $name', ({ val, kind }) => {
    expect(issueOf(() => parseMemberOfOrThrow([val]))).toMatchObject({ kind, value: val });
  });

  it('reports forbidden aggregates where they are not allowed', () => {
    expect(issueOf(() => parseMemberOfOrThrow([A, `!${B}`], false))).toEqual({
      kind: 'member-of-forbidden-unsupported',
      value: `!${B}`,
    });
  });
});

describe('in_tree and group suffixes', () => {
  it('accepts a uuid for in_tree and reports anything else', () => {
    expect(parseInTreeOrThrow(` ${A} `)).toBe(A);
    expect(issueOf(() => parseInTreeOrThrow('nope'))).toEqual({
      kind: 'in-tree-uuid',
      value: 'nope',
    });
  });

  it.each([
    { key: 'resources', numbered: { param: 'resources', suffix: '' } },
    { key: 'resources12', numbered: { param: 'resources', suffix: '12' } },
    { key: 'required_NET', numbered: undefined, any: { param: 'required', suffix: '_NET' } },
    { key: 'member_of0', numbered: undefined, any: { param: 'member_of', suffix: '0' } },
    { key: 'limit', numbered: undefined },
  ])('splits $key', ({ key, numbered, any }) => {
    expect(splitGroupKey(key, false)).toEqual(numbered);
    expect(splitGroupKey(key, true)).toEqual(any ?? numbered);
  });

  it('validates suffixes', () => {
    expect(['', '1', '_NET', 'a-b'].every((s) => isGroupSuffix(s))).toBe(true);
    expect(isGroupSuffix('_X', false)).toBe(false);
    expect(isGroupSuffix('x'.repeat(65))).toBe(false);
    expect(isGroupSuffix('bad!')).toBe(false);
  });
});
