// Which provider generations an allocation write bumps, as Placement's _set_allocations and
// delete_all do (upstream: objects/allocation.py; gabbits allocations.yaml "check usages",
// reshaper.yaml "get usages on parent/child after move"), and that providers left unbumped still
// cannot be over-committed under concurrency.
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { ChangeBus } from '../../src/placement/change-bus';
import { createTestDb, realPostgresIt, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

const group = (resources: Record<string, number>) => ({
  suffix: '',
  resources,
  requiredTraits: [],
  forbiddenTraits: [],
  memberOf: [],
  forbiddenAggregates: [],
});

describe('allocation writes and provider generations', () => {
  let db: TestDb;
  let s: Services;
  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
  });
  afterAll(async () => {
    await db.drop();
  });

  const generation = async (uuid: string) => (await s.providers.get(uuid)).generation;
  const vcpuHost = () =>
    buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 4 }] });

  it('bumps only the providers named in the new allocations when a consumer moves', async () => {
    const a = await vcpuHost();
    const b = await vcpuHost();
    const c = claim(a.uuid, { VCPU: 4 });
    await s.allocations.set([c]);
    const [genA, genB] = [await generation(a.uuid), await generation(b.uuid)];
    await s.allocations.set([
      {
        ...c,
        consumerGeneration: 1,
        allocations: [{ providerUuid: b.uuid, resources: { VCPU: 4 } }],
      },
    ]);
    expect(await generation(a.uuid)).toBe(genA);
    expect(await generation(b.uuid)).toBe(genB + 1);
    // The provider left behind is not bumped, yet its usage (and the candidate index) changed.
    expect((await s.usages.byProviderIds([a.id])).get(a.id)).toEqual([
      { resourceClass: 'VCPU', used: 0 },
    ]);
    const found = await s.candidates.find({ groups: [group({ VCPU: 4 })] });
    expect(found.allocationRequests.map((r) => r.allocations[0]!.providerUuid)).toContain(a.uuid);
  });

  it('bumps the providers a consumer allocated from when its allocations are emptied', async () => {
    const a = await vcpuHost();
    const b = await vcpuHost();
    const c = {
      ...claim(a.uuid, { VCPU: 1 }),
      allocations: [
        { providerUuid: a.uuid, resources: { VCPU: 1 } },
        { providerUuid: b.uuid, resources: { VCPU: 2 } },
      ],
    };
    await s.allocations.set([c]);
    const [genA, genB] = [await generation(a.uuid), await generation(b.uuid)];
    await s.allocations.set([{ ...c, consumerGeneration: 1, allocations: [] }]);
    expect([await generation(a.uuid), await generation(b.uuid)]).toEqual([genA + 1, genB + 1]);
    expect(await s.allocations.findConsumer(c.consumerUuid)).toBeNull();
  });

  it('bumps no provider when a consumer’s allocations are deleted', async () => {
    const a = await vcpuHost();
    const c = claim(a.uuid, { VCPU: 3 });
    await s.allocations.set([c]);
    const genA = await generation(a.uuid);
    await s.allocations.deleteForConsumer(c.consumerUuid);
    expect(await generation(a.uuid)).toBe(genA);
    expect((await s.usages.byProviderIds([a.id])).get(a.id)).toEqual([
      { resourceClass: 'VCPU', used: 0 },
    ]);
    await expect(s.allocations.deleteForConsumer(c.consumerUuid)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('reshape bumps interim, allocation and final steps; an empty inventory skips the interim', async () => {
    const root = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const numa = await buildResourceProvider(s, { parentUuid: root.uuid });
    const c = claim(root.uuid, { VCPU: 2 });
    await s.allocations.set([c]);
    const [genRoot, genNuma] = [await generation(root.uuid), await generation(numa.uuid)];
    await s.reshaper.reshape({
      inventories: [
        { providerUuid: root.uuid, generation: genRoot, inventories: [] },
        {
          providerUuid: numa.uuid,
          generation: genNuma,
          inventories: [{ resourceClass: 'VCPU', total: 8 }],
        },
      ],
      allocations: [
        {
          ...c,
          consumerGeneration: 1,
          allocations: [{ providerUuid: numa.uuid, resources: { VCPU: 2 } }],
        },
      ],
    });
    // root: no interim (empty list), not named in allocations, final step: +1.
    // numa: interim +1, named in allocations +1, final +1.
    expect(await generation(root.uuid)).toBe(genRoot + 1);
    expect(await generation(numa.uuid)).toBe(genNuma + 3);
  });

  realPostgresIt(
    'never over-commits a provider that consumers move away from concurrently (real PostgreSQL)',
    async () => {
      const a = await vcpuHost();
      const b = await buildResourceProvider(s, {
        inventories: [{ resourceClass: 'VCPU', total: 16 }],
      });
      const movers = [claim(a.uuid, { VCPU: 2 }), claim(a.uuid, { VCPU: 2 })];
      await s.allocations.set(movers);
      // A is full. Each mover leaves A (A not bumped, not locked) while 12 new consumers, one
      // project each, try to claim 1 VCPU on A: at most the 4 freed units may be taken.
      const moves = movers.map((m) =>
        s.allocations.set([
          {
            ...m,
            consumerGeneration: 1,
            allocations: [{ providerUuid: b.uuid, resources: { VCPU: 2 } }],
          },
        ]),
      );
      const claims = Array.from({ length: 12 }, (_, i) =>
        s.allocations.set([
          { ...claim(a.uuid, { VCPU: 1 }), projectId: `move-race-${i}-${randomUUID()}` },
        ]),
      );
      const results = await Promise.allSettled([...moves, ...claims]);
      expect(results.slice(0, 2).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      for (const r of results) {
        if (r.status === 'rejected') {
          expect(r.reason).toMatchObject({ status: 409 });
        }
      }
      const won = results.slice(2).filter((r) => r.status === 'fulfilled').length;
      const usage = (await s.usages.byProviderIds([a.id])).get(a.id) ?? [];
      const used = usage.find((u) => u.resourceClass === 'VCPU')?.used ?? 0;
      expect(used).toBe(won);
      expect(used).toBeLessThanOrEqual(4);
    },
  );
});
