// Allocation writes against real PostgreSQL/PGlite (upstream: tests/functional/db/test_allocation.py).
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { ErrorCode } from '../../src/placement/errors';
import { createTestDb, realPostgresIt, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

describe('allocations', () => {
  let db: TestDb;
  let s: Services;
  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('writes a new consumer at generation 1 and bumps the provider generation', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const [c] = await s.allocations.set([claim(rp.uuid, { VCPU: 2 })]);
    expect(c).toMatchObject({
      generation: 1,
      projectId: 'proj',
      userId: 'user',
      consumerType: 'INSTANCE',
    });
    const after = await s.providers.get(rp.uuid);
    expect(after.generation).toBe(rp.generation + 1);
    expect((await s.usages.byProviderIds([rp.id])).get(rp.id)).toEqual([
      { resourceClass: 'VCPU', used: 2 },
    ]);
  });

  it('refuses an allocation past (total - reserved) * ratio and writes nothing', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4, reserved: 1, allocationRatio: 2 }],
    });
    await s.allocations.set([claim(rp.uuid, { VCPU: 5 })]);
    const c = claim(rp.uuid, { VCPU: 2 });
    await expect(s.allocations.set([c])).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/exceed the capacity/),
    });
    expect(await s.allocations.findConsumer(c.consumerUuid)).toBeNull();
  });

  it('enforces min_unit, max_unit and step_size', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [
        { resourceClass: 'DISK_GB', total: 100, minUnit: 10, maxUnit: 50, stepSize: 5 },
      ],
    });
    for (const amount of [5, 55, 12]) {
      await expect(s.allocations.set([claim(rp.uuid, { DISK_GB: amount })])).rejects.toMatchObject({
        status: 409,
        message: expect.stringMatching(/inventory constraints/),
      });
    }
    await expect(s.allocations.set([claim(rp.uuid, { DISK_GB: 15 })])).resolves.toHaveLength(1);
  });

  it('checks consumer generations as in 1.28', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const c = claim(rp.uuid, { VCPU: 1 });
    await s.allocations.set([c]);
    await expect(s.allocations.set([c])).rejects.toMatchObject({
      code: ErrorCode.CONCURRENT_UPDATE,
    });
    const [again] = await s.allocations.set([
      {
        ...c,
        consumerGeneration: 1,
        allocations: [{ providerUuid: rp.uuid, resources: { VCPU: 3 } }],
      },
    ]);
    expect(again!.generation).toBe(2);
    await expect(
      s.allocations.set([{ ...claim(rp.uuid, { VCPU: 1 }), consumerGeneration: 4 }]),
    ).rejects.toMatchObject({
      code: ErrorCode.CONCURRENT_UPDATE,
    });
  });

  it('counts the consumer’s own previous allocation as released', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const c = claim(rp.uuid, { VCPU: 3 });
    await s.allocations.set([c]);
    await expect(
      s.allocations.set([
        {
          ...c,
          consumerGeneration: 1,
          allocations: [{ providerUuid: rp.uuid, resources: { VCPU: 4 } }],
        },
      ]),
    ).resolves.toHaveLength(1);
  });

  it('is atomic across consumers: one failure writes nothing for any', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const ok = claim(rp.uuid, { VCPU: 1 });
    const bad = claim(rp.uuid, { MEMORY_MB: 1 });
    await expect(s.allocations.set([ok, bad])).rejects.toMatchObject({ status: 409 });
    expect(await s.allocations.findConsumer(ok.consumerUuid)).toBeNull();
  });

  it('sums amounts of several consumers on one provider', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    await expect(
      s.allocations.set([claim(rp.uuid, { VCPU: 3 }), claim(rp.uuid, { VCPU: 2 })]),
    ).rejects.toMatchObject({
      status: 409,
    });
  });

  it('removes the consumer when its allocations are emptied', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const c = claim(rp.uuid, { VCPU: 1 });
    await s.allocations.set([c]);
    await s.allocations.set([{ ...c, consumerGeneration: 1, allocations: [] }]);
    expect(await s.allocations.findConsumer(c.consumerUuid)).toBeNull();
  });

  it('rejects unknown providers and classes with 400', async () => {
    await expect(s.allocations.set([claim(randomUUID(), { VCPU: 1 })])).rejects.toMatchObject({
      status: 400,
    });
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    await expect(s.allocations.set([claim(rp.uuid, { CUSTOM_NOPE: 1 })])).rejects.toMatchObject({
      status: 400,
    });
  });

  it('refuses to shrink or delete inventory below what is allocated', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [
        { resourceClass: 'VCPU', total: 8 },
        { resourceClass: 'DISK_GB', total: 8 },
      ],
    });
    await s.allocations.set([claim(rp.uuid, { VCPU: 6 })]);
    const cur = await s.providers.get(rp.uuid);
    await expect(
      s.inventories.setAll(rp.uuid, cur.generation, [{ resourceClass: 'VCPU', total: 4 }]),
    ).rejects.toMatchObject({
      code: ErrorCode.INVENTORY_INUSE,
    });
    await expect(s.inventories.delete(rp.uuid, 'VCPU', cur.generation)).rejects.toMatchObject({
      code: ErrorCode.INVENTORY_INUSE,
    });
    await expect(s.providers.delete(rp.uuid)).rejects.toMatchObject({
      code: ErrorCode.PROVIDER_IN_USE,
    });
    expect((await s.providers.get(rp.uuid)).generation).toBe(cur.generation);
  });

  it('reshapes VCPU from a root to a NUMA child atomically', async () => {
    const root = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const numa = await buildResourceProvider(s, { parentUuid: root.uuid });
    const c = claim(root.uuid, { VCPU: 2 });
    await s.allocations.set([c]);
    const r = await s.providers.get(root.uuid);
    await s.reshaper.reshape({
      inventories: [
        { providerUuid: root.uuid, generation: r.generation, inventories: [] },
        {
          providerUuid: numa.uuid,
          generation: numa.generation,
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
    expect((await s.inventories.list(root.uuid)).inventories).toEqual([]);
    expect((await s.usages.byProviderIds([numa.id])).get(numa.id)).toEqual([
      { resourceClass: 'VCPU', used: 2 },
    ]);
    await expect(
      s.reshaper.reshape({
        inventories: [{ providerUuid: numa.uuid, generation: numa.generation, inventories: [] }],
        allocations: [],
      }),
    ).rejects.toMatchObject({ code: ErrorCode.CONCURRENT_UPDATE });
  });

  realPostgresIt(
    'never exceeds capacity with 32 concurrent writers (real PostgreSQL)',
    async () => {
      const rp = await buildResourceProvider(s, {
        inventories: [{ resourceClass: 'VCPU', total: 5 }],
      });
      const results = await Promise.allSettled(
        Array.from({ length: 32 }, () => s.allocations.set([claim(rp.uuid, { VCPU: 1 })])),
      );
      const ok = results.filter((r) => r.status === 'fulfilled').length;
      const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(ok).toBe(5);
      for (const e of errors) {
        expect(e).toMatchObject({ status: 409 });
      }
      expect((await s.usages.byProviderIds([rp.id])).get(rp.id)).toEqual([
        { resourceClass: 'VCPU', used: 5 },
      ]);
    },
  );
});
