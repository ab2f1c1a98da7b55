// GraphQL fan-out: nested lists whose sizes the static cost estimate cannot know are bounded by a
// per-response item budget (BERTH_GRAPHQL_MAX_RESULT_ITEMS), answered with one clear error.
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';
import { subscribe } from '../support/sse';

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

  it('refuses the attack run’s four-level fan-out (35^4 = 1.5 M allocations) before running it', async () => {
    const r = await gql(
      t.app,
      `query($u: ID!) { resourceProvider(uuid: $u) { allocations { provider { allocations {
        provider { allocations { provider { allocations { used consumer { uuid } } } } } } } } } }`,
      { u: rp },
    );
    expect(r.data ?? null).toBeNull();
    expect(r.errors).toHaveLength(1);
    // The static estimate counts a provider's allocations as hundreds (schema listSize).
    expect(r.errors?.[0]?.extensions?.code).toBe('berth.query_too_costly');
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

  it('counts against a configured budget', async () => {
    const small = await createTestApp({ BERTH_GRAPHQL_MAX_RESULT_ITEMS: '100' });
    try {
      const host = await buildResourceProvider(small.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 1000 }],
      });
      const input = Array.from({ length: 60 }, () => allocationInput(host.uuid, { VCPU: 1 }));
      const write = await gql(
        small.app,
        `mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }`,
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
      expect(twice.errors?.[0]?.message).toContain('BERTH_GRAPHQL_MAX_RESULT_ITEMS');
    } finally {
      await small.close();
    }
  });

  describe('mutations and subscriptions under the same budget', () => {
    let small: TestApp;
    let host: string;
    beforeAll(async () => {
      small = await createTestApp({ BERTH_GRAPHQL_MAX_RESULT_ITEMS: '100' });
      host = (
        await buildResourceProvider(small.app.services, {
          inventories: [{ resourceClass: 'VCPU', total: 1000 }],
        })
      ).uuid;
      const input = Array.from({ length: 60 }, () => allocationInput(host, { VCPU: 1 }));
      const r = await gql(
        small.app,
        'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
        { i: input },
      );
      expect(r.errors).toBeUndefined();
    });
    afterAll(async () => {
      await small.close();
    });

    it('answers a mutation payload over budget with one error saying the write was applied', async () => {
      const mine = allocationInput(host, { VCPU: 1 });
      const r = await gql(
        small.app,
        `mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) {
          allocations { provider { a: allocations { used } b: allocations { used } } } } }`,
        { i: [mine] },
      );
      expect(r.data ?? null).toBeNull();
      expect(r.errors).toHaveLength(1);
      expect(r.errors?.[0]?.extensions).toEqual({ code: 'berth.result_too_large', applied: true });
      expect(r.errors?.[0]?.message).toContain('The write was applied');
      // It was: the consumer holds its allocation.
      const held = await gql(small.app, 'query($u: ID!) { consumer(uuid: $u) { uuid } }', {
        u: mine.consumerUuid,
      });
      expect(held.data.consumer).toEqual({ uuid: mine.consumerUuid });
    });

    it('ends a subscription whose event is over budget, after one error event', async () => {
      const s = await subscribe(
        'http://berth.test',
        'subscription { providerChanged { providers { a: allocations { used } b: allocations { used } } } }',
        {},
        undefined,
        (url, init) => Promise.resolve(small.app.graphql.fetch(url, init)),
      );
      try {
        await new Promise((r) => setTimeout(r, 200)); // the stream is open
        const write = await gql(
          small.app,
          'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
          { i: [allocationInput(host, { VCPU: 1 })] },
        );
        expect(write.errors).toBeUndefined();
        const event = await s.next(10_000);
        expect(event).not.toBe('timeout');
        expect(event).toMatchObject({
          errors: [{ extensions: { code: 'berth.result_too_large' } }],
        });
        expect((event as { data?: unknown }).data ?? null).toBeNull();
        // Nothing more comes: the subscription ended, and its slot is free again.
        expect(await s.next(1000)).toBe('timeout');
        expect(small.app.services.live.openFor('anonymous')).toBe(0);
      } finally {
        await s.close();
      }
    });

    it('refuses the attack run’s four-list subscription before it opens (static cost)', async () => {
      const s = await subscribe(
        'http://berth.test',
        `subscription { providerChanged { providers { allocations { consumer { allocations {
          provider { allocations { used } } } } } } } }`,
        {},
        undefined,
        (url, init) => Promise.resolve(small.app.graphql.fetch(url, init)),
      );
      const first = await s.next(5000);
      expect(first).toMatchObject({ errors: [{ extensions: { code: 'berth.query_too_costly' } }] });
      await s.close();
    });
  });
});
