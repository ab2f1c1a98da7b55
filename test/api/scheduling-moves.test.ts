// confirmMove / revertMove over GraphQL: `schedule` for a consumer that already holds allocations
// doubles them (source + destination) and records the move; confirm drops the source, revert the
// destination, each atomically with the consumer generation; concurrent confirm vs revert leaves
// exactly one side (Nova: confirm_resize / revert_resize).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, type GqlResponse, gql } from '../support/graphql';

const SET = `mutation S($input: [ConsumerAllocationsInput!]!) {
  setAllocations(input: $input) { uuid generation }
}`;
const SCHEDULE = `mutation S($input: ScheduleInput!) {
  schedule(input: $input) { selections { consumerUuid host { uuid } reason } }
}`;
const CONSUMER = `query C($uuid: ID!) {
  consumer(uuid: $uuid) {
    uuid generation
    allocations { provider { uuid } resourceClass used }
    move {
      destinationHost { uuid }
      source { provider { uuid } resources { resourceClass amount } }
      destination { provider { uuid } resources { resourceClass amount } }
    }
  }
}`;
const CONFIRM = `mutation M($input: EndMoveInput!) {
  confirmMove(input: $input) { uuid generation allocations { provider { uuid } resourceClass used } }
}`;
const REVERT = `mutation M($input: EndMoveInput!) {
  revertMove(input: $input) { uuid generation allocations { provider { uuid } resourceClass used } }
}`;

type Alloc =
  | { provider: { uuid: string }; resources: { resourceClass: string; amount: number }[] }
  | { provider: { uuid: string }; resourceClass: string; used: number };

/** provider uuid -> "CLASS=n,..." sorted, for comparisons (grouped or flat allocation rows). */
function flat(allocs: Alloc[]): Record<string, string> {
  const out: Record<string, string[]> = {};
  for (const a of allocs) {
    const list = out[a.provider.uuid] ?? [];
    out[a.provider.uuid] = list;
    if ('resources' in a) {
      list.push(...a.resources.map((r) => `${r.resourceClass}=${r.amount}`));
    } else {
      list.push(`${a.resourceClass}=${a.used}`);
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.sort().join(',')]));
}

describe('confirmMove / revertMove', () => {
  let t: TestApp;
  let hosts: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      BERTH_SCHEDULER_FILTERS: 'ComputeFilter',
      BERTH_SCHEDULER_WEIGHERS: 'CPUWeigher',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A consumer on a fresh source host, and a fresh destination host; other hosts are full. */
  async function placed(vcpu = 2) {
    for (const h of hosts) {
      await t.app.services.providers.delete(h).catch(() => undefined);
    }
    const source = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: vcpu }],
    });
    const consumer = randomUUID();
    const set = await gql(t.app, SET, {
      input: [
        {
          consumerUuid: consumer,
          projectId: 'p',
          userId: 'u',
          consumerGeneration: null,
          allocations: [
            { providerUuid: source.uuid, resources: [{ resourceClass: 'VCPU', amount: vcpu }] },
          ],
        },
      ],
    });
    expect(set.errors).toBeUndefined();
    const dest = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: vcpu }],
    });
    hosts = [source.uuid, dest.uuid];
    return { source: source.uuid, dest: dest.uuid, consumer };
  }

  function schedule(consumer: string, vcpu = 2): Promise<GqlResponse> {
    return gql(t.app, SCHEDULE, {
      input: {
        consumerUuids: [consumer],
        projectId: 'p',
        userId: 'u',
        request: { groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount: vcpu }] }] },
      },
    });
  }

  async function consumer(uuid: string) {
    const r = await gql(t.app, CONSUMER, { uuid });
    expect(r.errors).toBeUndefined();
    return r.data.consumer;
  }

  it('schedule doubles the allocations and records which side is which', async () => {
    const { source, dest, consumer: c } = await placed();
    const r = await schedule(c);
    expect(r.errors).toBeUndefined();
    expect(r.data.schedule.selections[0].host.uuid).toBe(dest);
    const now = await consumer(c);
    expect(flat(now.allocations)).toEqual({ [source]: 'VCPU=2', [dest]: 'VCPU=2' });
    expect(now.move.destinationHost.uuid).toBe(dest);
    expect(flat(now.move.source)).toEqual({ [source]: 'VCPU=2' });
    expect(flat(now.move.destination)).toEqual({ [dest]: 'VCPU=2' });
  });

  it('confirmMove drops the source side; a second confirm says no move is in progress', async () => {
    const { source, dest, consumer: c } = await placed();
    await schedule(c);
    const before = await consumer(c);
    const r = await gql(t.app, CONFIRM, { input: { consumerUuid: c } });
    expect(r.errors).toBeUndefined();
    expect(flat(r.data.confirmMove.allocations)).toEqual({ [dest]: 'VCPU=2' });
    expect(r.data.confirmMove.generation).toBe(before.generation + 1);
    expect((await consumer(c)).move).toBeNull();
    const usage = await t.app.services.usages.byProviderIds([
      (await t.app.services.providers.get(source)).id,
    ]);
    expect([...usage.values()].flat().reduce((n, u) => n + u.used, 0)).toBe(0);
    const again = await gql(t.app, CONFIRM, { input: { consumerUuid: c } });
    expect(firstError(again)).toMatchObject({
      code: 'berth.move.not_in_progress',
      status: 409,
      message: expect.stringContaining('no move in progress'),
    });
  });

  it('revertMove drops the destination side', async () => {
    const { source, consumer: c } = await placed();
    await schedule(c);
    const r = await gql(t.app, REVERT, { input: { consumerUuid: c } });
    expect(r.errors).toBeUndefined();
    expect(flat(r.data.revertMove.allocations)).toEqual({ [source]: 'VCPU=2' });
    expect((await consumer(c)).move).toBeNull();
  });

  it('refuses a stale consumer generation and writes nothing', async () => {
    const { source, dest, consumer: c } = await placed();
    await schedule(c);
    const gen = (await consumer(c)).generation;
    const r = await gql(t.app, CONFIRM, {
      input: { consumerUuid: c, consumerGeneration: gen - 1 },
    });
    expect(firstError(r)?.code).toBe('placement.concurrent_update');
    const now = await consumer(c);
    expect(flat(now.allocations)).toEqual({ [source]: 'VCPU=2', [dest]: 'VCPU=2' });
    expect(now.move).not.toBeNull();
    const ok = await gql(t.app, CONFIRM, { input: { consumerUuid: c, consumerGeneration: gen } });
    expect(ok.errors).toBeUndefined();
  });

  it('refuses to start a second move while one is in progress', async () => {
    const { consumer: c } = await placed(1);
    await schedule(c, 1);
    const third = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 1 }],
    });
    hosts.push(third.uuid);
    const r = await schedule(c, 1);
    expect(firstError(r)).toMatchObject({
      code: 'berth.move.in_progress',
      message: expect.stringContaining('confirm or revert it first'),
    });
    expect(Object.keys(flat((await consumer(c)).allocations))).toHaveLength(2);
  });

  it('answers no move in progress for a consumer that never moved, and for an unknown one', async () => {
    const { consumer: c } = await placed();
    for (const uuid of [c, randomUUID()]) {
      const r = await gql(t.app, REVERT, { input: { consumerUuid: uuid } });
      expect(firstError(r)?.code).toBe('berth.move.not_in_progress');
    }
    const bad = await gql(t.app, REVERT, { input: { consumerUuid: 'nope' } });
    expect(firstError(bad)?.status).toBe(400);
  });

  it('keeps the shared amounts right when both sides use the same provider', async () => {
    // The consumer stays on one tree's shared provider (DISK) while VCPU moves: the doubled DISK
    // is one summed row, which only the recorded amounts can split.
    for (const h of hosts) {
      await t.app.services.providers.delete(h).catch(() => undefined);
    }
    const agg = randomUUID();
    const shared = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 100 }],
      traits: ['MISC_SHARES_VIA_AGGREGATE'],
      aggregates: [agg],
    });
    const source = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 2 }],
      aggregates: [agg],
    });
    const c = randomUUID();
    await gql(t.app, SET, {
      input: [
        {
          consumerUuid: c,
          projectId: 'p',
          userId: 'u',
          consumerGeneration: null,
          allocations: [
            { providerUuid: source.uuid, resources: [{ resourceClass: 'VCPU', amount: 2 }] },
            { providerUuid: shared.uuid, resources: [{ resourceClass: 'DISK_GB', amount: 10 }] },
          ],
        },
      ],
    });
    const dest = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 2 }],
      aggregates: [agg],
    });
    hosts = [source.uuid, dest.uuid];
    const r = await gql(t.app, SCHEDULE, {
      input: {
        consumerUuids: [c],
        projectId: 'p',
        userId: 'u',
        request: {
          groups: [
            {
              suffix: '',
              resources: [
                { resourceClass: 'VCPU', amount: 2 },
                { resourceClass: 'DISK_GB', amount: 10 },
              ],
            },
          ],
        },
      },
    });
    expect(r.errors).toBeUndefined();
    expect(r.data.schedule.selections[0].host.uuid).toBe(dest.uuid);
    expect(flat((await consumer(c)).allocations)).toEqual({
      [source.uuid]: 'VCPU=2',
      [dest.uuid]: 'VCPU=2',
      [shared.uuid]: 'DISK_GB=20',
    });
    const confirmed = await gql(t.app, CONFIRM, { input: { consumerUuid: c } });
    expect(confirmed.errors).toBeUndefined();
    expect(flat(confirmed.data.confirmMove.allocations)).toEqual({
      [dest.uuid]: 'VCPU=2',
      [shared.uuid]: 'DISK_GB=10',
    });
    await gql(t.app, SET, {
      input: [
        {
          consumerUuid: c,
          projectId: 'p',
          userId: 'u',
          consumerGeneration: confirmed.data.confirmMove.generation,
          allocations: [],
        },
      ],
    });
    await t.app.services.providers.delete(shared.uuid);
  });

  it('concurrent confirm and revert: exactly one wins and exactly one side is left', async () => {
    for (let round = 0; round < 4; round++) {
      const { source, dest, consumer: c } = await placed();
      await schedule(c);
      const [confirm, revert] = await Promise.all([
        gql(t.app, CONFIRM, { input: { consumerUuid: c } }),
        gql(t.app, REVERT, { input: { consumerUuid: c } }),
      ]);
      const wins = [confirm, revert].filter((r) => !r.errors);
      expect(wins).toHaveLength(1);
      const loser = [confirm, revert].find((r) => r.errors)!;
      expect(firstError(loser)?.code).toBe('berth.move.not_in_progress');
      const left = flat((await consumer(c)).allocations);
      expect(left).toEqual(confirm.errors ? { [source]: 'VCPU=2' } : { [dest]: 'VCPU=2' });
      expect((await consumer(c)).move).toBeNull();
    }
  });
});
