// Multi-create is all or nothing (Nova select_destinations: when not every instance can be placed,
// the claims already made are cleaned up): a later consumer's failure — no valid host, or a claim
// refused by quota — releases the claims made earlier in the same call, and says why.
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const SCHEDULE = `mutation S($input: ScheduleInput!) {
  schedule(input: $input) { selections { consumerUuid host { uuid } reason } }
}`;
const SET = `mutation S($input: [ConsumerAllocationsInput!]!) {
  setAllocations(input: $input) { uuid generation }
}`;
const QUOTA = `mutation Q($input: QuotaLimitsInput!) { setQuotaLimits(input: $input) { projectId } }`;
const CONSUMER = `query C($uuid: ID!) {
  consumer(uuid: $uuid) { generation allocations { provider { uuid } resourceClass used } move { destinationHost { uuid } } }
}`;

describe('multi-create is all or nothing', () => {
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

  /** Fresh hosts with these VCPU totals (the previous test's hosts are removed). */
  async function hostsWith(...totals: number[]) {
    for (const h of hosts) {
      await t.app.services.providers.delete(h).catch(() => undefined);
    }
    hosts = [];
    for (const total of totals) {
      const rp = await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total }],
      });
      hosts.push(rp.uuid);
    }
    return hosts;
  }

  async function usedOn(uuids: string[]): Promise<number> {
    const ids = await Promise.all(
      uuids.map(async (u) => (await t.app.services.providers.get(u)).id),
    );
    const usage = await t.app.services.usages.byProviderIds(ids);
    return [...usage.values()].flat().reduce((n, u) => n + u.used, 0);
  }

  const input = (consumerUuids: string[], projectId = 'p') => ({
    input: {
      consumerUuids,
      projectId,
      userId: 'u',
      request: { groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
    },
  });

  it('places every consumer when all fit', async () => {
    const hs = await hostsWith(1, 1, 1);
    const consumers = [randomUUID(), randomUUID(), randomUUID()];
    const r = await gql(t.app, SCHEDULE, input(consumers));
    expect(r.errors).toBeUndefined();
    expect(
      r.data.schedule.selections.map((s: { host: { uuid: string } }) => s.host.uuid).sort(),
    ).toEqual([...hs].sort());
    expect(await usedOn(hs)).toBe(3);
    for (const c of consumers) {
      await t.app.services.allocations.deleteForConsumer(c);
    }
  });

  it('releases the earlier claims when a later consumer finds no host', async () => {
    const hs = await hostsWith(1, 1);
    const consumers = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const r = await gql(t.app, SCHEDULE, input(consumers));
    expect(r.errors).toBeUndefined();
    const sel = r.data.schedule.selections as {
      consumerUuid: string;
      host: null;
      reason: string;
    }[];
    expect(sel.map((s) => s.consumerUuid)).toEqual(consumers);
    expect(sel.every((s) => s.host === null)).toBe(true);
    expect(sel[0]!.reason).toMatch(/^Released: multi-create of 4 is all or nothing/);
    expect(sel[0]!.reason).toContain(`consumer ${consumers[2]} could not be placed`);
    expect(sel[0]!.reason).toContain('2 earlier claim(s) released');
    expect(sel[2]!.reason).toMatch(/^No valid host/);
    expect(sel[3]!.reason).toMatch(/^Not attempted: /);
    expect(await usedOn(hs)).toBe(0);
    for (const c of consumers) {
      expect((await gql(t.app, CONSUMER, { uuid: c })).data.consumer).toBeNull();
    }
  });

  it('releases the earlier claims and reports the quota error when a later claim is over quota', async () => {
    const hs = await hostsWith(4, 4);
    const project = `q-${randomUUID()}`;
    const q = await gql(t.app, QUOTA, {
      input: { projectId: project, limits: [{ resource: 'VCPU', limit: 2 }] },
    });
    expect(q.errors).toBeUndefined();
    const consumers = [randomUUID(), randomUUID(), randomUUID()];
    const r = await gql(t.app, SCHEDULE, input(consumers, project));
    expect(firstError(r)).toMatchObject({
      code: 'berth.quota.exceeded',
      message: expect.stringContaining('2 earlier claim(s) released'),
    });
    expect(await usedOn(hs)).toBe(0);
    // Within the limit the same request succeeds.
    const ok = await gql(t.app, SCHEDULE, input(consumers.slice(0, 2), project));
    expect(ok.errors).toBeUndefined();
    expect(await usedOn(hs)).toBe(2);
    for (const c of consumers) {
      await t.app.services.allocations.deleteForConsumer(c).catch(() => undefined);
    }
  });

  it('restores a moving consumer to its source allocations when a later consumer fails', async () => {
    const [source] = await hostsWith(1);
    const mover = randomUUID();
    await gql(t.app, SET, {
      input: [
        {
          consumerUuid: mover,
          projectId: 'p',
          userId: 'u',
          consumerGeneration: null,
          allocations: [
            { providerUuid: source, resources: [{ resourceClass: 'VCPU', amount: 1 }] },
          ],
        },
      ],
    });
    const before = (await gql(t.app, CONSUMER, { uuid: mover })).data.consumer;
    const dest = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 1 }],
    });
    hosts.push(dest.uuid);
    const r = await gql(t.app, SCHEDULE, input([mover, randomUUID()]));
    expect(r.errors).toBeUndefined();
    expect(r.data.schedule.selections[0].reason).toMatch(/^Released: /);
    const after = (await gql(t.app, CONSUMER, { uuid: mover })).data.consumer;
    expect(after.allocations).toEqual([
      { provider: { uuid: source }, resourceClass: 'VCPU', used: 1 },
    ]);
    expect(after.move).toBeNull();
    // Claimed once and restored once.
    expect(after.generation).toBe(before.generation + 2);
    expect(await usedOn([dest.uuid])).toBe(0);
  });
});
