// Table tests for AggregateInstanceExtraSpecsFilter (after nova/tests/unit/scheduler/filters/test_aggregate_instance_extra_specs_filters.py).

import type { Verdict } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import {
  CODE_KEY_MISSING,
  CODE_NO_MATCH,
  CODE_NOT_NUMERIC,
  create,
  metadataKey,
  NAME,
  REASON_KEY_MISSING,
  REASON_NO_MATCH,
  REASON_NOT_NUMERIC,
} from './index';

type Meta = Record<string, string>;

function run(extraSpecs: Meta, aggregates: Meta[]): Verdict {
  const plugin = buildPlugin(create, NAME);
  const host = buildHostView({
    providers: [{ uuid: 'host1' }],
    aggregates: aggregates.map((metadata, i) => ({ uuid: `agg${i + 1}`, metadata })),
  });
  return verdictOf(plugin, host, buildRequestSpec({ extraSpecs }));
}

describe(NAME, () => {
  it.each<{ name: string; specs: Meta; aggs: Meta[]; want: boolean; reason?: string }>([
    { name: 'no extra specs', specs: {}, aggs: [], want: true },
    { name: 'equal value', specs: { opt1: '1' }, aggs: [{ opt1: '1' }], want: true },
    {
      name: 'different value',
      specs: { opt1: '1' },
      aggs: [{ opt1: '2' }],
      want: false,
      reason: REASON_NO_MATCH,
    },
    {
      name: 'key missing',
      specs: { opt1: '1' },
      aggs: [{ opt2: '1' }],
      want: false,
      reason: REASON_KEY_MISSING,
    },
    {
      name: 'host in no aggregate',
      specs: { opt1: '1' },
      aggs: [],
      want: false,
      reason: REASON_KEY_MISSING,
    },
    {
      name: 'scoped key',
      specs: { 'aggregate_instance_extra_specs:opt1': '1' },
      aggs: [{ opt1: '1' }],
      want: true,
    },
    {
      name: 'scoped key missing',
      specs: { 'aggregate_instance_extra_specs:opt1': '1' },
      aggs: [{}],
      want: false,
      reason: REASON_KEY_MISSING,
    },
    {
      name: 'other namespace ignored',
      specs: { 'hw:cpu_policy': 'dedicated' },
      aggs: [{ 'hw:cpu_policy': 'shared' }],
      want: true,
    },
    {
      name: 'every key must match',
      specs: { opt1: '1', opt2: '2' },
      aggs: [{ opt1: '1', opt2: '3' }],
      want: false,
      reason: REASON_NO_MATCH,
    },
    {
      name: 'values united across aggregates',
      specs: { opt1: '2' },
      aggs: [{ opt1: '1' }, { opt1: '2' }],
      want: true,
    },
    {
      name: 'values split on commas and trimmed',
      specs: { opt1: '2' },
      aggs: [{ opt1: '1 ,  2' }],
      want: true,
    },
    { name: 'numeric = (at least)', specs: { ram: '= 1024' }, aggs: [{ ram: '2048' }], want: true },
    {
      name: 'numeric >= too small',
      specs: { ram: '>= 4096' },
      aggs: [{ ram: '2048' }],
      want: false,
      reason: REASON_NO_MATCH,
    },
    {
      name: '<or> alternatives',
      specs: { cpu: '<or> a <or> b' },
      aggs: [{ cpu: 'b' }],
      want: true,
    },
    { name: 's== string', specs: { cpu: 's== x86' }, aggs: [{ cpu: 'x86' }], want: true },
    { name: '<in> substring', specs: { cpu: '<in> avx' }, aggs: [{ cpu: 'avx512' }], want: true },
    {
      name: 'aggregate <or> text is literal',
      specs: { k: '1' },
      aggs: [{ k: '<or> 1 <or> 2' }],
      want: false,
      reason: REASON_NO_MATCH,
    },
    {
      name: 'numeric op on non-numeric value',
      specs: { ram: '>= 4' },
      aggs: [{ ram: 'lots' }],
      want: false,
      reason: REASON_NOT_NUMERIC,
    },
    {
      name: 'numeric op: another value matches',
      specs: { ram: '>= 4' },
      aggs: [{ ram: 'lots' }, { ram: '8' }],
      want: true,
    },
  ])('$name -> $want', ({ specs, aggs, want, reason }) => {
    const verdict = run(specs, aggs);
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.reason.startsWith(reason!)).toBe(true);
      const codes: Record<string, string> = {
        [REASON_KEY_MISSING]: CODE_KEY_MISSING,
        [REASON_NO_MATCH]: CODE_NO_MATCH,
        [REASON_NOT_NUMERIC]: CODE_NOT_NUMERIC,
      };
      expect(verdict.code).toBe(codes[reason!]);
    }
  });

  it('names the key, the wanted and the found values', () => {
    expect(run({ opt1: '1' }, [{ opt1: '2,3' }])).toEqual({
      fits: false,
      reason: `${REASON_NO_MATCH}: key "opt1" wanted "1", found "2", "3"`,
      code: 'aggregate_extra_specs.no_match',
    });
  });

  it.each([
    ['opt1', 'opt1'],
    ['aggregate_instance_extra_specs:opt1', 'opt1'],
    ['hw:cpu_policy', null],
    ['aggregate_instance_extra_specs', 'aggregate_instance_extra_specs'],
  ])('reads %j as metadata key %p', (key, want) => {
    expect(metadataKey(key)).toBe(want);
  });
});
