// Valid numbers beyond 32 bits: an inventory of total 2147483647 at allocation ratio 10 (and
// usage sums past 2^31 - 1) is answered by every query that touches it, exactly in the SafeInt
// fields and saturated in the older Int fields, never "Unexpected error.".
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const MAX = 2_147_483_647;

describe('numbers beyond GraphQL Int', () => {
  let t: TestApp;
  let rp: string;

  beforeAll(async () => {
    t = await createTestApp();
    rp = (
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'MEMORY_MB', total: MAX, allocationRatio: 10 }],
      })
    ).uuid;
    // Two consumers of project p use MAX each: 4294967294 in use, past 2^31 - 1.
    for (let i = 0; i < 2; i++) {
      const input = allocationInput(rp, { MEMORY_MB: MAX }, { projectId: 'p' });
      const r = await gql(
        t.app,
        'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
        { i: [input] },
      );
      expect(r.errors).toBeUndefined();
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers inventories with exact and saturated values', async () => {
    const r = await gql(
      t.app,
      `query($u: ID!) { resourceProvider(uuid: $u) {
        inventories { total capacity capacityExact used usedExact }
        usages { used usedExact } } }`,
      { u: rp },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.resourceProvider).toEqual({
      inventories: [
        { total: MAX, capacity: MAX, capacityExact: 21_474_836_470, used: MAX, usedExact: 2 * MAX },
      ],
      usages: [{ used: MAX, usedExact: 2 * MAX }],
    });
  });

  it('answers resourceProviders, allocationCandidates, usages and quota', async () => {
    const r = await gql(
      t.app,
      `{
        resourceProviders(first: 5) { edges { node { inventories { capacity capacityExact } } } }
        allocationCandidates(request: { groups: [{ resources: [{ resourceClass: "MEMORY_MB", amount: 1 }] }] }) {
          providerSummaries { resources { capacity capacityExact used usedExact } } }
        usages(projectId: "p") { total { used usedExact } }
        quota(projectId: "p") { lines { resource used usedExact remaining } }
      }`,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.resourceProviders.edges[0].node.inventories[0].capacityExact).toBe(
      21_474_836_470,
    );
    expect(r.data.allocationCandidates.providerSummaries[0].resources[0]).toEqual({
      capacity: MAX,
      capacityExact: 21_474_836_470,
      used: MAX,
      usedExact: 2 * MAX,
    });
    expect(r.data.usages.total).toEqual([{ used: MAX, usedExact: 2 * MAX }]);
    expect(r.data.quota.lines).toEqual(
      expect.arrayContaining([
        { resource: 'MEMORY_MB', used: MAX, usedExact: 2 * MAX, remaining: null },
      ]),
    );
  });

  it('marks the saturating Int fields deprecated in favour of the exact ones', async () => {
    const r = await gql(
      t.app,
      `{ __type(name: "Inventory") { fields(includeDeprecated: true) { name deprecationReason } } }`,
    );
    const fields = r.data.__type.fields as { name: string; deprecationReason: string | null }[];
    expect(fields.find((f) => f.name === 'capacity')?.deprecationReason).toContain('capacityExact');
    expect(fields.find((f) => f.name === 'capacityExact')?.deprecationReason).toBeNull();
  });
});
