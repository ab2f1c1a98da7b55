// Quota limits and claim-time enforcement against real PostgreSQL/PGlite (seed 004, plus limits
// enforced inside the claim transaction).
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { normalizeInputsOrThrow } from '../../src/placement/allocation-write';
import { ErrorCode } from '../../src/placement/errors';
import { createTestDb, onEmbedded, realPostgresIt, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

/** A claim in `projectId` (fresh per test, so tests never share usage). */
function claimIn(
  projectId: string,
  providerUuid: string,
  resources: Record<string, number>,
  o: { userId?: string; consumerType?: string } = {},
) {
  return {
    ...claim(providerUuid, resources),
    projectId,
    userId: o.userId ?? 'user',
    consumerType: o.consumerType ?? 'INSTANCE',
  };
}

const line = (resource: string, limit: number | null, used: number, remaining: number | null) => ({
  resource,
  limit,
  used,
  remaining,
});

describe('quota', () => {
  let db: TestDb;
  let s: Services;
  let host: { uuid: string };
  beforeAll(async () => {
    db = await createTestDb({ poolSize: onEmbedded() ? 4 : 36 });
    s = createServices(db.dataSource);
    host = await buildResourceProvider(s, {
      inventories: [
        { resourceClass: 'VCPU', total: 1000 },
        { resourceClass: 'MEMORY_MB', total: 1_000_000 },
        { resourceClass: 'DISK_GB', total: 10_000 },
      ],
    });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('counts instances, cores and RAM per project and per user without limits', async () => {
    const p = `p-${randomUUID()}`;
    await s.allocations.set([
      claimIn(p, host.uuid, { VCPU: 2, MEMORY_MB: 512 }, { userId: 'alice' }),
      claimIn(p, host.uuid, { VCPU: 4, MEMORY_MB: 1024 }, { userId: 'bob' }),
      claimIn(p, host.uuid, { VCPU: 1 }, { userId: 'bob', consumerType: 'MIGRATION' }),
    ]);
    expect(await s.quota.get(p)).toEqual({
      projectId: p,
      userId: null,
      lines: [
        line('INSTANCES', null, 2, null),
        line('MEMORY_MB', null, 1536, null),
        line('VCPU', null, 7, null),
      ],
    });
    expect((await s.quota.get(p, 'bob')).lines).toEqual([
      line('INSTANCES', null, 1, null),
      line('MEMORY_MB', null, 1024, null),
      line('VCPU', null, 5, null),
    ]);
  });

  it('reports limit, used and remaining after setLimits, and -1 removes a limit', async () => {
    const p = `p-${randomUUID()}`;
    await s.allocations.set([claimIn(p, host.uuid, { VCPU: 3 })]);
    const set = await s.quota.setLimits({
      projectId: p,
      limits: [
        { resource: 'VCPU', limit: 10 },
        { resource: 'INSTANCES', limit: 5 },
        { resource: 'DISK_GB', limit: 100 },
      ],
    });
    expect(set.lines).toEqual([
      line('INSTANCES', 5, 1, 4),
      line('DISK_GB', 100, 0, 100),
      line('VCPU', 10, 3, 7),
    ]);
    const changed = await s.quota.setLimits({
      projectId: p,
      limits: [
        { resource: 'DISK_GB', limit: -1 },
        { resource: 'VCPU', limit: 2 },
      ],
    });
    expect(changed.lines).toEqual([line('INSTANCES', 5, 1, 4), line('VCPU', 2, 3, 0)]);
  });

  it('rejects unknown resources, bad limits and duplicates with a 400', async () => {
    const p = `p-${randomUUID()}`;
    for (const limits of [
      [{ resource: 'CUSTOM_NOPE', limit: 1 }],
      [{ resource: 'VCPU', limit: -2 }],
      [{ resource: 'VCPU', limit: 1.5 }],
      [
        { resource: 'VCPU', limit: 1 },
        { resource: 'VCPU', limit: 2 },
      ],
    ]) {
      await expect(s.quota.setLimits({ projectId: p, limits })).rejects.toMatchObject({
        status: 400,
      });
    }
    expect((await s.quota.get(p)).lines).toEqual([line('INSTANCES', null, 0, null)]);
  });

  it('refuses a claim past the project limit, naming class, limit and usage', async () => {
    const p = `p-${randomUUID()}`;
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'VCPU', limit: 4 }] });
    await s.allocations.set([claimIn(p, host.uuid, { VCPU: 3 })]);
    const refused = claimIn(p, host.uuid, { VCPU: 2 });
    await expect(s.allocations.set([refused])).rejects.toMatchObject({
      code: ErrorCode.QUOTA_EXCEEDED,
      status: 409,
      message: "Quota exceeded for VCPU of project '" + p + "': limit 4, used 3, requested 2.",
    });
    expect(await s.allocations.findConsumer(refused.consumerUuid)).toBeNull();
    await s.allocations.set([claimIn(p, host.uuid, { VCPU: 1 })]);
    expect((await s.quota.get(p)).lines).toContainEqual(line('VCPU', 4, 4, 0));
  });

  it('refuses a multi-consumer write as a whole and keeps the old allocations', async () => {
    const p = `p-${randomUUID()}`;
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'MEMORY_MB', limit: 4096 }] });
    const existing = claimIn(p, host.uuid, { MEMORY_MB: 1024 });
    const [c] = await s.allocations.set([existing]);
    const grow = {
      ...existing,
      consumerGeneration: c!.generation,
      allocations: [{ providerUuid: host.uuid, resources: { MEMORY_MB: 2048 } }],
    };
    const extra = claimIn(p, host.uuid, { MEMORY_MB: 4096 });
    await expect(s.allocations.set([grow, extra])).rejects.toMatchObject({
      code: ErrorCode.QUOTA_EXCEEDED,
    });
    expect(await s.allocations.findConsumer(extra.consumerUuid)).toBeNull();
    const kept = await s.allocations.forConsumer(existing.consumerUuid);
    expect(kept.consumer?.generation).toBe(c!.generation);
    expect(kept.allocations.map((a) => [a.resourceClass, a.used])).toEqual([['MEMORY_MB', 1024]]);
  });

  it('does not count MIGRATION consumers against INSTANCES, and a resize is not a new instance', async () => {
    const p = `p-${randomUUID()}`;
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'INSTANCES', limit: 1 }] });
    const vm = claimIn(p, host.uuid, { VCPU: 1 });
    const [c] = await s.allocations.set([vm]);
    await s.allocations.set([claimIn(p, host.uuid, { VCPU: 1 }, { consumerType: 'MIGRATION' })]);
    await s.allocations.set([
      {
        ...vm,
        consumerGeneration: c!.generation,
        allocations: [{ providerUuid: host.uuid, resources: { VCPU: 2 } }],
      },
    ]);
    await expect(s.allocations.set([claimIn(p, host.uuid, { VCPU: 1 })])).rejects.toMatchObject({
      code: ErrorCode.QUOTA_EXCEEDED,
      message: expect.stringContaining('INSTANCES of project'),
    });
    expect((await s.quota.get(p)).lines[0]).toEqual(line('INSTANCES', 1, 1, 0));
  });

  it('counts untyped consumers as instances (Nova: INSTANCE + unknown), never MIGRATION ones', async () => {
    const p = `p-${randomUUID()}`;
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'INSTANCES', limit: 1 }] });
    const { consumerType: _t, ...untyped } = claimIn(p, host.uuid, { VCPU: 1 });
    await s.allocations.set([untyped]);
    expect((await s.quota.get(p)).lines[0]).toEqual(line('INSTANCES', 1, 1, 0));
    await expect(s.allocations.set([claimIn(p, host.uuid, { VCPU: 1 })])).rejects.toMatchObject({
      code: ErrorCode.QUOTA_EXCEEDED,
    });
    const { consumerType: _u, ...another } = claimIn(p, host.uuid, { VCPU: 1 });
    await expect(s.allocations.set([another])).rejects.toMatchObject({
      code: ErrorCode.QUOTA_EXCEEDED,
    });
    await s.allocations.set([claimIn(p, host.uuid, { VCPU: 1 }, { consumerType: 'MIGRATION' })]);
    expect((await s.quota.get(p)).lines[0]).toEqual(line('INSTANCES', 1, 1, 0));
  });

  it('applies a user limit to that user only, and bounds the user by the project', async () => {
    const p = `p-${randomUUID()}`;
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'VCPU', limit: 10 }] });
    await s.quota.setLimits({
      projectId: p,
      userId: 'alice',
      limits: [{ resource: 'VCPU', limit: 2 }],
    });
    await s.allocations.set([claimIn(p, host.uuid, { VCPU: 2 }, { userId: 'alice' })]);
    await expect(
      s.allocations.set([claimIn(p, host.uuid, { VCPU: 1 }, { userId: 'alice' })]),
    ).rejects.toMatchObject({
      code: ErrorCode.QUOTA_EXCEEDED,
      message: `Quota exceeded for VCPU of user 'alice' in project '${p}': limit 2, used 2, requested 1.`,
    });
    await s.allocations.set([claimIn(p, host.uuid, { VCPU: 7 }, { userId: 'bob' })]);
    expect((await s.quota.get(p, 'alice')).lines).toContainEqual(line('VCPU', 2, 2, 0));
    await s.quota.setLimits({
      projectId: p,
      userId: 'alice',
      limits: [{ resource: 'VCPU', limit: 5 }],
    });
    // alice may grow by 3 on her own limit, but the project has only 1 left.
    expect((await s.quota.get(p, 'alice')).lines).toContainEqual(line('VCPU', 5, 2, 1));
    expect((await s.quota.get(p)).lines).toContainEqual(line('VCPU', 10, 9, 1));
  });

  it('lets an over-limit project shrink or keep its usage but not grow', async () => {
    const p = `p-${randomUUID()}`;
    const vm = claimIn(p, host.uuid, { VCPU: 4 });
    const [c] = await s.allocations.set([vm]);
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'VCPU', limit: 2 }] });
    const resize = (vcpu: number, generation: number) => ({
      ...vm,
      consumerGeneration: generation,
      allocations: [{ providerUuid: host.uuid, resources: { VCPU: vcpu } }],
    });
    await expect(s.allocations.set([resize(5, c!.generation)])).rejects.toMatchObject({
      code: ErrorCode.QUOTA_EXCEEDED,
    });
    const [same] = await s.allocations.set([resize(4, c!.generation)]);
    const [down] = await s.allocations.set([resize(3, same!.generation)]);
    expect(down!.generation).toBe(c!.generation + 2);
    expect((await s.quota.get(p)).lines).toContainEqual(line('VCPU', 2, 3, 0));
  });

  it('counts a legacy write without project against the consumer’s own project', async () => {
    const p = `p-${randomUUID()}`;
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'VCPU', limit: 2 }] });
    const vm = claimIn(p, host.uuid, { VCPU: 2 });
    await s.allocations.set([vm]);
    const legacy = {
      consumerUuid: vm.consumerUuid,
      allocations: [{ providerUuid: host.uuid, resources: { VCPU: 3 } }],
    };
    await expect(
      s.allocations.set([legacy], { checkConsumerGeneration: false }),
    ).rejects.toMatchObject({ code: ErrorCode.QUOTA_EXCEEDED });
  });

  it('also guards reshaper writes', async () => {
    const p = `p-${randomUUID()}`;
    await s.quota.setLimits({ projectId: p, limits: [{ resource: 'VCPU', limit: 1 }] });
    await expect(
      s.reshaper.reshape({ inventories: [], allocations: [claimIn(p, host.uuid, { VCPU: 2 })] }),
    ).rejects.toMatchObject({ code: ErrorCode.QUOTA_EXCEEDED });
  });

  realPostgresIt.each([
    { resource: 'VCPU', claimOf: () => ({ VCPU: 1 }) },
    { resource: 'INSTANCES', claimOf: () => ({ MEMORY_MB: 64 }) },
  ])(
    'never overshoots $resource with 32 concurrent claims for the last unit (real PostgreSQL)',
    async ({ resource, claimOf }) => {
      const p = `p-${randomUUID()}`;
      // One provider per claim: only the quota lock can serialise these writers.
      const hosts = await Promise.all(
        Array.from({ length: 32 }, () =>
          buildResourceProvider(s, {
            inventories: [
              { resourceClass: 'VCPU', total: 8 },
              { resourceClass: 'MEMORY_MB', total: 4096 },
            ],
          }),
        ),
      );
      await s.quota.setLimits({ projectId: p, limits: [{ resource, limit: 5 }] });
      for (const h of hosts.slice(0, 4)) {
        await s.allocations.set([claimIn(p, h.uuid, claimOf())]);
      }
      const results = await Promise.allSettled(
        hosts.map((h) => s.allocations.set([claimIn(p, h.uuid, claimOf())])),
      );
      const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(results.length - errors.length).toBe(1);
      for (const e of errors) {
        expect(e).toMatchObject({ code: ErrorCode.QUOTA_EXCEEDED });
      }
      expect((await s.quota.get(p)).lines).toContainEqual(
        expect.objectContaining({ resource, limit: 5, used: 5, remaining: 0 }),
      );
    },
  );
  realPostgresIt(
    'runs claims of a project without limits in parallel, while setLimits waits for them (real PostgreSQL)',
    async () => {
      const p = `p-${randomUUID()}`;
      const [a, b] = await Promise.all([
        buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 8 }] }),
        buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 8 }] }),
      ]);
      // The project and user rows exist (a first claim creates them; inserting them is not the point).
      await s.allocations.set([claimIn(p, host.uuid, { VCPU: 1 })]);
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let entered!: () => void;
      const inside = new Promise<void>((r) => {
        entered = r;
      });
      const held = db.dataSource.transaction(async (em) => {
        await s.allocations.setIn(
          em,
          normalizeInputsOrThrow([claimIn(p, a.uuid, { VCPU: 1 })]),
          {},
          () => undefined,
        );
        entered();
        await gate;
      });
      await inside;
      // With the first claim's transaction still open, a second claim of the project completes.
      await s.allocations.set([claimIn(p, b.uuid, { VCPU: 1 })]);
      // A limit cannot be set under the open claim: setLimits waits for it to commit.
      let limited = false;
      const limit = s.quota
        .setLimits({ projectId: p, limits: [{ resource: 'VCPU', limit: 3 }] })
        .then(() => {
          limited = true;
        });
      await new Promise((r) => setTimeout(r, 300));
      expect(limited).toBe(false);
      release();
      await held;
      await limit;
      expect(limited).toBe(true);
      await expect(s.allocations.set([claimIn(p, b.uuid, { VCPU: 1 })])).rejects.toMatchObject({
        code: ErrorCode.QUOTA_EXCEEDED,
      });
    },
  );
});
