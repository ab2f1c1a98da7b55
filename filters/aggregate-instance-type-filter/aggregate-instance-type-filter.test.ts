// Table tests for AggregateInstanceTypeFilter: every use case and the worked example of the design note.

import type { Verdict } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import {
  CODE_AGGREGATE_UNSATISFIED,
  CODE_FLAVOR_UNSATISFIED,
  create,
  NAME,
  REASON_AGGREGATE_UNSATISFIED,
  REASON_FLAVOR_UNSATISFIED,
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
  /** Metadata of each aggregate the host belongs to. */
  readonly aggregates: Meta[];
  readonly want: boolean;
  readonly reason?: string;
}

const F = 'force_metadata_check';

// Worked example: flavor 1 boots in aggregates 2 and 3; flavor 2 everywhere; flavor 3 only in 1; flavor 4 everywhere.
const workedAggregates: Meta[] = [
  { key: '1', [F]: 'False' },
  {},
  { 'other key': '1', [F]: 'False' },
];
const workedFlavors: Meta[] = [{ key: '~' }, { key: '<or> * <or> ~' }, { key: '*' }, {}];
const workedWant = [
  [false, true, true],
  [true, true, true],
  [true, false, false],
  [true, true, true],
];
const worked: Case[] = workedFlavors.flatMap((flavor, f) =>
  workedAggregates.map((agg, a) => ({
    name: `worked example: flavor ${f + 1} in aggregate ${a + 1}`,
    flavor,
    aggregates: [agg],
    want: workedWant[f]![a]!,
    reason: REASON_FLAVOR_UNSATISFIED,
  })),
);

const cases: Case[] = [
  ...worked,
  // Use case 1: * = present with any value.
  {
    name: 'uc1: * passes when the key has any value',
    flavor: { key: '*' },
    aggregates: [{ key: 'whatever' }],
    want: true,
  },
  {
    name: 'uc1: * fails when the key is absent',
    flavor: { key: '*' },
    aggregates: [{}],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  // Use case 2: <or> 1 <or> ~.
  {
    name: 'uc2: aggregate 1 (key=1) passes',
    flavor: { key: '<or> 1 <or> ~' },
    aggregates: [{ key: '1' }],
    want: true,
  },
  {
    name: 'uc2: aggregate 2 (key=2) fails',
    flavor: { key: '<or> 1 <or> ~' },
    aggregates: [{ key: '2' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc2: aggregate 3 (no key) passes',
    flavor: { key: '<or> 1 <or> ~' },
    aggregates: [{}],
    want: true,
  },
  // Use case 3: ! = must be absent.
  {
    name: 'uc3: aggregate with the key fails',
    flavor: { key: '!' },
    aggregates: [{ key: '1' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc3: aggregate without the key passes',
    flavor: { key: '!' },
    aggregates: [{}],
    want: true,
  },
  // Use case 4: force_metadata_check adds aggregate -> flavor.
  {
    name: 'uc4: flavor 1 (key=1) passes',
    flavor: { key: '1' },
    aggregates: [{ key: '1', [F]: 'True' }],
    want: true,
  },
  {
    name: 'uc4: flavor 2 (key=2) fails',
    flavor: { key: '2' },
    aggregates: [{ key: '1', [F]: 'True' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc4: flavor 3 (empty) fails under force',
    flavor: {},
    aggregates: [{ key: '1', [F]: 'True' }],
    want: false,
    reason: REASON_AGGREGATE_UNSATISFIED,
  },
  {
    name: 'uc4: flavor 3 (empty) passes without force',
    flavor: {},
    aggregates: [{ key: '1' }],
    want: true,
  },
  // Use case 5: sentinels in aggregate metadata under force.
  {
    name: 'uc5: aggregate * takes flavor 1',
    flavor: { key: '1' },
    aggregates: [{ key: '*', [F]: 'True' }],
    want: true,
  },
  {
    name: 'uc5: aggregate * takes flavor 2',
    flavor: { key: '2' },
    aggregates: [{ key: '*', [F]: 'True' }],
    want: true,
  },
  {
    name: 'uc5: aggregate * rejects the empty flavor',
    flavor: {},
    aggregates: [{ key: '*', [F]: 'True' }],
    want: false,
    reason: REASON_AGGREGATE_UNSATISFIED,
  },
  {
    name: 'uc5: without force, literal "*" does not match flavor 1',
    flavor: { key: '1' },
    aggregates: [{ key: '*' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc5: without force, the empty flavor passes',
    flavor: {},
    aggregates: [{ key: '*' }],
    want: true,
  },
  {
    name: 'uc5: flavor 4 fails because key2 is not in the aggregate',
    flavor: { key: '', key2: '2' },
    aggregates: [{ key: '' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc5: an empty value matches an empty value',
    flavor: { key: '' },
    aggregates: [{ key: '' }],
    want: true,
  },
  {
    name: 'uc5: aggregate ! rejects flavor 1',
    flavor: { key: '1' },
    aggregates: [{ key: '!', [F]: 'True' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc5: aggregate ! takes only the empty flavor',
    flavor: {},
    aggregates: [{ key: '!', [F]: 'True' }],
    want: true,
  },
  // Use case 6: <or> in aggregate metadata under force; literal otherwise.
  {
    name: 'uc6: force, flavor 1 passes',
    flavor: { key: '1' },
    aggregates: [{ key: '<or> 1 <or> 2', [F]: 'True' }],
    want: true,
  },
  {
    name: 'uc6: force, flavor 2 passes',
    flavor: { key: '2' },
    aggregates: [{ key: '<or> 1 <or> 2', [F]: 'True' }],
    want: true,
  },
  {
    name: 'uc6: force, flavor 3 passes through the common 2',
    flavor: { key: '<or> 2 <or> 3' },
    aggregates: [{ key: '<or> 1 <or> 2', [F]: 'True' }],
    want: true,
  },
  {
    name: 'uc6: force, flavor 4 (empty) fails',
    flavor: {},
    aggregates: [{ key: '<or> 1 <or> 2', [F]: 'True' }],
    want: false,
    reason: REASON_AGGREGATE_UNSATISFIED,
  },
  {
    name: 'uc6: force, no common alternative fails',
    flavor: { key: '<or> 3 <or> 4' },
    aggregates: [{ key: '<or> 1 <or> 2', [F]: 'True' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc6: literal, flavor 1 fails',
    flavor: { key: '1' },
    aggregates: [{ key: '<or> 1 <or> 2' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc6: literal, flavor 3 fails',
    flavor: { key: '<or> 2 <or> 3' },
    aggregates: [{ key: '<or> 1 <or> 2' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc6: literal, flavor 5 (same string) fails',
    flavor: { key: '<or> 1 <or> 2' },
    aggregates: [{ key: '<or> 1 <or> 2' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  // Use case 7: other namespaces are optional unless the aggregates have them.
  {
    name: 'uc7: same namespaced value passes',
    flavor: { 'hw:cpu_policy': 'shared' },
    aggregates: [{ 'hw:cpu_policy': 'shared' }],
    want: true,
  },
  {
    name: 'uc7: different namespaced value fails',
    flavor: { 'hw:cpu_policy': 'shared' },
    aggregates: [{ 'hw:cpu_policy': 'dedicated' }],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'uc7: namespaced key absent from aggregates is skipped',
    flavor: { 'hw:cpu_policy': 'shared' },
    aggregates: [{}],
    want: true,
  },
  {
    name: 'uc7: force checks namespaced aggregate keys too',
    flavor: {},
    aggregates: [{ 'hw:cpu_policy': 'shared', [F]: 'True' }],
    want: false,
    reason: REASON_AGGREGATE_UNSATISFIED,
  },
  {
    name: 'uc7: force, namespaced key in both passes',
    flavor: { 'hw:cpu_policy': 'shared' },
    aggregates: [{ 'hw:cpu_policy': 'shared', [F]: 'True' }],
    want: true,
  },
  // Scope prefix.
  {
    name: 'scoped flavor key is mandatory',
    flavor: { 'aggregate_instance_extra_specs:key': '1' },
    aggregates: [{}],
    want: false,
    reason: REASON_FLAVOR_UNSATISFIED,
  },
  {
    name: 'scoped flavor key is compared without its scope',
    flavor: { 'aggregate_instance_extra_specs:key': '1' },
    aggregates: [{ key: '1', [F]: 'True' }],
    want: true,
  },
  {
    name: 'scoped aggregate key is compared without its scope',
    flavor: { key: '1' },
    aggregates: [{ 'aggregate_instance_extra_specs:key': '1', [F]: 'True' }],
    want: true,
  },
  // Several aggregates per host: union of metadata, force from any of them.
  {
    name: 'values are the union over the host aggregates',
    flavor: { key: '2' },
    aggregates: [{ key: '1' }, { key: '2' }],
    want: true,
  },
  {
    name: 'values are split on commas and trimmed',
    flavor: { key: '2' },
    aggregates: [{ key: '1 , 2' }],
    want: true,
  },
  {
    name: 'force set by one aggregate applies to keys of another',
    flavor: {},
    aggregates: [{ key: '1' }, { [F]: 'True' }],
    want: false,
    reason: REASON_AGGREGATE_UNSATISFIED,
  },
  {
    name: 'force: flavor must satisfy the union',
    flavor: { key: '2' },
    aggregates: [{ key: '1', [F]: 'True' }, { key: '2' }],
    want: true,
  },
  {
    name: 'one aggregate with a false force flag does not cancel another',
    flavor: {},
    aggregates: [{ key: '1', [F]: 'False' }, { [F]: 'yes' }],
    want: false,
    reason: REASON_AGGREGATE_UNSATISFIED,
  },
  { name: 'empty extra specs pass', flavor: {}, aggregates: [{ a: '1' }, { b: '2' }], want: true },
];

describe(NAME, () => {
  it.each(cases)('$name', ({ flavor, aggregates, want, reason }) => {
    const verdict = run(flavor, aggregates);
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.reason.startsWith(`${reason}:`)).toBe(true);
      expect(verdict.code).toBe(
        reason === REASON_AGGREGATE_UNSATISFIED
          ? CODE_AGGREGATE_UNSATISFIED
          : CODE_FLAVOR_UNSATISFIED,
      );
    }
  });

  it.each(['False', 'false', 'FALSE', '0', 'no', 'off'])(
    'treats force_metadata_check=%s as off',
    (value) => {
      expect(run({}, [{ key: '1', [F]: value }]).fits).toBe(true);
    },
  );

  it.each(['True', 'true', '1', 'yes'])('treats force_metadata_check=%s as on', (value) => {
    expect(run({}, [{ key: '1', [F]: value }]).fits).toBe(false);
  });

  it('names the key, the wanted and the found values in a flavor-side reason', () => {
    const verdict = run({ key: '<or> 1 <or> ~' }, [{ key: '2, 3' }]);
    expect(verdict).toEqual({
      fits: false,
      reason: `${REASON_FLAVOR_UNSATISFIED}: key "key" wanted "<or> 1 <or> ~", found "2,3"`,
      code: 'aggregate_instance_type.flavor_unsatisfied',
    });
  });

  it('names the key, the wanted and the found values in an aggregate-side reason', () => {
    const verdict = run({ 'hw:other': 'x' }, [{ key: '<or> 1 <or> 2', [F]: 'True' }]);
    expect(verdict).toEqual({
      fits: false,
      reason: `${REASON_AGGREGATE_UNSATISFIED}: key "key" wanted "<or> 1 <or> 2", found nothing`,
      code: 'aggregate_instance_type.aggregate_unsatisfied',
    });
  });
});
