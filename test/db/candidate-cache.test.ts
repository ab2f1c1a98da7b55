// The candidate cache's shared layer on a real database and the configured cache backend (Redis
// when REDIS_URL is set): it answers identical requests until a change (local, or heard from
// another replica) moves its epoch, serves another replica, and steps aside while it does not pay.

import { createServices, type Services } from '../../src/app/services';
import type { Cache } from '../../src/cache/cache';
import { ChangeBus } from '../../src/placement/change-bus';
import { CandidateCache } from '../../src/scheduler/state/candidate-cache';
import { createTestCache } from '../support/app';
import { createTestDb, type TestDb } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

const vcpu = (n: number, extra: { randomize?: boolean } = {}) => ({
  groups: [
    {
      suffix: '',
      resources: { VCPU: n },
      requiredTraits: [],
      forbiddenTraits: [],
      memberOf: [],
      forbiddenAggregates: [],
    },
  ],
  ...extra,
});

describe('candidate cache', () => {
  let db: TestDb;
  let s: Services;
  let bus: ChangeBus;
  let backend: Cache;
  let cache: CandidateCache;
  /** Lookups the shared backend has served (hits + misses). */
  const sharedLookups = () => backend.stats.hits + backend.stats.misses;

  beforeAll(async () => {
    db = await createTestDb();
    bus = new ChangeBus(`berth_changes_${db.schema}`);
    s = createServices(db.dataSource, bus);
    backend = createTestCache();
    cache = new CandidateCache(backend, bus, 60000, 'gated');
  });
  afterAll(async () => {
    await backend.close();
    await db.drop();
  });

  it('answers a repeated request from the shared layer until a change moves the epoch', async () => {
    const host = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 3 }],
    });
    const req = vcpu(3);
    const first = await cache.getOrCompute(req, s.candidates);
    expect(first.allocationRequests.map((a) => a.allocations[0]!.providerUuid)).toContain(
      host.uuid,
    );
    const { hits, misses } = cache.stats;
    const second = await cache.getOrCompute(req, s.candidates);
    expect(second).toEqual(first);
    expect(cache.stats).toMatchObject({ hits: hits + 1, misses });

    // A local write moves the epoch: recomputed from the index, the host now full.
    await s.allocations.set([claim(host.uuid, { VCPU: 1 })]);
    const third = await cache.getOrCompute(req, s.candidates);
    expect(cache.stats).toMatchObject({ hits: hits + 1, misses: misses + 1 });
    expect(third.allocationRequests.map((a) => a.allocations[0]!.providerUuid)).not.toContain(
      host.uuid,
    );
  });

  it('answers afresh once a change heard from another replica is applied', async () => {
    const host = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 2 }],
    });
    const req = vcpu(2);
    const before = await cache.getOrCompute(req, s.candidates);
    expect(
      before.allocationRequests.some((a) => a.allocations[0]!.providerUuid === host.uuid),
    ).toBe(true);
    // Another replica reserves the host's whole inventory (behind this replica's back), bumps the
    // shared epoch as every writer does, and its NOTIFY arrives here as a remote change.
    await db.dataSource.query(
      `UPDATE inventories SET reserved = total WHERE resource_provider_id = $1`,
      [host.id],
    );
    const writerBus = new ChangeBus(`berth_changes_${db.schema}`);
    new CandidateCache(backend, writerBus, 60000, 'gated');
    writerBus.publish({ kind: 'providers', ids: [host.id] }, 'local');
    const hits = cache.stats.hits;
    bus.publish({ kind: 'providers', ids: [host.id] }, 'remote');
    const after = await cache.getOrCompute(req, s.candidates);
    expect(cache.stats.hits).toBe(hits);
    expect(after.allocationRequests.some((a) => a.allocations[0]!.providerUuid === host.uuid)).toBe(
      false,
    );
  });

  // Replicas share answers through Redis; the in-process backend is one process's own.
  const withRedis = process.env.REDIS_URL ? it : it.skip;
  if (!process.env.REDIS_URL) {
    process.stdout.write(
      '[berth tests] REDIS_URL unset: cross-replica candidate sharing skipped\n',
    );
  }

  withRedis('shares answers with another replica through the shared layer', async () => {
    await buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 5 }] });
    const req = vcpu(5);
    const mine = await cache.getOrCompute(req, s.candidates);
    // A second replica: its own index, the same shared backend and database.
    const otherBus = new ChangeBus(`berth_changes_${db.schema}`);
    const other = new CandidateCache(backend, otherBus, 60000, 'gated');
    const theirs = await other.getOrCompute(
      req,
      createServices(db.dataSource, otherBus).candidates,
    );
    expect(other.stats).toMatchObject({ hits: 1, misses: 0 });
    expect(theirs).toEqual(mine);
  });

  it('never caches randomised requests', async () => {
    await buildResourceProvider(s, { inventories: [{ resourceClass: 'VCPU', total: 7 }] });
    const stats = { ...cache.stats };
    const lookups = sharedLookups();
    await cache.getOrCompute(vcpu(7, { randomize: true }), s.candidates);
    await cache.getOrCompute(vcpu(7, { randomize: true }), s.candidates);
    expect(cache.stats).toMatchObject(stats);
    expect(sharedLookups()).toBe(lookups);
  });

  it('stops consulting the shared layer while every entry dies unread, and says so', async () => {
    const gated = new CandidateCache(backend, bus, 60000, 'gated', {
      window: 4,
      minHitRate: 1 / 4,
      probeEvery: 3,
    });
    const host = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 100 }],
    });
    // A claim between lookups: each lookup finds a new epoch (a miss).
    const lookupAfterClaim = async () => {
      await s.allocations.set([claim(host.uuid, { VCPU: 1 })]);
      return gated.getOrCompute(vcpu(1), s.candidates);
    };
    for (let i = 0; i < 4; i++) {
      await lookupAfterClaim();
    }
    const lookups = sharedLookups();
    for (let i = 0; i < 6; i++) {
      await lookupAfterClaim();
    }
    // Six lookups, two of them probes; each probe reads the epoch and the entry.
    expect(gated.stats).toMatchObject({ misses: 10, sharedBypassed: 4 });
    if (backend.kind === 'redis') {
      expect(sharedLookups() - lookups).toBe(4);
    }
    // Answers stay exact: the last one saw the 10 claims.
    const last = await gated.getOrCompute(vcpu(91), s.candidates);
    expect(last.allocationRequests.map((a) => a.allocations[0]!.providerUuid)).not.toContain(
      host.uuid,
    );
  });

  it.each([
    ['always', 10, 0],
    ['off', 0, 0],
  ] as const)(
    'with the shared layer %s: %i shared lookups in 10 after claims, %i bypassed',
    async (mode, consulted, bypassed) => {
      // A backend of its own: in process, another CandidateCache's entries could share its keys.
      const own = createTestCache();
      try {
        const layered = new CandidateCache(own, bus, 60000, mode, {
          window: 4,
          minHitRate: 1 / 4,
          probeEvery: 3,
        });
        const host = await buildResourceProvider(s, {
          inventories: [{ resourceClass: 'VCPU', total: 100 }],
        });
        const lookups = () => own.stats.hits + own.stats.misses;
        for (let i = 0; i < 10; i++) {
          await s.allocations.set([claim(host.uuid, { VCPU: 1 })]);
          await layered.getOrCompute(vcpu(1), s.candidates);
        }
        expect(layered.stats).toMatchObject({ misses: 10, sharedBypassed: bypassed });
        // Each consulted lookup reads the epoch and the entry on Redis; in process, the entry.
        const perLookup = own.kind === 'redis' ? 2 : 1;
        expect(lookups()).toBe(consulted * perLookup);
        // No change since: the same request again is the layer's when it is on.
        const again = await layered.getOrCompute(vcpu(1), s.candidates);
        expect(layered.stats.hits).toBe(mode === 'always' ? 1 : 0);
        expect(again.allocationRequests.length).toBeGreaterThan(0);
      } finally {
        await own.close();
      }
    },
  );
});
