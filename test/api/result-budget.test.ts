// GraphQL fan-out: nested lists whose sizes the static cost estimate cannot know are bounded by a
// per-response item budget (BERTH_GRAPHQL_MAX_RESULT_ITEMS), answered with one clear error.
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

describe('GraphQL result budget', () => {
  let t: TestApp;
  let rp: string;

  beforeAll(async () => {
    t = await createTestApp();
    rp = (
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 1000 }],
      })
    ).uuid;
    const input = Array.from({ length: 35 }, () => allocationInput(rp, { VCPU: 1 }));
    const r = await gql(
      t.app,
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      { i: input },
    );
    expect(r.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses the attack run’s four-level fan-out (35^4 = 1.5 M allocations) with one error', async () => {
    const r = await gql(
      t.app,
      `query($u: ID!) { resourceProvider(uuid: $u) { allocations { provider { allocations {
        provider { allocations { provider { allocations { used consumer { uuid } } } } } } } } } }`,
      { u: rp },
    );
    expect(r.data ?? null).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors?.[0]?.extensions?.code).toBe('berth.result_too_large');
    expect(r.errors?.[0]?.message).toContain('BERTH_GRAPHQL_MAX_RESULT_ITEMS');
  }, 60_000);

  it('answers the same shape two levels deep (35 + 35^2 items)', async () => {
    const r = await gql(
      t.app,
      `query($u: ID!) { resourceProvider(uuid: $u) { allocations { provider { allocations { used } } } } }`,
      { u: rp },
    );
    expect(r.errors).toBeUndefined();
    const outer = r.data.resourceProvider.allocations as { provider: { allocations: unknown[] } }[];
    expect(outer).toHaveLength(35);
    expect(outer.every((a) => a.provider.allocations.length === 35)).toBe(true);
  });

  it('counts against a configured budget and leaves mutations alone', async () => {
    const small = await createTestApp({ BERTH_GRAPHQL_MAX_RESULT_ITEMS: '100' });
    try {
      const host = await buildResourceProvider(small.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 1000 }],
      });
      const input = Array.from({ length: 60 }, () => allocationInput(host.uuid, { VCPU: 1 }));
      const write = await gql(
        small.app,
        `mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid allocations { used } } }`,
        { i: input },
      );
      expect(write.errors).toBeUndefined();
      const q = `query($u: ID!) { resourceProvider(uuid: $u) { allocations { used } } }`;
      expect((await gql(small.app, q, { u: host.uuid })).errors).toBeUndefined(); // 60 items
      const twice = await gql(
        small.app,
        `query($u: ID!) { a: resourceProvider(uuid: $u) { allocations { used } }
          b: resourceProvider(uuid: $u) { allocations { used } } }`,
        { u: host.uuid },
      );
      expect(twice.errors?.[0]?.extensions?.code).toBe('berth.result_too_large'); // 120 items
    } finally {
      await small.close();
    }
  });
});
