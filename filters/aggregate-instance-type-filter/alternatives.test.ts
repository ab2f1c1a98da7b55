// Table tests for the value grammar of AggregateInstanceTypeFilter (alternatives.ts): Nova operators on
// either side, invalid sentinel combinations, and the parser itself.

import type { Verdict } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { parseAlternatives } from './alternatives';
import {
  create,
  NAME,
  REASON_FLAVOR_UNSATISFIED,
  REASON_INVALID_AGGREGATE_VALUE,
  REASON_INVALID_FLAVOR_SPEC,
} from './index';

type Meta = Record<string, string>;

function run(flavor: Meta, aggregates: Meta[]): Verdict {
  const plugin = buildPlugin(create, NAME);
  const host = buildHostView({
    providers: [{ uuid: 'host1' }],
    aggregates: aggregates.map((metadata, i) => ({ uuid: `agg${i + 1}`, metadata })),
  });
  const req = buildRequestSpec({ extraSpecs: flavor });
  return verdictOf(plugin, host, req);
}

interface Case {
  readonly name: string;
  readonly flavor: Meta;
  readonly aggregates: Meta[];
  readonly want: boolean;
  readonly reason?: string;
}

const F = 'force_metadata_check';

const cases: Case[] = [
  // Nova operators.
  {
    name: 'flavor operator matches a numeric aggregate value',
    flavor: { key: '>= 4' },
    aggregates: [{ key: '8' }],
    want: true,
  },
  {
    name: 'flavor operator rejects a smaller value',
    flavor: { key: '>= 4' },
    aggregates: [{ key: '2' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'operator alternative inside <or>',
    flavor: { key: '<or> >= 8 <or> ~' },
    aggregates: [{ key: '16' }],
    want: true,
  },
  {
    name: 'force: aggregate operator constrains the flavor value',
    flavor: { key: '8' },
    aggregates: [{ key: '>= 4', [F]: 'True' }],
    want: true,
  },
  {
    name: 'force: aggregate operator rejects a smaller flavor value',
    flavor: { key: '2' },
    aggregates: [{ key: '>= 4', [F]: 'True' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'force: aggregate <in> operator',
    flavor: { key: 'avx512' },
    aggregates: [{ key: '<in> avx', [F]: 'True' }],
    want: true,
  },
  // Invalid specs.
  {
    name: 'flavor ! with * is invalid',
    flavor: { key: '<or> ! <or> *' },
    aggregates: [{}],
    want: false,
    reason: REASON_INVALID_FLAVOR_SPEC,
  },
  {
    name: 'flavor ! with ~ is invalid',
    flavor: { key: '<or> ! <or> ~' },
    aggregates: [{ key: '1' }],
    want: false,
    reason: REASON_INVALID_FLAVOR_SPEC,
  },
  {
    name: 'flavor <or> without alternatives is invalid',
    flavor: { key: '<or>' },
    aggregates: [{ key: '1' }],
    want: false,
    reason: REASON_INVALID_FLAVOR_SPEC,
  },
  {
    name: 'flavor ! with a value means absent or that value',
    flavor: { key: '<or> ! <or> 1' },
    aggregates: [{ key: '1' }],
    want: true,
  },
  {
    name: 'force: aggregate ! with ~ is invalid',
    flavor: { key: '1' },
    aggregates: [{ key: '<or> ! <or> ~', [F]: 'True' }],
    want: false,
    reason: REASON_INVALID_AGGREGATE_VALUE,
  },
  {
    name: 'force: invalid value under a key only the aggregate has',
    flavor: {},
    aggregates: [{ other: '<or> ! <or> *', [F]: 'True' }],
    want: false,
    reason: REASON_INVALID_AGGREGATE_VALUE,
  },
  {
    name: 'without force an aggregate value is a literal, never invalid',
    flavor: { key: '*' },
    aggregates: [{ key: '<or> ! <or> *' }],
    want: true,
  },
  {
    name: 'numeric operator on a non-numeric value fails with a reason',
    flavor: { key: '>= 4' },
    aggregates: [{ key: 'fast' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
];

describe(`${NAME} value grammar`, () => {
  it.each(cases)('$name', ({ flavor, aggregates, want, reason }) => {
    const verdict = run(flavor, aggregates);
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.reason.startsWith(`${reason}:`)).toBe(true);
    }
  });

  it('mentions the numeric problem in the reason', () => {
    const verdict = run({ key: '>= 4' }, [{ key: 'fast' }]);
    expect(!verdict.fits && verdict.reason).toContain('needs numbers, got "fast"');
  });
});

describe('parseAlternatives', () => {
  it.each([
    { raw: '1', want: { values: ['1'], any: false, optional: false, forbidden: false } },
    { raw: ' * ', want: { values: [], any: true, optional: false, forbidden: false } },
    { raw: '<or> 1 <or> ~', want: { values: ['1'], any: false, optional: true, forbidden: false } },
    {
      raw: '<or> >= 4 <or>  s== x ',
      want: { values: ['>= 4', 's== x'], any: false, optional: false, forbidden: false },
    },
    { raw: '<or> * <or> ~', want: { values: [], any: true, optional: true, forbidden: false } },
    { raw: '<or> ! <or> 1', want: { values: ['1'], any: false, optional: false, forbidden: true } },
    {
      raw: '1 <or> 2',
      want: { values: ['1 <or> 2'], any: false, optional: false, forbidden: false },
    },
  ])('parses $raw', ({ raw, want }) => {
    expect(parseAlternatives(raw)).toEqual({ ...want, text: raw });
  });

  it.each(['<or> ! <or> *', '<or> ~ <or> !', '<or>', '<or> <or>'])('rejects %j', (raw) => {
    expect(typeof parseAlternatives(raw)).toBe('string');
  });
});
