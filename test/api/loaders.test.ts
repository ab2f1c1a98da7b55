// The per-request DataLoaders behind the GraphQL resolvers (src/graphql/loaders): one entry per key, in
// key order, empty or null for unknown keys, one round trip per batch.
import { randomUUID } from 'node:crypto';
import { createLoaders } from '../../src/graphql/loaders/create-loaders';
import type { ResourceProviderRecord } from '../../src/placement/types';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { QueryCounter } from '../support/query-counter';

describe('createLoaders', () => {
  const counter = new QueryCounter();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { dbLogger: counter });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers every key in key order, with null or [] for unknown keys', async () => {
    const s = t.app.services;
    const agg = randomUUID();
    const a = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
      traits: ['HW_CPU_X86_AVX2'],
      aggregates: [agg],
    });
    const b = await buildResourceProvider(s, { parentUuid: a.uuid });
    const [consumer] = await s.allocations.set([claim(a.uuid, { VCPU: 1 })]);
    const loaders = createLoaders(s);
    const missing = 2147483000;

    const { result } = await counter.count(async () => ({
      providers: await loaders.providerById.loadMany([b.id, missing, a.id]),
      inventories: await loaders.inventoriesByProviderId.loadMany([missing, a.id, b.id]),
      traits: await loaders.traitsByProviderId.loadMany([b.id, a.id]),
      aggregates: await loaders.aggregatesByProviderId.loadMany([a.id, missing]),
      members: await loaders.providersByAggregateUuid.loadMany([randomUUID(), agg]),
      allocations: await loaders.allocationsByConsumerId.loadMany([consumer!.id, missing]),
      consumers: await loaders.consumerById.loadMany([missing, consumer!.id]),
    }));
    expect(result.providers.map((p) => (p && !(p instanceof Error) ? p.uuid : p))).toEqual([
      b.uuid,
      null,
      a.uuid,
    ]);
    expect(result.inventories.map((l) => (Array.isArray(l) ? l.length : l))).toEqual([0, 1, 0]);
    expect(result.traits).toEqual([[], ['HW_CPU_X86_AVX2']]);
    expect(result.aggregates).toEqual([[expect.objectContaining({ uuid: agg })], []]);
    expect(result.members).toEqual([[], [expect.objectContaining({ uuid: a.uuid })]]);
    expect(result.allocations).toEqual([
      [expect.objectContaining({ resourceClass: 'VCPU', used: 1, resourceProviderId: a.id })],
      [],
    ]);
    expect(result.consumers).toEqual([null, expect.objectContaining({ id: consumer!.id })]);
  });

  it('makes one round trip per batch and caches within the request', async () => {
    const s = t.app.services;
    const rps: ResourceProviderRecord[] = [];
    for (let i = 0; i < 5; i += 1) {
      rps.push(
        await buildResourceProvider(s, { inventories: [{ resourceClass: 'DISK_GB', total: 10 }] }),
      );
    }
    const loaders = createLoaders(s);
    const first = await counter.count(() =>
      Promise.all(rps.map((rp) => loaders.inventoriesByProviderId.load(rp.id))),
    );
    expect(first.queries).toHaveLength(1);
    expect(first.result.map((l) => l.map((i) => i.resourceProviderId))).toEqual(
      rps.map((rp) => [rp.id]),
    );
    const again = await counter.count(() => loaders.inventoriesByProviderId.load(rps[2]!.id));
    expect(again.queries).toHaveLength(0);
    loaders.clearAll();
    const cleared = await counter.count(() => loaders.inventoriesByProviderId.load(rps[2]!.id));
    expect(cleared.queries).toHaveLength(1);
  });
});
