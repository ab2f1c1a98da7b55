// GraphQL reshape (mirrors gabbit reshaper.yaml over a reduced AllocationFixture).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const RESHAPE = 'mutation R($input: ReshapeInput!) { reshape(input: $input) }';
const STATE = `query S($p: ID!, $c: ID!) {
  parent: resourceProvider(uuid: $p) { generation inventories { resourceClass } usages { resourceClass used } }
  child: resourceProvider(uuid: $c) { generation inventories { resourceClass } usages { resourceClass used } }
}`;

type Amounts = Record<string, number>;

describe('reshaper.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** A root with DISK_GB and VCPU, an empty child, and three consumers of the root. */
  async function fixture() {
    const s = t.app.services;
    const root = await buildResourceProvider(s, {
      inventories: [
        { resourceClass: 'DISK_GB', total: 2048, stepSize: 10, minUnit: 10, maxUnit: 1200 },
        { resourceClass: 'VCPU', total: 10, maxUnit: 8 },
      ],
    });
    const consumer0 = claim(root.uuid, { DISK_GB: 1000 });
    const consumer = claim(root.uuid, { VCPU: 6 });
    const alt = { ...claim(root.uuid, { DISK_GB: 20, VCPU: 1 }), userId: 'alt-user' };
    await s.allocations.set([consumer0, consumer, alt]);
    const child = await buildResourceProvider(s, { parentUuid: root.uuid });
    const parent = await s.providers.get(root.uuid);
    return { parent, child, consumer0, consumer, alt };
  }

  const alloc = (
    consumerUuid: string,
    userId: string,
    generation: number | null,
    by: [string, Amounts][],
  ) => ({
    consumerUuid,
    projectId: 'proj',
    userId,
    consumerGeneration: generation,
    allocations: by.map(([providerUuid, amounts]) => ({
      providerUuid,
      resources: Object.entries(amounts).map(([resourceClass, amount]) => ({
        resourceClass,
        amount,
      })),
    })),
  });

  /** The successful move of the gabbit, with `tweak` applied to its parts. */
  async function move(
    f: Awaited<ReturnType<typeof fixture>>,
    o: { diskMaxUnit?: number; diskClass?: string; childUuid?: string } = {},
  ) {
    const childUuid = o.childUuid ?? f.child.uuid;
    return gql(t.app, RESHAPE, {
      input: {
        inventories: [
          {
            providerUuid: f.parent.uuid,
            generation: f.parent.generation,
            inventories: [
              {
                resourceClass: o.diskClass ?? 'DISK_GB',
                total: 2048,
                stepSize: 10,
                minUnit: 10,
                maxUnit: o.diskMaxUnit ?? 1200,
              },
            ],
          },
          {
            providerUuid: childUuid,
            generation: f.child.generation,
            inventories: [{ resourceClass: 'VCPU', total: 10, maxUnit: 8 }],
          },
        ],
        allocations: [
          alloc(f.consumer0.consumerUuid, 'user', 1, [[f.parent.uuid, { DISK_GB: 1000 }]]),
          alloc(f.consumer.consumerUuid, 'user', 1, [[childUuid, { VCPU: 8 }]]),
          alloc(f.alt.consumerUuid, 'alt-user', 1, [
            [f.parent.uuid, { DISK_GB: 20 }],
            [childUuid, { VCPU: 1 }],
          ]),
        ],
      },
    });
  }

  /** Asserts that nothing moved. */
  async function expectUnchanged(f: Awaited<ReturnType<typeof fixture>>) {
    const r = await gql(t.app, STATE, { p: f.parent.uuid, c: f.child.uuid });
    expect(r.data).toEqual({
      parent: {
        generation: f.parent.generation,
        inventories: [{ resourceClass: 'VCPU' }, { resourceClass: 'DISK_GB' }],
        usages: [
          { resourceClass: 'VCPU', used: 7 },
          { resourceClass: 'DISK_GB', used: 1020 },
        ],
      },
      child: { generation: f.child.generation, inventories: [], usages: [] },
    });
  }

  it('move vcpu inventory and allocations to child', async () => {
    const f = await fixture();
    expect(await move(f)).toEqual({ data: { reshape: true } });
    const r = await gql(t.app, STATE, { p: f.parent.uuid, c: f.child.uuid });
    // Interim inventory, allocations and final inventory each bump both providers (upstream's
    // "get usages on parent/child after move": generations 5 -> 8 and 0 -> 3).
    expect(r.data).toEqual({
      parent: {
        generation: f.parent.generation + 3,
        inventories: [{ resourceClass: 'DISK_GB' }],
        usages: [{ resourceClass: 'DISK_GB', used: 1020 }],
      },
      child: {
        generation: f.child.generation + 3,
        inventories: [{ resourceClass: 'VCPU' }],
        usages: [{ resourceClass: 'VCPU', used: 9 }],
      },
    });
  });

  it('empty allocations inv in use', async () => {
    const f = await fixture();
    const r = await gql(t.app, RESHAPE, {
      input: {
        inventories: [
          {
            providerUuid: f.parent.uuid,
            generation: f.parent.generation,
            inventories: [{ resourceClass: 'VCPU', total: 1 }],
          },
        ],
        allocations: [],
      },
    });
    expect(r.data).toBeNull();
    expect(firstError(r)).toMatchObject({ code: 'placement.inventory.inuse', status: 409 });
    await expectUnchanged(f);
  });

  it('with allocations', async () => {
    const f = await fixture();
    const r = await gql(t.app, RESHAPE, {
      input: {
        inventories: [
          {
            providerUuid: f.parent.uuid,
            generation: f.parent.generation,
            inventories: [
              { resourceClass: 'VCPU', total: 1 },
              { resourceClass: 'DISK_GB', total: 2048, stepSize: 10, minUnit: 10, maxUnit: 1200 },
            ],
          },
        ],
        allocations: [alloc(randomUUID(), 'user', null, [[f.parent.uuid, { VCPU: 1 }]])],
      },
    });
    // The interim inventory may fall below usage; the allocation step then finds no room.
    expect(firstError(r)).toMatchObject({
      code: 'berth.allocation.exceeds_capacity',
      status: 409,
      message: expect.stringContaining('Unable to allocate inventory'),
    });
    await expectUnchanged(f);
  });

  it('bad rp gen', async () => {
    const f = await fixture();
    const r = await move({ ...f, parent: { ...f.parent, generation: f.parent.generation - 1 } });
    expect(firstError(r)).toMatchObject({
      code: 'placement.concurrent_update',
      status: 409,
      message: expect.stringContaining('resource provider generation conflict'),
    });
    await expectUnchanged(f);
  });

  it('bad consumer gen', async () => {
    const f = await fixture();
    const r = await gql(t.app, RESHAPE, {
      input: {
        inventories: [],
        allocations: [alloc(randomUUID(), 'user', 99, [[f.parent.uuid, { VCPU: 1 }]])],
      },
    });
    expect(firstError(r)).toMatchObject({
      code: 'placement.concurrent_update',
      status: 409,
      message: expect.stringContaining('consumer generation conflict'),
    });
    await expectUnchanged(f);
  });

  it('move to bad child 400', async () => {
    const f = await fixture();
    const r = await move(f, { childUuid: '39bafc00-3fff-444d-b87a-2ead3f866e05' });
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: expect.stringContaining('39bafc00-3fff-444d-b87a-2ead3f866e05'),
    });
    await expectUnchanged(f);
  });

  it('target resource class not found', async () => {
    const f = await fixture();
    const r = await move(f, { diskClass: 'DISK_OF_STEEL' });
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: 'No such resource class DISK_OF_STEEL.',
    });
    await expectUnchanged(f);
  });

  it('move bad allocation 409', async () => {
    const f = await fixture();
    const r = await move(f, { diskMaxUnit: 600 });
    expect(firstError(r)).toMatchObject({
      status: 409,
      message: expect.stringContaining('Unable to allocate inventory'),
    });
    await expectUnchanged(f);
  });
});
