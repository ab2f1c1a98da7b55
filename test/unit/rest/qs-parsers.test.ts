// Query-string mini-languages with Placement's messages (upstream: placement/util.py tests).
import { parseVersionOrThrow } from '../../../src/rest/microversion';
import {
  memberOfParamsOrThrow,
  parseInTreeOrThrow,
  parseResourcesOrThrow,
  parseTraitsOrThrow,
  traitParamsOrThrow,
} from '../../../src/rest/qs-parsers';
import { QueryParams } from '../../../src/rest/query-params';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const v = (s: string) => parseVersionOrThrow(s);

describe('parseResourcesOrThrow', () => {
  it('parses class:amount pairs, later duplicates winning', () => {
    expect(parseResourcesOrThrow('VCPU:2,MEMORY_MB:1024,VCPU:3')).toEqual({
      VCPU: 3,
      MEMORY_MB: 1024,
    });
  });

  it.each([
    { qs: '', msg: 'Got: empty string.' },
    { qs: 'VCPU', msg: 'Badly formed resources parameter' },
    { qs: 'VCPU:x', msg: 'Requested resource VCPU expected positive integer amount. Got: x.' },
    { qs: 'VCPU:0', msg: 'Requested resource VCPU requires amount >= 1. Got: 0.' },
  ])('rejects $qs with "$msg"', ({ qs, msg }) => {
    expect(() => parseResourcesOrThrow(qs)).toThrow(msg);
  });
});

describe('parseTraitsOrThrow', () => {
  it('splits required and forbidden traits', () => {
    expect(parseTraitsOrThrow('A,!B, C', true, false)).toEqual({
      required: [['A'], ['C']],
      forbidden: ['B'],
    });
  });

  it('reads in: as one any-of set from 1.39', () => {
    expect(parseTraitsOrThrow('in:A,B', true, true)).toEqual({
      required: [['A', 'B']],
      forbidden: [],
    });
  });

  it.each([
    {
      name: 'in: before 1.39',
      val: 'in:A,B',
      forbid: true,
      anyOf: false,
      msg: 'only supported since microversion 1.39',
    },
    {
      name: '! inside in:',
      val: 'in:A,!B',
      forbid: true,
      anyOf: true,
      msg: 'does not support forbidden traits',
    },
    {
      name: 'empty name',
      val: 'A,,B',
      forbid: true,
      anyOf: false,
      msg: 'HW_CPU_X86_VMX,!CUSTOM_MAGIC. Got an empty trait',
    },
    {
      name: '! before 1.22',
      val: '!A',
      forbid: false,
      anyOf: false,
      msg: 'HW_CPU_X86_VMX,CUSTOM_MAGIC. Got: !A',
    },
  ])('rejects $name', ({ val, forbid, anyOf, msg }) => {
    expect(() => parseTraitsOrThrow(val, forbid, anyOf)).toThrow(msg);
  });
});

describe('traitParamsOrThrow', () => {
  const q = new QueryParams('required=A&required=in:B,C');

  it('ANDs repeated values from 1.39', () => {
    expect(traitParamsOrThrow(q, v('1.39'))).toEqual({
      required: [['A'], ['B', 'C']],
      forbidden: [],
    });
  });

  it('uses only the last value before 1.39', () => {
    expect(() => traitParamsOrThrow(q, v('1.38'))).toThrow(
      'only supported since microversion 1.39',
    );
    expect(traitParamsOrThrow(new QueryParams('required=A&required=B'), v('1.38'))).toEqual({
      required: [['B']],
      forbidden: [],
    });
  });
});

describe('member_of values', () => {
  const one = (val: string) =>
    memberOfParamsOrThrow(new QueryParams(`member_of=${encodeURIComponent(val)}`), v('1.39'));

  it.each([
    { val: A, want: { required: [[A]], forbidden: [] } },
    { val: `in:${A},${B}`, want: { required: [[A, B]], forbidden: [] } },
    { val: `!${A}`, want: { required: [], forbidden: [A] } },
    { val: `!in:${A},${B}`, want: { required: [], forbidden: [A, B] } },
  ])('parses $val', ({ val, want }) => {
    expect(one(val)).toEqual(want);
  });

  it('rejects ! inside in: as an invalid uuid, naming it', () => {
    expect(() => one(`in:${A},!${B}`)).toThrow(
      `Expected 'member_of' parameter to contain valid UUID(s). Got: !${B}`,
    );
  });

  it('rejects several uuids without in:', () => {
    expect(() => one(`${A},${B}`)).toThrow(
      "Multiple values for 'member_of' must be prefixed with the 'in:' or '!in:' keyword",
    );
  });
});

describe('memberOfParamsOrThrow', () => {
  it('rejects repeated member_of before 1.24 and forbidden ones before 1.32', () => {
    expect(() =>
      memberOfParamsOrThrow(new QueryParams(`member_of=${A}&member_of=${B}`), v('1.23')),
    ).toThrow('Multiple member_of parameters are not supported');
    expect(() => memberOfParamsOrThrow(new QueryParams(`member_of=!${A}`), v('1.31'))).toThrow(
      'Forbidden member_of parameters are not supported in the specified microversion',
    );
  });

  it('ANDs repeated terms and collects forbidden aggregates', () => {
    const q = new QueryParams(`member_of=${A}&member_of=in:${A},${B}&member_of=!${B}`);
    expect(memberOfParamsOrThrow(q, v('1.32'))).toEqual({
      required: [[A], [A, B]],
      forbidden: [B],
    });
  });
});

describe('parseInTreeOrThrow', () => {
  it('accepts a uuid and rejects anything else', () => {
    expect(parseInTreeOrThrow(` ${A}`)).toBe(A);
    expect(() => parseInTreeOrThrow('nope')).toThrow(
      "Expected 'in_tree' parameter to be a format of uuid",
    );
  });
});
