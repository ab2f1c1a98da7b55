// Table tests for AggregateTypeAffinityFilter (after nova/tests/unit/scheduler/filters/
// test_type_filters.py): the flavor name (extra spec flavor:name) against aggregate metadata
// instance_type, comma-separated lists united across aggregates.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import {
  CODE_FLAVOR_NOT_ALLOWED,
  CODE_NO_FLAVOR_NAME,
  create,
  FLAVOR_NAME_SPEC,
  NAME,
  REASON_FLAVOR_NOT_ALLOWED,
  REASON_NO_FLAVOR_NAME,
} from './index';

type Meta = Record<string, string>;

function fits(flavor: string | undefined, aggregates: Meta[]) {
  const host = buildHostView({
    providers: [{ uuid: 'h1', name: 'fake_host' }],
    aggregates: aggregates.map((metadata, i) => ({ uuid: `agg${i}`, metadata })),
  });
  const extraSpecs: Meta = flavor === undefined ? {} : { [FLAVOR_NAME_SPEC]: flavor };
  return verdictOf(buildPlugin(create, NAME), host, buildRequestSpec({ extraSpecs }));
}

describe(NAME, () => {
  it.each<{ name: string; flavor?: string; aggs: Meta[]; want: boolean }>([
    {
      name: 'no instance_type in any aggregate',
      flavor: 'fake1',
      aggs: [{ ssd: 'true' }],
      want: true,
    },
    { name: 'host in no aggregate', flavor: 'fake1', aggs: [], want: true },
    {
      name: 'single value, allowed',
      flavor: 'fake1',
      aggs: [{ instance_type: 'fake1' }],
      want: true,
    },
    {
      name: 'single value, other flavor',
      flavor: 'fake2',
      aggs: [{ instance_type: 'fake1' }],
      want: false,
    },
    {
      name: 'one value per aggregate: first',
      flavor: 'fake1',
      aggs: [{ instance_type: 'fake1' }, { instance_type: 'fake2' }],
      want: true,
    },
    {
      name: 'one value per aggregate: second',
      flavor: 'fake2',
      aggs: [{ instance_type: 'fake1' }, { instance_type: 'fake2' }],
      want: true,
    },
    {
      name: 'one value per aggregate: neither',
      flavor: 'fake3',
      aggs: [{ instance_type: 'fake1' }, { instance_type: 'fake2' }],
      want: false,
    },
    {
      name: 'comma list: first',
      flavor: 'fake1',
      aggs: [{ instance_type: 'fake1,fake2' }],
      want: true,
    },
    {
      name: 'comma list, blanks',
      flavor: 'fake2',
      aggs: [{ instance_type: 'fake1 , fake2' }],
      want: true,
    },
    {
      name: 'comma list: absent',
      flavor: 'fake3',
      aggs: [{ instance_type: 'fake1,fake2' }],
      want: false,
    },
    {
      name: 'an empty value allows no flavor',
      flavor: 'fake1',
      aggs: [{ instance_type: '' }],
      want: false,
    },
    {
      name: 'names are compared exactly',
      flavor: 'Fake1',
      aggs: [{ instance_type: 'fake1' }],
      want: false,
    },
  ])('$name -> $want', ({ flavor, aggs, want }) => {
    const verdict = fits(flavor, aggs);
    expect(verdict.fits).toBe(want);
    if (!verdict.fits) {
      expect(verdict.code).toBe(
        flavor === undefined ? CODE_NO_FLAVOR_NAME : CODE_FLAVOR_NOT_ALLOWED,
      );
    }
  });

  it('names the flavor and the allowed ones', () => {
    expect(fits('fake3', [{ instance_type: 'fake1,fake2' }])).toEqual({
      fits: false,
      reason: `${REASON_FLAVOR_NOT_ALLOWED}: "fake3" wanted, the host takes "fake1", "fake2"`,
      code: 'aggregate_type_affinity.flavor_not_allowed',
    });
  });

  it('rejects a request without flavor:name only where flavors are restricted', () => {
    expect(fits(undefined, [])).toEqual({ fits: true });
    const verdict = fits(undefined, [{ instance_type: 'fake1' }]);
    expect(verdict.fits).toBe(false);
    expect(!verdict.fits && verdict.reason.startsWith(REASON_NO_FLAVOR_NAME)).toBe(true);
    expect(!verdict.fits && verdict.code).toBe('aggregate_type_affinity.no_flavor_name');
  });
});
