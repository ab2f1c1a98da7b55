// Group commit of single-consumer allocation writes (PUT /allocations/{consumer}) on a real
// database: writes that arrive together share one transaction, and a batch that cannot be
// written whole is retried write by write, so every caller gets the answer (or the error) a lone
// write would have given. Capacity is never exceeded.
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import type { ConsumerAllocationsInput } from '../../src/placement/allocation-write';
import { ChangeBus } from '../../src/placement/change-bus';
import { ConcurrentUpdateError, ConflictError } from '../../src/placement/errors';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider } from '../support/factories';

describe('allocation write group commit', () => {
  let db: TestDb;
  let s: Services;

  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`), {
      groupCommit: 32,
    });
  });
  afterAll(async () => {
    await db.drop();
  });

  const put = (
    providerUuid: string,
    vcpu = 1,
    o: { consumerUuid?: string; consumerGeneration?: number | null } = {},
  ): ConsumerAllocationsInput => ({
    consumerUuid: o.consumerUuid ?? randomUUID(),
    projectId: 'p1',
    userId: 'u1',
    consumerType: 'INSTANCE',
    consumerGeneration: o.consumerGeneration === undefined ? null : o.consumerGeneration,
    allocations: [{ providerUuid, resources: { VCPU: vcpu } }],
  });

  const usedOn = async (id: number) =>
    (await s.usages.byProviderIds([id])).get(id)?.find((u) => u.resourceClass === 'VCPU')?.used ??
    0;

  const host = (total: number) =>
    buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total }] });

  it('writes concurrent single-consumer writes in shared transactions', async () => {
    const hosts = await Promise.all(Array.from({ length: 4 }, () => host(8)));
    const before = s.allocations.groupCommitStats();
    const inputs = Array.from({ length: 24 }, (_, i) => put(hosts[i % 4]!.uuid));
    const written = await Promise.all(inputs.map((i) => s.allocations.setOne(i)));
    const after = s.allocations.groupCommitStats();
    expect(after.batches).toBeGreaterThan(before.batches);
    expect(after.batchedWrites - before.batchedWrites).toBeGreaterThan(1);
    expect(written.map((c) => c?.uuid)).toEqual(inputs.map((i) => i.consumerUuid));
    expect(written.every((c) => c?.generation === 1)).toBe(true);
    for (const h of hosts) {
      expect(await usedOn(h.id)).toBe(6);
    }
  });

  it('never over-commits: a batch that does not fit is split and each write answered alone', async () => {
    const h = await host(5);
    const before = s.allocations.groupCommitStats();
    const results = await Promise.allSettled(
      Array.from({ length: 9 }, () => s.allocations.setOne(put(h.uuid))),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(4);
    for (const err of refused) {
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as Error).message).toMatch(/would exceed the capacity/);
    }
    expect(s.allocations.groupCommitStats().splitBatches).toBeGreaterThan(before.splitBatches);
    expect(await usedOn(h.id)).toBe(5);
  });

  it('gives a stale consumer generation the error a lone write gets, and writes the rest', async () => {
    const h = await host(16);
    const existing = randomUUID();
    await s.allocations.set([put(h.uuid, 1, { consumerUuid: existing })]);
    const lone = await s.allocations
      .set([put(h.uuid, 1, { consumerUuid: existing, consumerGeneration: null })])
      .catch((e: unknown) => e);
    expect(lone).toBeInstanceOf(ConcurrentUpdateError);
    const results = await Promise.allSettled([
      s.allocations.setOne(put(h.uuid)),
      s.allocations.setOne(put(h.uuid)),
      s.allocations.setOne(put(h.uuid, 2, { consumerUuid: existing, consumerGeneration: null })),
      s.allocations.setOne(put(h.uuid)),
    ]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    const err = (results[2] as PromiseRejectedResult).reason as Error;
    expect(err).toBeInstanceOf(ConcurrentUpdateError);
    expect(err.message).toBe((lone as Error).message);
    expect(await usedOn(h.id)).toBe(4);
  });

  it('writes an existing consumer’s new allocations with its generation, batched or not', async () => {
    const h = await host(16);
    const c = randomUUID();
    const first = await s.allocations.setOne(put(h.uuid, 1, { consumerUuid: c }));
    const [, second] = await Promise.all([
      s.allocations.setOne(put(h.uuid)),
      s.allocations.setOne(put(h.uuid, 3, { consumerUuid: c, consumerGeneration: 1 })),
    ]);
    expect(first?.generation).toBe(1);
    expect(second?.generation).toBe(2);
    expect(await usedOn(h.id)).toBe(4);
  });

  it('empties a consumer (undefined answer) beside other writes', async () => {
    const h = await host(16);
    const c = randomUUID();
    await s.allocations.setOne(put(h.uuid, 2, { consumerUuid: c }));
    const emptied: ConsumerAllocationsInput = {
      consumerUuid: c,
      projectId: 'p1',
      userId: 'u1',
      consumerGeneration: 1,
      allocations: [],
    };
    const [gone, other] = await Promise.all([
      s.allocations.setOne(emptied),
      s.allocations.setOne(put(h.uuid)),
    ]);
    expect(gone).toBeUndefined();
    expect(other?.generation).toBe(1);
    expect(await s.allocations.findConsumer(c)).toBeNull();
    expect(await usedOn(h.id)).toBe(1);
  });
});
