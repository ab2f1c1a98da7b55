// The scheduling service end to end on a real database: explain (dry run), schedule with claims,
// multi-create, moves, contention, and the candidate cache (Nova: test_scheduler / test_filter_scheduler).
import { randomUUID } from 'node:crypto';
import { createScheduling, type Scheduling } from '../../src/app/scheduling';
import { createServices, type Services } from '../../src/app/services';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/observability/logger';
import { ChangeBus } from '../../src/placement/change-bus';
import { createTestCache } from '../support/app';
import { createTestDb, realPostgresIt, type TestDb } from '../support/db';
import { buildResourceProvider } from '../support/factories';

const vcpu = (n: number, extra: Record<string, number> = {}) => ({
  groups: [
    {
      suffix: '',
      resources: { VCPU: n, ...extra },
      requiredTraits: [],
      forbiddenTraits: [],
      memberOf: [],
      forbiddenAggregates: [],
    },
  ],
});

describe('scheduling service', () => {
  let db: TestDb;
  let s: Services;
  let sched: Scheduling;
  const cache = createTestCache();

  beforeAll(async () => {
    db = await createTestDb();
    s = createServices(db.dataSource, new ChangeBus(`berth_changes_${db.schema}`));
    const config = loadConfig({
      NODE_ENV: 'test',
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter,AggregateInstanceExtraSpecsFilter',
      BERTH_SCHEDULER_WEIGHERS: 'CPUWeigher',
    });
    sched = createScheduling(config, s, cache, createLogger('silent'));
  });
  afterAll(async () => {
    await cache.close();
    await db.drop();
  });

  it.each([
    [
      { BERTH_SCHEDULER_FILTERS: 'RamFiltre' },
      /^BERTH_SCHEDULER_FILTERS: unknown scheduler filter "RamFiltre"; known filters: .*RamFilter/,
    ],
    [
      { BERTH_SCHEDULER_WEIGHERS: 'RamFilter' },
      /^BERTH_SCHEDULER_WEIGHERS: "RamFilter" is a filter, not a weigher$/,
    ],
    [
      { BERTH_SCHEDULER_CONFIG: '{"RamFiltre": {}}' },
      /^BERTH_SCHEDULER_CONFIG: configuration given for unknown scheduler plugin "RamFiltre"/,
    ],
    [
      { BERTH_SCHEDULER_CONFIG: '{"RamFilter": {"x": 1}}' },
      /^BERTH_SCHEDULER_CONFIG\.RamFilter: unknown configuration key "x"; it takes none$/,
    ],
    [
      { BERTH_SCHEDULER_PROFILES: '{"gpu": {"weighers": ["RamFilter"]}}' },
      /^BERTH_SCHEDULER_PROFILES: profile "gpu": weighers: "RamFilter" is a filter, not a weigher$/,
    ],
  ])('names the variable a bad scheduler setting came from: %j', (env, message) => {
    const config = loadConfig({ NODE_ENV: 'test', ...env });
    expect(() => createScheduling(config, s, cache, createLogger('silent'))).toThrow(message);
  });

  const request = (consumers: number, n = 1, extraSpecs: Record<string, string> = {}) => ({
    consumerUuids: Array.from({ length: consumers }, () => randomUUID()),
    projectId: 'p1',
    userId: 'u1',
    request: vcpu(n),
    extraSpecs,
  });

  it('explains: ranks hosts by free CPU (spread) and rejects with reasons', async () => {
    const agg = randomUUID();
    await s.aggregates.setMetadata(agg, 'ssd', [{ key: 'ssd', value: 'true' }]);
    const small = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
      aggregates: [agg],
    });
    const big = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 16 }],
      aggregates: [agg],
    });
    const plain = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 32 }],
    });
    const out = await sched.service.explain(request(1, 2, { ssd: 'true' }));
    const step = out.explanation.filters.find(
      (f) => f.plugin === 'AggregateInstanceExtraSpecsFilter',
    )!;
    expect(step.rejections.map((r) => r.host)).toContain(plain.uuid);
    const ranked = out.ranking
      .map((r) => r.host.uuid)
      .filter((u) => u === small.uuid || u === big.uuid);
    expect(ranked).toEqual([big.uuid, small.uuid]);
    expect(out.selections[0]!.hostUuid).toBe(out.ranking[0]!.host.uuid);
    // A dry run claims nothing.
    expect((await s.usages.byProviderIds([big.id])).get(big.id)).toEqual([
      { resourceClass: 'VCPU', used: 0 },
    ]);
    await s.providers.delete(plain.uuid);
    await s.providers.delete(small.uuid);
    await s.providers.delete(big.uuid);
  });

  it('sees aggregate metadata changes at once (the metadata cache is invalidated) and new usage', async () => {
    const agg = randomUUID();
    await s.aggregates.setMetadata(agg, 'fast', [{ key: 'ssd', value: 'true' }]);
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
      aggregates: [agg],
    });
    const passed = async () => {
      const out = await sched.service.explain(request(1, 1, { ssd: 'true' }));
      return out.ranking.some((r) => r.host.uuid === rp.uuid);
    };
    expect(await passed()).toBe(true);
    await s.aggregates.setMetadata(agg, 'fast', [{ key: 'ssd', value: 'false' }]);
    expect(await passed()).toBe(false);
    await s.aggregates.setMetadata(agg, 'fast', [{ key: 'ssd', value: 'true' }]);
    expect(await passed()).toBe(true);
    // The host view's usage follows allocations (from the index the change feed keeps current).
    const consumer = randomUUID();
    await s.allocations.set([
      {
        consumerUuid: consumer,
        projectId: 'p1',
        userId: 'u1',
        consumerGeneration: null,
        allocations: [{ providerUuid: rp.uuid, resources: { VCPU: 3 } }],
      },
    ]);
    const out = await sched.service.explain(request(1, 1, { ssd: 'true' }));
    const host = out.ranking.find((r) => r.host.uuid === rp.uuid)!.host;
    expect(host.root.inventories.VCPU).toMatchObject({ used: 3 });
    await s.allocations.deleteForConsumer(consumer);
    await s.providers.delete(rp.uuid);
  });

  it('gives plugins the whole tree of a nested host (root first, children with their parent)', async () => {
    const root = await buildResourceProvider(s, { traits: ['HW_CPU_X86_AVX2'] });
    const numa = await buildResourceProvider(s, {
      parentUuid: root.uuid,
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
      traits: ['HW_NUMA_ROOT'],
    });
    const out = await sched.service.explain(request(1, 2));
    const host = out.ranking.find((r) => r.host.uuid === root.uuid)!.host;
    expect(host.providers.map((p) => [p.uuid, p.parentUuid])).toEqual([
      [root.uuid, null],
      [numa.uuid, root.uuid],
    ]);
    expect(host.root.traits).toContain('HW_CPU_X86_AVX2');
    expect(host.providers[1]!.traits).toEqual(['HW_NUMA_ROOT']);
    expect(host.providers[1]!.inventories.VCPU).toMatchObject({ total: 8, used: 0 });
    expect(host.allocationRequests[0]!.allocations).toEqual({ [numa.uuid]: { VCPU: 2 } });
    await s.providers.delete(numa.uuid);
    await s.providers.delete(root.uuid);
  });

  it('schedules several consumers; later ones see earlier claims', async () => {
    const a = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 2 }],
    });
    const b = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 2 }],
    });
    const out = await sched.service.schedule(request(3, 1));
    expect(out.selections.map((x) => x.hostUuid).filter(Boolean)).toHaveLength(3);
    const used = await s.usages.byProviderIds([a.id, b.id]);
    const total = [...used.values()].flat().reduce((n, u) => n + u.used, 0);
    expect(total).toBe(3);
    for (const c of out.selections) {
      await s.allocations.deleteForConsumer(c.consumerUuid);
    }
    await s.providers.delete(a.uuid);
    await s.providers.delete(b.uuid);
  });

  it('adds allocations for a consumer that has some (a move) and answers "no valid host" with reasons', async () => {
    const src = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const consumer = randomUUID();
    await s.allocations.set([
      {
        consumerUuid: consumer,
        projectId: 'p1',
        userId: 'u1',
        consumerGeneration: null,
        allocations: [{ providerUuid: src.uuid, resources: { VCPU: 4 } }],
      },
    ]);
    const dst = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const out = await sched.service.schedule({ ...request(1, 4), consumerUuids: [consumer] });
    expect(out.selections[0]!.hostUuid).toBe(dst.uuid);
    const mine = await s.allocations.forConsumer(consumer);
    expect(mine.allocations.map((x) => [x.resourceProviderUuid, x.used]).sort()).toEqual(
      [
        [src.uuid, 4],
        [dst.uuid, 4],
      ].sort(),
    );
    const none = await sched.service.schedule(request(1, 64));
    expect(none.selections[0]).toMatchObject({
      hostUuid: null,
      reason: expect.stringMatching(/^No valid host/),
    });
    await s.allocations.deleteForConsumer(consumer);
    await s.providers.delete(src.uuid);
    await s.providers.delete(dst.uuid);
  });

  realPostgresIt(
    'lets exactly as many of 16 concurrent schedules land on a host as fit',
    async () => {
      const host = await buildResourceProvider(s, {
        inventories: [{ resourceClass: 'VCPU', total: 5 }],
      });
      const other = await buildResourceProvider(s, {
        inventories: [{ resourceClass: 'VCPU', total: 4 }],
      });
      const outs = await Promise.all(
        Array.from({ length: 16 }, () => sched.service.schedule(request(1, 1))),
      );
      const hosts = outs.map((o) => o.selections[0]!.hostUuid);
      expect(hosts.filter((h) => h === host.uuid)).toHaveLength(5);
      expect(hosts.filter((h) => h === other.uuid)).toHaveLength(4);
      const failed = outs.filter((o) => o.selections[0]!.hostUuid === null);
      expect(failed).toHaveLength(7);
      for (const f of failed) {
        expect(f.selections[0]!.reason).toMatch(/^No valid host/);
      }
      const used = await s.usages.byProviderIds([host.id, other.id]);
      expect(used.get(host.id)).toEqual([{ resourceClass: 'VCPU', used: 5 }]);
      expect(used.get(other.id)).toEqual([{ resourceClass: 'VCPU', used: 4 }]);
    },
  );

  it('shares one evaluation between identical requests until something changes', async () => {
    const rp = await buildResourceProvider(s, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const req = request(1, 1);
    await sched.service.explain(req);
    const { computed, shared } = sched.service.evaluations.stats;
    // Another consumer, same flavor: the filter/weigher pass is shared.
    const again = await sched.service.explain({ ...req, consumerUuids: [randomUUID()] });
    expect(sched.service.evaluations.stats).toEqual({ computed, shared: shared + 1 });
    expect(again.ranking.map((r) => r.host.uuid)).toContain(rp.uuid);
    await s.providerTraits.set(rp.uuid, (await s.providers.get(rp.uuid)).generation, [
      'COMPUTE_STATUS_DISABLED',
    ]);
    const after = await sched.service.explain(req);
    expect(sched.service.evaluations.stats).toEqual({ computed: computed + 1, shared: shared + 1 });
    expect(after.ranking.map((r) => r.host.uuid)).not.toContain(rp.uuid);
  });
});
