// GraphQL Allocation, setAllocations, deleteAllocations and ResourceProvider.allocations (mirrors
// gabbits allocations.yaml and allocations-1.28.yaml).
import { allocationInput as input } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const SET = `mutation S($input: [ConsumerAllocationsInput!]!) {
  setAllocations(input: $input) {
    uuid projectId userId consumerType generation
    allocations { provider { uuid } resourceClass used consumer { uuid } }
  }
}`;
const DELETE = 'mutation D($uuid: ID!) { deleteAllocations(consumerUuid: $uuid) }';
const CONSUMER = 'query C($uuid: ID!) { consumer(uuid: $uuid) { uuid generation } }';

describe('allocations.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const set = (...inputs: unknown[]) => gql(t.app, SET, { input: inputs });
  const disk = () =>
    buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 2048, minUnit: 10, maxUnit: 1024 }],
    });

  /** Asserts that `consumerUuid` holds nothing. */
  async function expectNoConsumer(consumerUuid: string) {
    expect(await gql(t.app, CONSUMER, { uuid: consumerUuid })).toEqual({
      data: { consumer: null },
    });
  }

  it('put an allocation', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { DISK_GB: 10 });
    const r = await set(c);
    expect(r).toEqual({
      data: {
        setAllocations: [
          {
            uuid: c.consumerUuid,
            projectId: 'proj',
            userId: 'user',
            consumerType: 'INSTANCE',
            generation: 1,
            allocations: [
              {
                provider: { uuid: rp.uuid },
                resourceClass: 'DISK_GB',
                used: 10,
                consumer: { uuid: c.consumerUuid },
              },
            ],
          },
        ],
      },
    });
  });

  it('put an allocation for a not existing resource provider', async () => {
    const c = input('be8b9cba-e7db-4a12-a386-99b4242167fe', { DISK_GB: 5, VCPU: 4 });
    const r = await set(c);
    expect(r.data).toBeNull();
    expect(firstError(r)).toEqual({
      code: 'berth.resource_provider.unknown',
      status: 400,
      message:
        "Allocation for resource provider 'be8b9cba-e7db-4a12-a386-99b4242167fe' that does not exist.",
    });
    await expectNoConsumer(c.consumerUuid);
  });

  it('put an allocation no inventory', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const c = input(rp.uuid, { DISK_GB: 10 });
    expect(firstError(await set(c))).toMatchObject({ status: 409 });
    await expectNoConsumer(c.consumerUuid);
  });

  it('put an allocation with zero usage', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { DISK_GB: 0 });
    expect(firstError(await set(c))).toMatchObject({ status: 400 });
    await expectNoConsumer(c.consumerUuid);
  });

  it('put allocation bad resource class', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { COWS: 12 });
    expect(firstError(await set(c))).toEqual({
      code: 'berth.resource_class.not_found',
      status: 400,
      message: 'No such resource class COWS.',
    });
    await expectNoConsumer(c.consumerUuid);
  });

  it('refuses the same class twice for one provider', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { DISK_GB: 10 });
    c.allocations[0]!.resources.push({ resourceClass: 'DISK_GB', amount: 20 });
    expect(firstError(await set(c))).toMatchObject({
      status: 400,
      message: expect.stringContaining('DISK_GB appears more than once'),
    });
    await expectNoConsumer(c.consumerUuid);
  });

  it('refuses an allocation that would exceed capacity and writes nothing', async () => {
    const rp = await disk();
    await set(input(rp.uuid, { DISK_GB: 1024 }), input(rp.uuid, { DISK_GB: 1000 }));
    const c = input(rp.uuid, { DISK_GB: 30 });
    expect(firstError(await set(c))).toMatchObject({
      status: 409,
      message: expect.stringContaining('would exceed the capacity'),
    });
    await expectNoConsumer(c.consumerUuid);
  });

  it('creating allocation with a non UUID consumer fails', async () => {
    const rp = await disk();
    const r = await set(input(rp.uuid, { DISK_GB: 10 }, { consumerUuid: 'not-a-uuid' }));
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: "Invalid consumer uuid: 'not-a-uuid' is not a valid UUID.",
    });
  });

  it('delete allocation', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { DISK_GB: 10 });
    await set(c);
    expect(await gql(t.app, DELETE, { uuid: c.consumerUuid })).toEqual({
      data: { deleteAllocations: c.consumerUuid },
    });
    await expectNoConsumer(c.consumerUuid);
    const usages = await gql(
      t.app,
      'query U($u: ID!) { resourceProvider(uuid: $u) { generation usages { resourceClass used } } }',
      { u: rp.uuid },
    );
    // The allocation write bumped the provider once; deleting the allocations bumps nothing
    // (upstream allocations.yaml "check usages").
    expect(usages.data.resourceProvider).toEqual({
      generation: rp.generation + 1,
      usages: [{ resourceClass: 'DISK_GB', used: 0 }],
    });
  });

  it('delete allocation again', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { DISK_GB: 10 });
    await set(c);
    await gql(t.app, DELETE, { uuid: c.consumerUuid });
    expect(firstError(await gql(t.app, DELETE, { uuid: c.consumerUuid }))).toEqual({
      code: 'berth.consumer.not_found',
      status: 404,
      message: `No allocations for consumer '${c.consumerUuid}'`,
    });
  });

  it('delete allocation of unknown consumer id', async () => {
    const r = await gql(t.app, DELETE, { uuid: 'da78521f-bf7e-4e6e-9901-3f79bd94d55d' });
    expect(firstError(r)).toMatchObject({ status: 404 });
  });

  it('put allocations on both those providers one', async () => {
    const rp1 = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 20 }],
    });
    const rp2 = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 16 }],
    });
    const c = input(rp1.uuid, { DISK_GB: 10 });
    c.allocations.push({
      providerUuid: rp2.uuid,
      resources: [{ resourceClass: 'VCPU', amount: 8 }],
    });
    const r = await set(c);
    expect(r.errors).toBeUndefined();
    expect(
      r.data.setAllocations[0].allocations.map(
        (a: { provider: { uuid: string }; resourceClass: string; used: number }) => [
          a.provider.uuid,
          a.resourceClass,
          a.used,
        ],
      ),
    ).toEqual([
      [rp1.uuid, 'DISK_GB', 10],
      [rp2.uuid, 'VCPU', 8],
    ]);
  });

  it('check allocations for the resource provider', async () => {
    const rp = await disk();
    const a = input(rp.uuid, { DISK_GB: 10 });
    const b = input(rp.uuid, { DISK_GB: 20 }, { projectId: 'other' });
    await set(a, b);
    const r = await gql(
      t.app,
      `query P($u: ID!) { resourceProvider(uuid: $u) {
        allocations { resourceClass used consumer { uuid projectId } }
      } }`,
      { u: rp.uuid },
    );
    expect(r.data.resourceProvider.allocations).toEqual(
      expect.arrayContaining([
        {
          resourceClass: 'DISK_GB',
          used: 10,
          consumer: { uuid: a.consumerUuid, projectId: 'proj' },
        },
        {
          resourceClass: 'DISK_GB',
          used: 20,
          consumer: { uuid: b.consumerUuid, projectId: 'other' },
        },
      ]),
    );
    expect(r.data.resourceProvider.allocations).toHaveLength(2);
  });

  it('put allocations on existing consumer with dashless UUID', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { DISK_GB: 10 });
    await set(c);
    const again = input(
      rp.uuid,
      { DISK_GB: 20 },
      {
        consumerUuid: c.consumerUuid.replace(/-/g, ''),
        consumerGeneration: 1,
      },
    );
    const r = await set(again);
    expect(r.data.setAllocations).toEqual([
      expect.objectContaining({ uuid: c.consumerUuid, generation: 2 }),
    ]);
  });

  it('removes the consumer when its allocation list is empty', async () => {
    const rp = await disk();
    const c = input(rp.uuid, { DISK_GB: 10 });
    await set(c);
    const r = await set({ ...c, consumerGeneration: 1, allocations: [] });
    expect(r).toEqual({ data: { setAllocations: [] } });
    await expectNoConsumer(c.consumerUuid);
  });
});

describe('allocations-1.28.yaml', () => {
  let t: TestApp;
  let rp: { uuid: string };
  beforeAll(async () => {
    t = await createTestApp();
    rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 2048 }],
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const set = (c: unknown) => gql(t.app, SET, { input: [c] });

  it('new version gen is not null no existing', async () => {
    const r = await set(input(rp.uuid, { DISK_GB: 10 }, { consumerGeneration: 5 }));
    expect(firstError(r)).toEqual({
      code: 'placement.concurrent_update',
      status: 409,
      message: 'consumer generation conflict - expected null but got 5',
    });
  });

  it('new version gen is None no existing', async () => {
    const r = await set(input(rp.uuid, { DISK_GB: 10 }, { consumerGeneration: null }));
    expect(r.data.setAllocations[0].generation).toBe(1);
  });

  it('new version no gen existing', async () => {
    const c = input(rp.uuid, { DISK_GB: 10 });
    await set(c);
    const { consumerGeneration: _omitted, ...noGeneration } = c;
    const r = await set(noGeneration);
    expect(firstError(r)).toMatchObject({
      code: 'placement.concurrent_update',
      status: 409,
      message: expect.stringContaining('consumer generation conflict'),
    });
  });

  it('new version matching gen existing', async () => {
    const c = input(rp.uuid, { DISK_GB: 10 });
    await set(c);
    const current = await gql(t.app, CONSUMER, { uuid: c.consumerUuid });
    const r = await set({
      ...input(rp.uuid, { DISK_GB: 20 }, { consumerUuid: c.consumerUuid }),
      consumerGeneration: current.data.consumer.generation,
    });
    expect(r.data.setAllocations[0]).toMatchObject({ generation: 2, allocations: [{ used: 20 }] });
  });

  it('new version mismatch gen existing', async () => {
    const c = input(rp.uuid, { DISK_GB: 10 });
    await set(c);
    const r = await set({ ...c, consumerGeneration: 12 });
    expect(firstError(r)).toMatchObject({ code: 'placement.concurrent_update', status: 409 });
    expect((await gql(t.app, CONSUMER, { uuid: c.consumerUuid })).data.consumer.generation).toBe(1);
  });
});
