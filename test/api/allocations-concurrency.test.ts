// GraphQL setAllocations across several consumers: atomic as a whole (gabbit
// allocations-bug-1779717.yaml), and safe under concurrency: parallel claims on one small provider
// never exceed its capacity.

import { allocationInput as input } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { realPostgresIt } from '../support/db';
import { buildResourceProvider } from '../support/factories';
import { firstError, type GqlResponse, gql } from '../support/graphql';

const SET = `mutation S($input: [ConsumerAllocationsInput!]!) {
  setAllocations(input: $input) { uuid projectId generation }
}`;
const CONSUMER = 'query C($uuid: ID!) { consumer(uuid: $uuid) { uuid generation } }';

describe('allocations-bug-1779717.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('create allocations for two consumers', async () => {
    const cn1 = await buildResourceProvider(t.app.services, {
      inventories: [
        { resourceClass: 'VCPU', total: 8 },
        { resourceClass: 'MEMORY_MB', total: 4096 },
      ],
    });
    const one = input(cn1.uuid, { VCPU: 2 }, { projectId: 'alt' });
    await gql(t.app, SET, { input: [one] });
    const r = await gql(t.app, SET, {
      input: [
        {
          ...input(cn1.uuid, { MEMORY_MB: 1024, VCPU: 1 }, { consumerUuid: one.consumerUuid }),
          consumerGeneration: 1,
        },
        input(cn1.uuid, { MEMORY_MB: 1024, VCPU: 1 }, { projectId: 'alt' }),
      ],
    });
    expect(r.errors).toBeUndefined();
    expect(
      r.data.setAllocations.map((c: { projectId: string; generation: number }) => [
        c.projectId,
        c.generation,
      ]),
    ).toEqual([
      ['proj', 2],
      ['alt', 1],
    ]);
  });

  it('writes nothing for any consumer when one of them does not fit', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const fits = input(rp.uuid, { VCPU: 2 });
    const tooBig = input(rp.uuid, { VCPU: 3 });
    const r = await gql(t.app, SET, { input: [fits, tooBig] });
    expect(firstError(r)).toMatchObject({ status: 409 });
    for (const c of [fits, tooBig]) {
      expect((await gql(t.app, CONSUMER, { uuid: c.consumerUuid })).data.consumer).toBeNull();
    }
  });
});

describe('setAllocations concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  realPostgresIt(
    'never exceeds capacity with 32 concurrent new consumers; losers get 409',
    async () => {
      const capacity = 5;
      const rp = await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: capacity }],
      });
      // One project each, so the quota's per-project lock does not serialize them: only the
      // provider lock and the capacity check stand between them.
      const inputs = Array.from({ length: 32 }, (_, i) =>
        input(rp.uuid, { VCPU: 1 }, { projectId: `race-${i}` }),
      );
      const results: GqlResponse[] = await Promise.all(
        inputs.map((c) => gql(t.app, SET, { input: [c] })),
      );
      const winners = results.filter((r) => r.errors === undefined);
      const losers = results.filter((r) => r.errors !== undefined);
      expect(winners.length).toBeGreaterThan(0);
      expect(winners.length).toBeLessThanOrEqual(capacity);
      for (const r of losers) {
        const e = firstError(r);
        expect(e?.status).toBe(409);
        expect(
          e?.code === 'placement.concurrent_update' || /exceed the capacity/.test(e?.message ?? ''),
        ).toBe(true);
      }
      const usage = await gql(
        t.app,
        'query U($u: ID!) { resourceProvider(uuid: $u) { inventories { used capacity } allocations { used } } }',
        { u: rp.uuid },
      );
      expect(usage.data.resourceProvider.inventories).toEqual([{ used: winners.length, capacity }]);
      expect(usage.data.resourceProvider.allocations).toHaveLength(winners.length);
    },
  );
});
