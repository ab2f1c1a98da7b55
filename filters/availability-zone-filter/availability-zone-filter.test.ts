// Table tests for AvailabilityZoneFilter (after nova/tests/unit/scheduler/filters/
// test_availability_zone_filters.py and test_request_filter.py map_az_to_placement_aggregate).

import type { AggregateView } from '../../src/scheduler/plugin-api';
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { create, NAME, REASON_NO_ZONE, REASON_OTHER_ZONE } from './index';

const plugin = buildPlugin(create, NAME);

const hostIn = (...zones: string[]) =>
  buildHostView({
    providers: [{ uuid: 'cn1', name: 'compute-1' }],
    aggregates: zones.map((z, i) => ({ uuid: `agg${i}`, metadata: { availability_zone: z } })),
  });

describe(NAME, () => {
  it.each([
    { name: 'passes a host in the zone', zones: ['nova'], az: 'nova', want: null },
    {
      name: 'passes a host in one of comma-separated zones',
      zones: ['nova2,nova'],
      az: 'nova',
      want: null,
    },
    {
      name: 'passes a host in two zone aggregates, one of them right',
      zones: ['az1', 'az2'],
      az: 'az2',
      want: null,
    },
    { name: 'fails a host in another zone', zones: ['nova2'], az: 'nova', want: 'nova2' },
    { name: 'passes a host in no zone for the default zone', zones: [], az: 'nova', want: null },
    { name: 'fails a host in no zone for another zone', zones: [], az: 'az1', want: 'nova' },
    {
      name: 'passes every host without a zone asked for',
      zones: ['nova2'],
      az: undefined,
      want: null,
    },
  ])('$name', ({ zones, az, want }) => {
    const req = buildRequestSpec(az === undefined ? {} : { availabilityZone: az });
    expect(verdictOf(plugin, hostIn(...zones), req)).toEqual(
      want === null
        ? { fits: true }
        : {
            fits: false,
            reason: `${REASON_OTHER_ZONE}: in ${want}, not ${az}`,
            code: 'availability_zone.mismatch',
          },
    );
  });

  it('uses the configured default zone for hosts in no zone', () => {
    const custom = buildPlugin(create, NAME, { defaultAvailabilityZone: 'az0' });
    expect(verdictOf(custom, hostIn(), buildRequestSpec({ availabilityZone: 'az0' }))).toEqual({
      fits: true,
    });
    expect(() => buildPlugin(create, NAME, { defaultAvailabilityZone: '' })).toThrow(
      /defaultAvailabilityZone/,
    );
  });

  const aggregates: AggregateView[] = [
    { uuid: 'a1', name: 'a1', metadata: { availability_zone: 'az1' } },
    { uuid: 'a2', name: 'a2', metadata: { availability_zone: 'az1,az2' } },
    { uuid: 'a3', name: 'a3', metadata: { availability_zone: 'nova' } },
    { uuid: 'a4', name: 'a4', metadata: { ssd: 'true' } },
  ];

  it.each([
    ['a zone: member of its aggregates', 'az2', { memberOf: [['a2']] }],
    ['a zone in two aggregates: member of either', 'az1', { memberOf: [['a1', 'a2']] }],
    ['the default zone: in no other zone', 'nova', { forbiddenAggregates: ['a1', 'a2'] }],
    ['an unknown zone: unsatisfiable', 'az9', { unsatisfiable: `${REASON_NO_ZONE} az9` }],
  ])('pushes %s into the candidate query', (_name, az, want) => {
    const amendment = plugin.amendRequest!(buildRequestSpec({ availabilityZone: az }), {
      aggregates,
    });
    expect(amendment).toMatchObject(want);
  });

  it('leaves the candidate query alone without a zone asked for', () => {
    expect(plugin.amendRequest!(buildRequestSpec(), { aggregates })).toBeNull();
  });

  const exact = buildPlugin(create, NAME, { zoneAggregatesByExactValue: true });
  it.each([
    ['a zone: the aggregates naming exactly it', 'az1', { memberOf: [['a1']] }],
    ['a zone only in a comma list: nothing (the host filter decides)', 'az2', null],
    ['the default zone named by an aggregate: that aggregate', 'nova', { memberOf: [['a3']] }],
    ['an unknown zone: nothing', 'az9', null],
  ])('zoneAggregatesByExactValue (Nova): %s', (_name, az, want) => {
    const amendment = exact.amendRequest!(buildRequestSpec({ availabilityZone: az }), {
      aggregates,
    });
    if (want === null) {
      expect(amendment).toBeNull();
    } else {
      expect(amendment).toMatchObject(want);
    }
  });
});
