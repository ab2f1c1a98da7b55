// GraphQL ResourceProvider.inventories, setInventories and deleteInventory (mirrors gabbits
// inventory.yaml and with-allocations.yaml).
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const INV = 'resourceClass total reserved minUnit maxUnit stepSize allocationRatio capacity used';
const SET = `mutation S($input: SetInventoriesInput!) {
  setInventories(input: $input) { uuid generation inventories { ${INV} } }
}`;
const DELETE = `mutation D($uuid: ID!, $rc: String!, $gen: Int!) {
  deleteInventory(providerUuid: $uuid, resourceClass: $rc, generation: $gen) {
    generation inventories { resourceClass }
  }
}`;
const GET = `query G($uuid: ID!) { resourceProvider(uuid: $uuid) { generation inventories { ${INV} } } }`;

const MAX_INT = 2147483647;

describe('inventory.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const set = (uuid: string, generation: number, inventories: Record<string, unknown>[]) =>
    gql(t.app, SET, { input: { providerUuid: uuid, generation, inventories } });

  /** Asserts the provider still has no inventory and generation 0. */
  async function expectUntouched(uuid: string) {
    const r = await gql(t.app, GET, { uuid });
    expect(r.data.resourceProvider).toEqual({ generation: 0, inventories: [] });
  }

  it('put all inventory', async () => {
    const rp = await buildResourceProvider(t.app.services, { name: 'disk-network' });
    const r = await set(rp.uuid, 0, [
      { resourceClass: 'IPV4_ADDRESS', total: 253 },
      { resourceClass: 'DISK_GB', total: 1024 },
    ]);
    const defaults = { reserved: 0, minUnit: 1, maxUnit: MAX_INT, stepSize: 1, allocationRatio: 1 };
    expect(r).toEqual({
      data: {
        setInventories: {
          uuid: rp.uuid,
          generation: 1,
          inventories: [
            { resourceClass: 'DISK_GB', total: 1024, ...defaults, capacity: 1024, used: 0 },
            { resourceClass: 'IPV4_ADDRESS', total: 253, ...defaults, capacity: 253, used: 0 },
          ],
        },
      },
    });
    expect((await gql(t.app, GET, { uuid: rp.uuid })).data.resourceProvider).toEqual({
      generation: 1,
      inventories: r.data.setInventories.inventories,
    });
  });

  it('reports capacity as (total - reserved) * allocationRatio, floored, and used', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 10, reserved: 3, allocationRatio: 1.5 }],
    });
    await t.app.services.allocations.set([claim(rp.uuid, { VCPU: 4 })]);
    const r = await gql(t.app, GET, { uuid: rp.uuid });
    expect(r.data.resourceProvider.inventories).toEqual([
      {
        resourceClass: 'VCPU',
        total: 10,
        reserved: 3,
        minUnit: 1,
        maxUnit: MAX_INT,
        stepSize: 1,
        allocationRatio: 1.5,
        capacity: 10,
        used: 4,
      },
    ]);
  });

  it('post a conflicting capacity inventory', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'DISK_GB', total: 256, reserved: 512 }]);
    expect(r.data).toBeNull();
    expect(firstError(r)).toMatchObject({ code: 'berth.inventory.invalid', status: 400 });
    await expectUntouched(rp.uuid);
  });

  it('post a negative inventory', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'DISK_GB', total: -1 }]);
    expect(firstError(r)).toEqual({
      code: 'berth.inventory.invalid',
      status: 400,
      message: 'Bad inventory DISK_GB: total must be an integer from 1 to 2147483647 (got -1).',
    });
    await expectUntouched(rp.uuid);
  });

  it('post an inventory with invalid total', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'DISK_GB', total: 0 }]);
    expect(firstError(r)).toMatchObject({ status: 400, message: expect.stringMatching(/total/) });
    await expectUntouched(rp.uuid);
  });

  it.each([
    ['post an inventory invalid min_unit', { minUnit: 0 }, /minUnit/],
    ['post an inventory invalid max_unit', { maxUnit: 0 }, /maxUnit/],
    ['post an inventory invalid step_size', { stepSize: 0 }, /stepSize/],
    [
      'post an inventory with allocation_ratio exceed max limit',
      { allocationRatio: 3.40282e39 },
      /allocationRatio/,
    ],
  ])('%s', async (_name, bad, message) => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'DISK_GB', total: 1024, ...bad }]);
    expect(firstError(r)).toMatchObject({ status: 400, message: expect.stringMatching(message) });
    await expectUntouched(rp.uuid);
  });

  it('post an inventory with total exceed max limit', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'DISK_GB', total: MAX_INT + 1 }]);
    // GraphQL's Int is 32-bit: the request is refused before any resolver runs.
    expect(r.data).toBeUndefined();
    expect(r.errors?.[0]?.message).toMatch(/Int cannot represent non 32-bit signed integer/);
    await expectUntouched(rp.uuid);
  });

  it('post inventory bad resource class', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'NO_CLASS_14', total: 2048 }]);
    expect(firstError(r)).toEqual({
      code: 'berth.resource_class.not_found',
      status: 400,
      message: 'No such resource class NO_CLASS_14.',
    });
    await expectUntouched(rp.uuid);
  });

  it('refuses the same class twice in one request', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [
      { resourceClass: 'DISK_GB', total: 10 },
      { resourceClass: 'DISK_GB', total: 20 },
    ]);
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/Duplicate/),
    });
    await expectUntouched(rp.uuid);
  });

  it('put all inventory bad generation', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 99, [{ resourceClass: 'IPV4_ADDRESS', total: 253 }]);
    expect(firstError(r)).toMatchObject({
      code: 'placement.concurrent_update',
      status: 409,
      message: expect.stringContaining('resource provider generation conflict'),
    });
    await expectUntouched(rp.uuid);
  });

  it('returns placement.resource_provider.not_found for an unknown provider', async () => {
    const r = await set('d67370b5-4dc0-470d-a4fa-85e8e89abc6c', 0, []);
    expect(firstError(r)).toMatchObject({
      code: 'placement.resource_provider.not_found',
      status: 404,
    });
  });

  it('put inventory with reserved equal to total', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'IPV4_ADDRESS', total: 253, reserved: 253 }]);
    expect(r.data.setInventories.inventories).toEqual([
      expect.objectContaining({ resourceClass: 'IPV4_ADDRESS', capacity: 0 }),
    ]);
  });

  it('put all inventory bad capacity in new microversion', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await set(rp.uuid, 0, [{ resourceClass: 'IPV4_ADDRESS', total: 253, reserved: 512 }]);
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: expect.stringContaining('greater than the total'),
    });
    await expectUntouched(rp.uuid);
  });

  it('delete inventory', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [
        { resourceClass: 'DISK_GB', total: 10 },
        { resourceClass: 'IPV4_ADDRESS', total: 10 },
      ],
    });
    const r = await gql(t.app, DELETE, { uuid: rp.uuid, rc: 'IPV4_ADDRESS', gen: rp.generation });
    expect(r).toEqual({
      data: {
        deleteInventory: {
          generation: rp.generation + 1,
          inventories: [{ resourceClass: 'DISK_GB' }],
        },
      },
    });
  });

  it('delete inventory again', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 10 }],
    });
    const r = await gql(t.app, DELETE, { uuid: rp.uuid, rc: 'IPV4_ADDRESS', gen: rp.generation });
    expect(firstError(r)).toEqual({
      code: 'berth.inventory.not_found',
      status: 404,
      message: 'No inventory of class IPV4_ADDRESS found for delete',
    });
  });

  it('returns placement.concurrent_update when deleting with a stale generation', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 10 }],
    });
    const r = await gql(t.app, DELETE, { uuid: rp.uuid, rc: 'DISK_GB', gen: rp.generation - 1 });
    expect(firstError(r)).toMatchObject({ code: 'placement.concurrent_update', status: 409 });
    expect((await t.app.services.inventories.list(rp.uuid)).inventories).toHaveLength(1);
  });
});

describe('with-allocations.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function providerInUse() {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [
        { resourceClass: 'DISK_GB', total: 2048 },
        { resourceClass: 'VCPU', total: 8 },
      ],
    });
    await t.app.services.allocations.set([claim(rp.uuid, { DISK_GB: 1000, VCPU: 6 })]);
    return t.app.services.providers.get(rp.uuid);
  }

  it('fail to change inventory via put 1.23', async () => {
    const rp = await providerInUse();
    const r = await gql(t.app, SET, {
      input: { providerUuid: rp.uuid, generation: rp.generation, inventories: [] },
    });
    expect(firstError(r)).toEqual({
      code: 'placement.inventory.inuse',
      status: 409,
      // Listed in resource-class id order (VCPU has a lower id than DISK_GB), as Placement does.
      message: `Inventory for 'VCPU, DISK_GB' on resource provider '${rp.uuid}' in use.`,
    });
    expect((await t.app.services.inventories.list(rp.uuid)).inventories).toHaveLength(2);
  });

  it('returns placement.inventory.inuse when deleting a class that allocations use', async () => {
    const rp = await providerInUse();
    const r = await gql(t.app, DELETE, { uuid: rp.uuid, rc: 'VCPU', gen: rp.generation });
    expect(firstError(r)).toMatchObject({ code: 'placement.inventory.inuse', status: 409 });
    expect((await t.app.services.inventories.list(rp.uuid)).inventories).toHaveLength(2);
  });
});
