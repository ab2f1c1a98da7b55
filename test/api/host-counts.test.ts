// HostView.numInstances / numIoOps as scheduling sees them, end to end: allocations written through
// GraphQL reach the capacity index (per-provider consumers and moves), the host views count each
// consumer once per tree, and NumInstancesFilter / IoOpsFilter reject on those counts; a move in
// progress counts on both its source and destination host until it is confirmed (on its source only
// with `countMovesOn: "source"`, Nova's count: the consumer's recorded source allocations are read
// into the index with the move).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';

const SET = `mutation S($input: [ConsumerAllocationsInput!]!) {
  setAllocations(input: $input) { uuid }
}`;
const SCHEDULE = `mutation S($input: ScheduleInput!) {
  schedule(input: $input) { selections { host { uuid } reason } }
}`;
const CONFIRM = `mutation M($input: EndMoveInput!) { confirmMove(input: $input) { uuid } }`;
const EXPLAIN = `query E($i: ScheduleInput!) { explainPlacement(input: $i) {
  filterSteps { filter rejections { host { name } reason } }
} }`;

const vcpu = (amount: number) => ({
  groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount }] }],
});

describe('host instance and I/O-operation counts', () => {
  let t: TestApp;
  const names = {
    busy: `busy-${randomUUID()}`,
    empty: `empty-${randomUUID()}`,
    full: `full-${randomUUID()}`,
  };
  let mover = '';

  async function allocate(consumer: string, allocations: object[]) {
    const r = await gql(t.app, SET, {
      input: [
        {
          consumerUuid: consumer,
          projectId: 'p',
          userId: 'u',
          consumerGeneration: null,
          allocations,
        },
      ],
    });
    expect(r.errors).toBeUndefined();
  }

  /** filter name -> `host: reason` of its rejections, for a 1-VCPU request. */
  async function rejections(profile?: string): Promise<Record<string, string[]>> {
    const r = await gql(t.app, EXPLAIN, {
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'p',
        userId: 'u',
        request: vcpu(1),
        ...(profile ? { profile } : {}),
      },
    });
    expect(r.errors).toBeUndefined();
    return Object.fromEntries(
      r.data.explainPlacement.filterSteps.map(
        (s: { filter: string; rejections: { host: { name: string }; reason: string }[] }) => [
          s.filter,
          s.rejections.map((x) => `${x.host.name}: ${x.reason}`).sort(),
        ],
      ),
    );
  }

  beforeAll(async () => {
    t = await createTestApp({
      BERTH_SCHEDULER_FILTERS: 'NumInstancesFilter,IoOpsFilter',
      BERTH_SCHEDULER_WEIGHERS: 'NumInstancesWeigher',
      BERTH_SCHEDULER_CONFIG: JSON.stringify({
        NumInstancesFilter: { maxInstancesPerHost: 2 },
        IoOpsFilter: { maxIoOpsPerHost: 1 },
      }),
      BERTH_SCHEDULER_PROFILES: JSON.stringify({
        nova: {
          filters: ['IoOpsFilter', 'NumInstancesFilter'],
          weighers: [],
          plugins: {
            NumInstancesFilter: { maxInstancesPerHost: 1, countMovesOn: 'source' },
            IoOpsFilter: { maxIoOpsPerHost: 1, countMovesOn: 'source' },
          },
        },
      }),
    });
    const busy = await buildResourceProvider(t.app.services, {
      name: names.busy,
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const numa = await buildResourceProvider(t.app.services, {
      parentUuid: busy.uuid,
      inventories: [{ resourceClass: 'MEMORY_MB', total: 4096 }],
    });
    await buildResourceProvider(t.app.services, {
      name: names.empty,
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const full = await buildResourceProvider(t.app.services, {
      name: names.full,
      inventories: [{ resourceClass: 'VCPU', total: 3 }],
    });
    // Two consumers on `busy`, one of them on two providers of its tree: 2 instances, not 3.
    await allocate(randomUUID(), [
      { providerUuid: busy.uuid, resources: [{ resourceClass: 'VCPU', amount: 1 }] },
      { providerUuid: numa.uuid, resources: [{ resourceClass: 'MEMORY_MB', amount: 512 }] },
    ]);
    await allocate(randomUUID(), [
      { providerUuid: busy.uuid, resources: [{ resourceClass: 'VCPU', amount: 1 }] },
    ]);
    mover = randomUUID();
    await allocate(mover, [
      { providerUuid: full.uuid, resources: [{ resourceClass: 'VCPU', amount: 2 }] },
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts each consumer once per tree and rejects a host at the maximum', async () => {
    const r = await rejections();
    expect(r.NumInstancesFilter).toEqual([
      `${names.busy}: too many instances on the host: 2 instances, max 2`,
    ]);
    expect(r.IoOpsFilter).toEqual([]);
  });

  it('counts a move in progress on its source and destination until confirmed', async () => {
    // `full` has 1 VCPU free, too few for the move's 2, so it goes to `empty` (busy is rejected:
    // 2 instances); `full` stays a candidate for the 1-VCPU probes.
    const moved = await gql(t.app, SCHEDULE, {
      input: { consumerUuids: [mover], projectId: 'p', userId: 'u', request: vcpu(2) },
    });
    expect(moved.errors).toBeUndefined();
    expect(moved.data.schedule.selections[0].host).not.toBeNull();
    expect((await rejections()).IoOpsFilter).toEqual(
      [
        `${names.empty}: too many concurrent I/O-heavy operations on the host: 1 moves in progress, max 1`,
        `${names.full}: too many concurrent I/O-heavy operations on the host: 1 moves in progress, max 1`,
      ].sort(),
    );
    // Nova's count: the moving consumer is an instance and an io op of its source only, so
    // `empty` (its destination) has none of either.
    expect(await rejections('nova')).toEqual({
      IoOpsFilter: [
        `${names.full}: too many concurrent I/O-heavy operations on the host: 1 moves in progress, max 1`,
      ],
      NumInstancesFilter: [`${names.busy}: too many instances on the host: 2 instances, max 1`],
    });
    const confirmed = await gql(t.app, CONFIRM, { input: { consumerUuid: mover } });
    expect(confirmed.errors).toBeUndefined();
    expect(await rejections()).toEqual({
      NumInstancesFilter: [`${names.busy}: too many instances on the host: 2 instances, max 2`],
      IoOpsFilter: [],
    });
  });
});
