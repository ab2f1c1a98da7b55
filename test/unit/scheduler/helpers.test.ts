// Unit tests for src/scheduler/helpers.ts (cases for matchExtraSpec follow nova/tests/unit/scheduler/filters/test_extra_specs_ops.py).
import fc from 'fast-check';
import {
  aggregateMetadataUnion,
  aggregateValuesFromKey,
  freeCapacity,
  freeCapacityWithOverride,
  isOperatorExpression,
  matchExtraSpec,
  minNumericValue,
  normalise,
  parseNovaFloat,
  parsePythonFloat,
  parsePythonInt,
  requestedAmount,
  resolveMultiplier,
  validateNumValues,
} from '../../../src/scheduler/helpers';
import type { AggregateView } from '../../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../../src/scheduler/plugin-testing';

describe('matchExtraSpec (extra_specs_ops.match)', () => {
  it.each([
    { name: 'literal equal', value: '1', req: '1', want: true },
    { name: 'literal different', value: '1', req: '2', want: false },
    { name: 'unknown first word is a literal', value: 'foo bar', req: 'foo bar', want: true },
    { name: 'empty requirement equals empty value', value: '', req: '', want: true },
    { name: '= is numeric >= (equal)', value: '123', req: '= 123', want: true },
    { name: '= is numeric >= (greater)', value: '124', req: '= 123', want: true },
    { name: '= is numeric >= (smaller)', value: '122', req: '= 123', want: false },
    { name: '== compares numbers', value: '12', req: '== 12.0', want: true },
    { name: '== rejects other numbers', value: '13', req: '== 12', want: false },
    { name: '!= numeric', value: '13', req: '!= 12', want: true },
    { name: '!= numeric equal', value: '12.0', req: '!= 12', want: false },
    { name: '>= numeric', value: '2', req: '>= 10', want: false },
    { name: '<= numeric (not string order)', value: '2', req: '<= 10', want: true },
    { name: 's== string equal', value: '123', req: 's== 123', want: true },
    { name: 's== is not numeric', value: '123.0', req: 's== 123', want: false },
    { name: 's!= string', value: '124', req: 's!= 123', want: true },
    { name: 's< string order', value: '34', req: 's< 234', want: false },
    { name: 's< true', value: '123', req: 's< 234', want: true },
    { name: 's<= equal', value: '234', req: 's<= 234', want: true },
    { name: 's> string order', value: '34', req: 's> 234', want: true },
    { name: 's>= smaller', value: '1', req: 's>= 2', want: false },
    { name: '<in> substring', value: '12311321', req: '<in> 11', want: true },
    { name: '<in> missing', value: '12310321', req: '<in> 11', want: false },
    { name: '<all-in> all present', value: 'aes mmx sse', req: '<all-in> aes mmx', want: true },
    { name: '<all-in> one missing', value: 'aes', req: '<all-in> aes mmx', want: false },
    { name: '<or> first alternative', value: '11', req: '<or> 11 <or> 12', want: true },
    { name: '<or> second alternative', value: '12', req: '<or> 11 <or> 12', want: true },
    { name: '<or> no alternative', value: '13', req: '<or> 11 <or> 12', want: false },
    { name: '<or> keyword is not a value', value: '<or>', req: '<or> 11 <or> 12', want: false },
    { name: '<or> alone does not throw', value: 'x', req: '<or>', want: false },
    { name: 'operator without operand', value: '1', req: '>=', want: false },
  ])('$name', ({ value, req, want }) => {
    expect(matchExtraSpec(value, req)).toEqual({ matched: want });
  });

  it.each([
    { name: 'non-numeric value', value: 'abc', req: '>= 2', bad: 'abc' },
    { name: 'non-numeric operand', value: '3', req: '== two', bad: 'two' },
    { name: 'empty value is not zero', value: '', req: '= 0', bad: '' },
  ])('fails with an error, never throws, for a $name', ({ value, req, bad }) => {
    const result = matchExtraSpec(value, req);
    expect(result.matched).toBe(false);
    expect(result.error).toContain(`"${bad}"`);
  });
});

describe('parseNovaFloat', () => {
  it.each([
    ['1', 1],
    [' 2.5 ', 2.5],
    ['-3e2', -300],
    ['.5', 0.5],
    ['inf', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['', null],
    ['1.2.3', null],
    ['0x10', null],
  ])('parses %j as %p', (raw, want) => {
    expect(parseNovaFloat(raw)).toBe(want);
  });

  it('parses nan as NaN', () => {
    expect(parseNovaFloat('NaN')).toBeNaN();
  });
});

describe('isOperatorExpression', () => {
  it.each([
    ['>= 4', true],
    ['s== a', true],
    ['<all-in> a b', true],
    ['<or> 1 <or> 2', false],
    ['4', false],
  ])('%j -> %p', (req, want) => {
    expect(isOperatorExpression(req)).toBe(want);
  });
});

describe('aggregateMetadataUnion', () => {
  it('merges values across aggregates, split on commas and trimmed, without duplicates', () => {
    const union = aggregateMetadataUnion([
      { uuid: 'a1', name: null, metadata: { ssd: 'true', zone: ' a , b' } },
      { uuid: 'a2', name: null, metadata: { zone: 'b,c' } },
    ]);
    expect(Object.fromEntries(union)).toEqual({ ssd: ['true'], zone: ['a', 'b', 'c'] });
  });

  it('renames keys through mapKey before merging', () => {
    const union = aggregateMetadataUnion(
      [{ uuid: 'a1', name: null, metadata: { 'x:k': '1', k: '2' } }],
      (key) => key.replace(/^x:/, ''),
    );
    expect(union.get('k')).toEqual(['1', '2']);
  });
});

describe('minNumericValue (validate_num_values)', () => {
  it.each([
    { name: 'lowest of several', values: ['2', '1.5', '3'], want: 1.5 },
    { name: 'fallback when none', values: [], want: 7 },
    { name: 'fallback when one is not a number', values: ['x', '1'], want: 7 },
    { name: 'fallback when one is infinite', values: ['inf', '1'], want: 7 },
  ])('returns the $name', ({ values, want }) => {
    expect(minNumericValue(values, 7)).toBe(want);
  });
});

// Expected values are Python's: int(raw) / float(raw), None where it raises ValueError.
describe('parsePythonInt / parsePythonFloat', () => {
  it.each<[string, number | null, number | null]>([
    ['3', 3, 3],
    [' 3 ', 3, 3],
    ['+4', 4, 4],
    ['-2', -2, -2],
    ['007', 7, 7],
    ['1_000', 1000, 1000],
    ['1__0', null, null],
    ['_1', null, null],
    ['1_', null, null],
    ['3.5', null, 3.5],
    ['3.0', null, 3],
    ['1e1', null, 10],
    ['1_0.5', null, 10.5],
    ['1e1_0', null, 1e10],
    ['1._5', null, null],
    ['3,5', null, null],
    ['', null, null],
    ['0x10', null, null],
    ['XXX', null, null],
  ])('%j -> int %p, float %p', (raw, int, float) => {
    expect(parsePythonInt(raw)).toBe(int);
    expect(parsePythonFloat(raw)).toBe(float);
  });
});

describe('aggregateValuesFromKey', () => {
  it('returns the whole distinct values of one key, not split on commas', () => {
    const aggregates: AggregateView[] = [
      { uuid: 'a1', name: null, metadata: { k: '3,5', other: '1' } },
      { uuid: 'a2', name: null, metadata: { k: ' 2' } },
      { uuid: 'a3', name: null, metadata: { k: '3,5' } },
      { uuid: 'a4', name: null, metadata: {} },
    ];
    expect(aggregateValuesFromKey(aggregates, 'k')).toEqual(['3,5', ' 2']);
    expect(aggregateValuesFromKey(aggregates, 'none')).toEqual([]);
  });
});

describe('validateNumValues (nova/scheduler/filters/utils.py)', () => {
  it.each<{ name: string; values: string[]; cast: 'int' | 'float'; want: number }>([
    { name: 'no values: the default', values: [], cast: 'int', want: 50 },
    { name: 'the lowest integer', values: ['6', '5'], cast: 'int', want: 5 },
    { name: 'a float is not an int: the default', values: ['3.5'], cast: 'int', want: 50 },
    { name: 'one bad value of two: the default', values: ['0', '1.5'], cast: 'int', want: 50 },
    { name: 'a comma list: the default', values: ['3,5'], cast: 'int', want: 50 },
    { name: 'a negative integer counts', values: ['-1', '4'], cast: 'int', want: -1 },
    { name: 'the lowest float', values: ['2', '1.5'], cast: 'float', want: 1.5 },
    { name: 'an infinite float: the default (berth)', values: ['inf'], cast: 'float', want: 50 },
  ])('$name', ({ values, cast, want }) => {
    expect(validateNumValues(values, 50, cast)).toBe(want);
  });
});

describe('normalise', () => {
  it('maps the minimum to 0 and the maximum to 1', () => {
    expect(normalise([10, 20, 15])).toEqual([0, 1, 0.5]);
  });

  it('returns all zeros when every weight is equal', () => {
    expect(normalise([4, 4, 4])).toEqual([0, 0, 0]);
  });

  it('uses minval and maxval when given', () => {
    expect(normalise([5, 10], 0, 20)).toEqual([0.25, 0.5]);
  });

  it('keeps every weight within [0, 1] and preserves order (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1 }),
        (weights) => {
          const out = normalise(weights);
          out.forEach((v, i) => {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
            out.forEach((w, j) => {
              if (weights[i]! < weights[j]!) {
                expect(v).toBeLessThanOrEqual(w);
              }
            });
          });
        },
      ),
    );
  });
});

const host = buildHostView({
  providers: [
    {
      uuid: 'cn1',
      inventories: { MEMORY_MB: { total: 1000, reserved: 200, allocationRatio: 1.5, used: 300 } },
    },
    { uuid: 'numa0', parentUuid: 'cn1', inventories: { MEMORY_MB: 500 }, used: { MEMORY_MB: 100 } },
  ],
  aggregates: [
    { uuid: 'a1', metadata: { ram_weight_multiplier: '2', ram_allocation_ratio: '1.0' } },
    { uuid: 'a2', metadata: { ram_weight_multiplier: '-1.5' } },
  ],
});

describe('resolveMultiplier', () => {
  it('takes the lowest aggregate value', () => {
    expect(resolveMultiplier(host, 'ram_weight_multiplier', 1)).toBe(-1.5);
  });

  it('falls back to the configured multiplier without metadata', () => {
    expect(resolveMultiplier(host, 'cpu_weight_multiplier', 3)).toBe(3);
    expect(resolveMultiplier(host, undefined, 3)).toBe(3);
  });
});

describe('freeCapacity', () => {
  it('sums (total - reserved) * ratio - used over the tree', () => {
    // root: 800 * 1.5 - 300 = 900; child: 500 * 1 - 100 = 400
    expect(freeCapacity(host, 'MEMORY_MB')).toBe(1300);
  });

  it('applies an aggregate ratio override to every inventory', () => {
    // root: 800 * 1.0 - 300 = 500; child: 500 * 1.0 - 100 = 400
    expect(freeCapacityWithOverride(host, 'MEMORY_MB', 'ram_allocation_ratio')).toEqual({
      free: 900,
      ratio: 1,
    });
    expect(freeCapacityWithOverride(host, 'MEMORY_MB', 'other_ratio')).toEqual({ free: 1300 });
  });

  it('reads the ratio override as Nova <= 18 did: a comma list is no override', () => {
    const listed = buildHostView({
      providers: [
        { uuid: 'cn1', inventories: { MEMORY_MB: { total: 1000, allocationRatio: 1.5 } } },
      ],
      aggregates: [{ uuid: 'a1', metadata: { ram_allocation_ratio: '1.0,2.0' } }],
    });
    expect(freeCapacityWithOverride(listed, 'MEMORY_MB', 'ram_allocation_ratio')).toEqual({
      free: 1500,
    });
  });

  it('is 0 for a resource class the tree does not have', () => {
    expect(freeCapacity(host, 'VCPU')).toBe(0);
  });
});

describe('buildHostView', () => {
  it('fills Placement inventory defaults and computes capacity', () => {
    const inv = host.providers[1]!.inventories['MEMORY_MB']!;
    expect(inv).toEqual({
      resourceClass: 'MEMORY_MB',
      total: 500,
      reserved: 0,
      minUnit: 1,
      maxUnit: 500,
      stepSize: 1,
      allocationRatio: 1,
      used: 100,
      capacity: 500,
    });
    expect(host.root.aggregateUuids).toEqual(['a1', 'a2']);
    expect(host.providers[1]!.aggregateUuids).toEqual([]);
  });

  it('throws when the first provider is not a root', () => {
    expect(() => buildHostView({ providers: [{ uuid: 'c', parentUuid: 'r' }] })).toThrow(/root/);
  });
});

describe('requestedAmount', () => {
  it('sums a resource class over every group', () => {
    const spec = buildRequestSpec({
      groups: [
        {
          suffix: '',
          resources: { MEMORY_MB: 512 },
          requiredTraits: [],
          forbiddenTraits: [],
          memberOf: [],
          forbiddenAggregates: [],
        },
        {
          suffix: '1',
          resources: { MEMORY_MB: 256, VCPU: 1 },
          requiredTraits: [],
          forbiddenTraits: [],
          memberOf: [],
          forbiddenAggregates: [],
        },
      ],
    });
    expect(requestedAmount(spec, 'MEMORY_MB')).toBe(768);
    expect(requestedAmount(spec, 'DISK_GB')).toBe(0);
  });
});
