// capacityHistory: samples written by sampleNow (once per bucket, however many replicas sample
// it), read back per resource class for the cloud or one aggregate, down-sampled to `points`
// keeping each step's busiest sample, pruned past the retention; bad arguments answer stable
// codes, and member tokens are refused at the root.
import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/observability/logger';
import { CapacityHistoryService } from '../../src/placement/capacity-history';
import { startCapacitySampler } from '../../src/server/capacity-sampler';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { codes, gql } from '../support/graphql';

const HISTORY = `query History($hours: Int, $classes: [String!], $aggregate: ID, $points: Int) {
  capacityHistory(hours: $hours, resourceClasses: $classes, aggregate: $aggregate, points: $points) {
    intervalSeconds retentionSeconds stepSeconds
    series { resourceClass aggregateUuid aggregate { uuid } points { at capacity used utilisation } }
  }
}`;

const INTERVAL = 300;
const RETENTION = 14 * 86_400;

describe('capacityHistory', () => {
  let t: TestApp;
  const agg = randomUUID();
  let host: string;

  beforeAll(async () => {
    t = await createTestApp();
    host = (
      await buildResourceProvider(t.app.services, {
        inventories: [
          { resourceClass: 'VCPU', total: 16, allocationRatio: 4 },
          { resourceClass: 'MEMORY_MB', total: 65_536, reserved: 512 },
        ],
        aggregates: [agg],
      })
    ).uuid;
    await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    await t.app.services.allocations.set([claim(host, { VCPU: 6, MEMORY_MB: 2048 })]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads back the cloud and one aggregate per class after sampleNow', async () => {
    expect(await t.app.services.capacityHistory.sampleNow()).toBeGreaterThan(0);
    const cloudWide = await gql(t.app, HISTORY, {});
    expect(cloudWide.errors).toBeUndefined();
    const h = cloudWide.data.capacityHistory;
    expect(h).toMatchObject({
      intervalSeconds: INTERVAL,
      retentionSeconds: RETENTION,
      stepSeconds: INTERVAL,
    });
    expect(h.series.map((s: any) => [s.resourceClass, s.aggregateUuid, s.aggregate])).toEqual([
      ['MEMORY_MB', null, null],
      ['VCPU', null, null],
    ]);
    const [memory, vcpu] = h.series;
    expect(vcpu.points).toHaveLength(1);
    expect(vcpu.points[0]).toMatchObject({ capacity: 64 + 8, used: 6, utilisation: 6 / 72 });
    expect(memory.points[0]).toMatchObject({ capacity: 65_024, used: 2048 });
    expect(new Date(vcpu.points[0].at).getTime() % (INTERVAL * 1000)).toBe(0);

    const one = await gql(t.app, HISTORY, { aggregate: agg, classes: ['VCPU'] });
    expect(one.errors).toBeUndefined();
    expect(one.data.capacityHistory.series).toEqual([
      {
        resourceClass: 'VCPU',
        aggregateUuid: agg,
        aggregate: { uuid: agg },
        points: [expect.objectContaining({ capacity: 64, used: 6 })],
      },
    ]);
  });

  it('writes a bucket once when two replicas sample it', async () => {
    const fixed = Date.now() - 3 * 86_400_000;
    const replica = (n: number) =>
      new CapacityHistoryService(
        t.app.dataSource,
        t.app.services.candidates,
        { intervalSeconds: INTERVAL, retentionSeconds: RETENTION },
        () => fixed + n,
      );
    const [a, b] = await Promise.all([replica(0).sampleNow(), replica(1).sampleNow()]);
    expect(a + b).toBe(2 + 2); // cloud VCPU and MEMORY_MB, the aggregate's VCPU and MEMORY_MB
    expect(Math.min(a, b)).toBe(0);
    const rows = await t.app.dataSource.query(
      'SELECT count(*)::int AS n FROM capacity_samples WHERE bucket = to_timestamp($1)',
      [Math.floor(fixed / 1000 / INTERVAL) * INTERVAL],
    );
    expect(rows).toEqual([{ n: 4 }]);
  });

  it('down-samples to the points asked for, keeping the most used per step', async () => {
    // Twelve buckets of the last hour and a half, with VCPU used going 7, 8, …, 18 over time.
    const clock = { now: 0 };
    const sampler = new CapacityHistoryService(
      t.app.dataSource,
      t.app.services.candidates,
      { intervalSeconds: INTERVAL, retentionSeconds: RETENTION },
      () => clock.now,
    );
    await t.app.dataSource.query('DELETE FROM capacity_samples');
    const start = Date.now() - 12 * INTERVAL * 1000;
    const consumers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const consumer = randomUUID();
      consumers.push(consumer);
      await t.app.services.allocations.set([claim(host, { VCPU: 1 }, consumer)]);
      clock.now = start + i * INTERVAL * 1000;
      await sampler.sampleNow();
    }
    const raw = await gql(t.app, HISTORY, { hours: 2, classes: ['VCPU'] });
    expect(raw.data.capacityHistory.stepSeconds).toBe(INTERVAL);
    expect(raw.data.capacityHistory.series[0].points.map((p: any) => p.used)).toEqual([
      7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
    ]);
    // 2 h at 300 s = 24 buckets; 6 points -> steps of 1200 s (4 buckets), each its maximum.
    const coarse = await gql(t.app, HISTORY, { hours: 2, classes: ['VCPU'], points: 6 });
    const c = coarse.data.capacityHistory;
    expect(c.stepSeconds).toBe(4 * INTERVAL);
    // The oracle: the raw points grouped by 1200 s step (epoch-aligned), each step's maximum.
    const step = 4 * INTERVAL * 1000;
    const want = new Map<number, number>();
    for (const p of raw.data.capacityHistory.series[0].points) {
      const at = Math.floor(new Date(p.at).getTime() / step) * step;
      want.set(at, Math.max(want.get(at) ?? 0, p.used));
    }
    expect(c.series[0].points).toEqual(
      [...want].map(([at, used]) => ({
        at: new Date(at).toISOString(),
        capacity: 72,
        used,
        utilisation: used / 72,
      })),
    );
    expect(want.size).toBeLessThanOrEqual(6);
    for (const consumer of consumers) {
      await t.app.services.allocations.deleteForConsumer(consumer);
    }
  });

  it('prunes samples past the retention as it samples', async () => {
    const clock = { now: Date.now() - 20 * 86_400_000 };
    const sampler = new CapacityHistoryService(
      t.app.dataSource,
      t.app.services.candidates,
      { intervalSeconds: INTERVAL, retentionSeconds: RETENTION },
      () => clock.now,
    );
    await sampler.sampleNow();
    const old =
      "SELECT count(*)::int AS n FROM capacity_samples WHERE bucket < now() - interval '14 days'";
    expect(await t.app.dataSource.query(old)).toEqual([{ n: 4 }]);
    clock.now = Date.now();
    await sampler.sampleNow();
    expect(await t.app.dataSource.query(old)).toEqual([{ n: 0 }]);
  });

  it('samples on its own once started, and stops', async () => {
    await t.app.dataSource.query('DELETE FROM capacity_samples');
    const stop = startCapacitySampler(t.app.services.capacityHistory, createLogger('silent'), {
      firstDelayMs: 0,
    });
    const count = async () =>
      (await t.app.dataSource.query('SELECT count(*)::int AS n FROM capacity_samples'))[0].n;
    while ((await count()) === 0) {
      await new Promise((r) => setTimeout(r, 20));
    }
    await stop();
    // Cloud and aggregate, VCPU and MEMORY_MB, in every bucket sampled (one, unless a bucket
    // started just then).
    const perBucket = await t.app.dataSource.query(
      'SELECT count(*)::int AS n FROM capacity_samples GROUP BY bucket',
    );
    expect(perBucket.map((r: { n: number }) => r.n)).toEqual(perBucket.map(() => 4));
  });

  it.each([
    [{ hours: 0 }, 'berth.invalid_input'],
    [{ hours: 14 * 24 + 1 }, 'berth.invalid_input'],
    [{ points: 0 }, 'berth.invalid_input'],
    [{ points: 2001 }, 'berth.invalid_input'],
    [{ aggregate: 'not-a-uuid' }, 'berth.invalid_uuid'],
  ])('answers %p with %s and no data', async (vars, code) => {
    const res = await gql(t.app, HISTORY, vars);
    expect(codes(res)).toEqual([code]);
    expect(res.data).toBeNull();
  });
});

describe.each(['BERTH_CAPACITY_HISTORY_INTERVAL', 'BERTH_CAPACITY_HISTORY_RETENTION'])(
  'capacityHistory when off (%s=0)',
  (setting) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ [setting]: '0' });
    });
    afterAll(async () => {
      await t.close();
    });

    it('samples nothing and answers no series', async () => {
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      });
      expect(await t.app.services.capacityHistory.sampleNow()).toBe(0);
      const res = await gql(t.app, HISTORY, { hours: 48 });
      expect(res).toEqual({
        data: {
          capacityHistory: {
            intervalSeconds: 0,
            retentionSeconds: 0,
            stepSeconds: 0,
            series: [],
          },
        },
      });
    });
  },
);

describe('capacityHistory access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses member tokens at the root and answers readers', async () => {
    const member = (await t.app.tokens.create({ role: 'member', project: 'p' })).token;
    const reader = (await t.app.tokens.create({ role: 'reader' })).token;
    const asMember = await gql(t.app, HISTORY, {}, { authorization: `Bearer ${member}` });
    expect(codes(asMember)).toEqual(['berth.forbidden']);
    expect(asMember.data ?? null).toBeNull();
    const asReader = await gql(t.app, HISTORY, {}, { authorization: `Bearer ${reader}` });
    expect(asReader.errors).toBeUndefined();
    expect(asReader.data.capacityHistory.series).toEqual([]);
  });
});
