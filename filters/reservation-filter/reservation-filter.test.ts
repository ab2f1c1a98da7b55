// Table tests for ReservationFilter: the Blazar flow of the negative-aggregate-membership spec.

import type { AggregateView, RequestAmendment } from '../../src/scheduler/plugin-api';
import { buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin } from '../../test/support/plugin';
import { create, NAME, REASON_NO_RESERVATION_AGGREGATE } from './index';

const agg = (uuid: string, metadata: Record<string, string>): AggregateView => ({
  uuid,
  name: uuid,
  metadata,
});

// Blazar's free pool, two reservations (r1 has two aggregates), and an unrelated aggregate.
const aggregates = [
  agg('freepool', { 'reservation:freepool': 'true' }),
  agg('resv-r1', { 'reservation:r1': 'true' }),
  agg('resv-r1-b', { 'reservation:r1': 'true, other' }),
  agg('resv-r2', { 'reservation:r2': 'true' }),
  agg('ssd', { ssd: 'true' }),
];

const blazar = {
  requiredMemberPrefix: 'reservation:',
  defaultForbiddenMemberPrefix: 'reservation:',
};

function amend(
  config: Record<string, unknown>,
  extraSpecs: Record<string, string>,
  aggs = aggregates,
) {
  const plugin = buildPlugin(create, NAME, config);
  return plugin.amendRequest(buildRequestSpec({ extraSpecs }), {
    aggregates: aggs,
  }) as RequestAmendment | null;
}

type Specs = Record<string, string>;

describe(NAME, () => {
  it.each<{
    name: string;
    config: Record<string, unknown>;
    specs: Specs;
    want: RequestAmendment | null;
  }>([
    {
      name: 'a reserved request is restricted to its reservation aggregates and forbids nothing',
      config: blazar,
      specs: { 'reservation:r1': 'true' },
      want: { memberOf: [['resv-r1', 'resv-r1-b']], forbiddenAggregates: [] },
    },
    {
      name: 'an unreserved request forbids every reservation aggregate, free pool included',
      config: blazar,
      specs: { 'hw:cpu_policy': 'shared' },
      want: { memberOf: [], forbiddenAggregates: ['freepool', 'resv-r1', 'resv-r1-b', 'resv-r2'] },
    },
    {
      name: 'values are split on commas when matching the reservation',
      config: blazar,
      specs: { 'reservation:r1': 'other' },
      want: { memberOf: [['resv-r1-b']], forbiddenAggregates: [] },
    },
    {
      name: 'two reservation keys must both hold',
      config: blazar,
      specs: { 'reservation:r1': 'true', 'reservation:r2': 'true' },
      want: { memberOf: [['resv-r1', 'resv-r1-b'], ['resv-r2']], forbiddenAggregates: [] },
    },
    {
      name: 'different prefixes: required and forbidden are independent',
      config: {
        requiredMemberPrefix: 'reservation:',
        defaultForbiddenMemberPrefix: ['ssd', 'windows:'],
      },
      specs: { 'reservation:r2': 'true' },
      want: { memberOf: [['resv-r2']], forbiddenAggregates: ['ssd'] },
    },
    {
      name: 'a request naming the forbidden prefix skips the forbidden list',
      config: { defaultForbiddenMemberPrefix: 'reservation:' },
      specs: { 'reservation:anything': 'x' },
      want: null,
    },
  ])('$name', ({ config, specs, want }) => {
    const amendment = amend(config, specs);
    if (want === null) {
      expect(amendment).toBeNull();
    } else {
      expect(amendment).toMatchObject(want);
      expect(amendment?.unsatisfiable).toBeUndefined();
    }
  });

  it.each<{ name: string; specs: Specs }>([
    { name: 'an unknown reservation', specs: { 'reservation:r9': 'true' } },
    { name: 'a reservation with another value', specs: { 'reservation:r1': 'false' } },
  ])('declares the request unsatisfiable for $name', ({ specs }) => {
    const [[key, value]] = Object.entries(specs) as [[string, string]];
    expect(amend(blazar, specs)).toEqual({
      unsatisfiable: `${REASON_NO_RESERVATION_AGGREGATE}: ${key}=${value}`,
    });
  });

  it('changes nothing without configured prefixes', () => {
    expect(amend({}, { 'reservation:r1': 'true' })).toBeNull();
  });

  it('changes nothing for an unreserved request when no aggregate is reserved', () => {
    expect(amend(blazar, {}, [agg('ssd', { ssd: 'true' })])).toBeNull();
  });

  it('describes the member_of terms in its note', () => {
    expect(amend(blazar, {}, [agg('a', { 'reservation:x': '1' })])?.note).toBe(
      'forbidden member_of !in:a',
    );
  });

  it.each([
    { requiredMemberPrefix: '' },
    { defaultForbiddenMemberPrefix: 3 },
    { requiredMemberPrefix: ['a', ''] },
  ])('rejects invalid configuration %j at start-up', (config) => {
    expect(() => amend(config, {})).toThrow(`${NAME}: config`);
  });
});
