// Group commit of scheduler claims on a real database: claims that queue up together are written
// in one transaction, and a batch that cannot be written whole (capacity, a move) is retried claim
// by claim so that each caller gets the answer a lone claim would have given.
import { randomUUID } from 'node:crypto';
import { createServices, type Services } from '../../src/app/services';
import { ChangeBus } from '../../src/placement/change-bus';
import { type ClaimInput, ClaimService } from '../../src/placement/claims';
import { ConflictError } from '../../src/placement/errors';
import { ClaimBatcher, type ClaimWriter } from '../../src/scheduler/claiming/claim-batcher';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider } from '../support/factories';

describe('claim batching', () => {
  let db: TestDb;
  let s: Services;
  let moves: ClaimService;

  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
    moves = new ClaimService(db.dataSource, s.changes, s.allocations, s.providers);
  });
  afterAll(async () => {
    await db.drop();
  });

  const claimOn = (hostUuid: string, vcpu = 1, consumerUuid = randomUUID()): ClaimInput => ({
    consumerUuid,
    projectId: 'p1',
    userId: 'u1',
    consumerType: 'INSTANCE',
    hostUuid,
    allocations: [{ providerUuid: hostUuid, resources: { VCPU: vcpu } }],
  });

  const usedOn = async (id: number) =>
    (await s.usages.byProviderIds([id])).get(id)?.find((u) => u.resourceClass === 'VCPU')?.used ??
    0;

  it('writes claims queued together in one transaction', async () => {
    const hosts = await Promise.all(
      Array.from({ length: 8 }, () =>
        buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 4 }] }),
      ),
    );
    const batcher = new ClaimBatcher(moves, 32, 1);
    const inputs = hosts.flatMap((h) => [claimOn(h.uuid), claimOn(h.uuid, 2)]);
    const claimed = await Promise.all(inputs.map((i) => batcher.claim(i)));
    expect(claimed.map((c) => c.consumerUuid)).toEqual(inputs.map((i) => i.consumerUuid));
    expect(claimed.every((c) => c.generation === 1 && !c.moved)).toBe(true);
    // The first claim found the batcher idle and went alone; the other 15 queued behind it.
    expect(batcher.stats).toEqual({ batches: 1, batchedClaims: 15, splitBatches: 0 });
    for (const h of hosts) {
      expect(await usedOn(h.id)).toBe(3);
    }
    const consumer = await s.allocations.findConsumer(inputs[5]!.consumerUuid);
    expect(consumer).toMatchObject({ projectId: 'p1', userId: 'u1', consumerType: 'INSTANCE' });
    expect(consumer!.generation).toBe(1);
  });

  /**
   * A host with room for 16 and a batcher (batches of 16, two transactions at most) over the real
   * writer, recording how many of its transactions overlapped at most.
   */
  const watchedBatcher = async () => {
    const host = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 16 }],
    });
    let running = 0;
    const seen = { most: 0 };
    const track = async <T>(write: () => Promise<T>): Promise<T> => {
      seen.most = Math.max(seen.most, ++running);
      try {
        return await write();
      } finally {
        running--;
      }
    };
    const writer: ClaimWriter = {
      claim: (input) => track(() => moves.claim(input)),
      claimNew: (inputs) => track(() => moves.claimNew(inputs)),
    };
    return { host, seen, batcher: new ClaimBatcher(writer, 16, 2) };
  };

  it('makes a claim that arrives during a write wait for it and go with the claims queued behind', async () => {
    const { host, seen, batcher } = await watchedBatcher();
    const first = batcher.claim(claimOn(host.uuid));
    // Three claims arrive while the first is being written: fewer than a quarter batch, so they
    // wait for it instead of starting a transaction of their own.
    const later = Array.from({ length: 3 }, () => batcher.claim(claimOn(host.uuid)));
    await Promise.all([first, ...later]);
    expect(seen.most).toBe(1);
    expect(batcher.stats).toEqual({ batches: 1, batchedClaims: 3, splitBatches: 0 });
    expect(await usedOn(host.id)).toBe(4);
  });

  it('starts a second transaction beside the one in flight once a quarter batch waits', async () => {
    const { host, seen, batcher } = await watchedBatcher();
    const all = Array.from({ length: 9 }, () => batcher.claim(claimOn(host.uuid)));
    await Promise.all(all);
    // 1 alone at once, 4 beside it (a quarter of 16), the last 4 when a write ended.
    expect(seen.most).toBe(2);
    expect(batcher.stats).toEqual({ batches: 2, batchedClaims: 8, splitBatches: 0 });
    expect(await usedOn(host.id)).toBe(9);
  });

  it('never over-commits: a batch that does not fit is split and each claim answered alone', async () => {
    const host = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 3 }],
    });
    const batcher = new ClaimBatcher(moves, 32, 1);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => batcher.claim(claimOn(host.uuid))),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(ok).toHaveLength(3);
    expect(refused).toHaveLength(3);
    for (const err of refused) {
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as Error).message).toMatch(/would exceed the capacity/);
    }
    expect(batcher.stats.splitBatches).toBe(1);
    expect(await usedOn(host.id)).toBe(3);
  });

  it('keeps move semantics for a consumer that already has allocations', async () => {
    const src = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const dst = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const mover = randomUUID();
    await moves.claim(claimOn(src.uuid, 2, mover));
    const batcher = new ClaimBatcher(moves, 32, 1);
    const [, , moved] = await Promise.all([
      batcher.claim(claimOn(dst.uuid)),
      batcher.claim(claimOn(dst.uuid)),
      batcher.claim(claimOn(dst.uuid, 2, mover)),
    ]);
    expect(moved).toMatchObject({ consumerUuid: mover, moved: true, generation: 2 });
    expect(batcher.stats.splitBatches).toBe(1);
    expect(await usedOn(src.id)).toBe(2);
    expect(await usedOn(dst.id)).toBe(4);
    expect((await moves.find(mover))?.destinationRootUuid).toBe(dst.uuid);
  });

  it('does not put two claims of one consumer in the same batch', async () => {
    const host = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const batcher = new ClaimBatcher(moves, 32, 1);
    const twice = randomUUID();
    const results = await Promise.allSettled([
      batcher.claim(claimOn(host.uuid)),
      batcher.claim(claimOn(host.uuid, 1, twice)),
      batcher.claim(claimOn(host.uuid, 1, twice)),
      batcher.claim(claimOn(host.uuid)),
    ]);
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    // The repeated consumer's second claim came after its first: a move onto the same host.
    expect(results[2]).toMatchObject({ value: { moved: true, generation: 2 } });
    expect(batcher.stats.splitBatches).toBe(0);
    expect(await usedOn(host.id)).toBe(4);
  });
});
