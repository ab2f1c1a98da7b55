// GraphQL resourceProvider, createResourceProvider, updateResourceProvider and
// deleteResourceProvider (mirrors gabbits resource-provider.yaml, resource-provider-duplication.yaml,
// with-allocations.yaml, allocations.yaml).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const RP = 'uuid name generation parent { uuid } root { uuid }';
const GET = `query G($uuid: ID!) { resourceProvider(uuid: $uuid) { ${RP} children { uuid } } }`;
const CREATE = `mutation C($input: CreateResourceProviderInput!) {
  createResourceProvider(input: $input) { ${RP} }
}`;
const UPDATE = `mutation U($input: UpdateResourceProviderInput!) {
  updateResourceProvider(input: $input) { ${RP} }
}`;
const DELETE = 'mutation D($uuid: ID!) { deleteResourceProvider(uuid: $uuid) }';

describe('resource-provider.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('post new resource provider - new microversion', async () => {
    const uuid = randomUUID();
    const r = await gql(t.app, CREATE, { input: { name: `rp-${uuid}`, uuid } });
    expect(r).toEqual({
      data: {
        createResourceProvider: {
          uuid,
          name: `rp-${uuid}`,
          generation: 0,
          parent: null,
          root: { uuid },
        },
      },
    });
  });

  it('confirm the correct post', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, GET, { uuid: rp.uuid });
    expect(r).toEqual({
      data: {
        resourceProvider: {
          uuid: rp.uuid,
          name: rp.name,
          generation: 0,
          parent: null,
          root: { uuid: rp.uuid },
          children: [],
        },
      },
    });
  });

  it('try to create same all again', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, CREATE, { input: { name: rp.name, uuid: rp.uuid } });
    expect(r.data).toBeNull();
    expect(firstError(r)).toEqual({
      code: 'placement.duplicate_name',
      status: 409,
      message: expect.stringContaining('Conflicting resource provider'),
    });
  });

  it('try to create same name again', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, CREATE, { input: { name: rp.name, uuid: randomUUID() } });
    expect(firstError(r)).toEqual({
      code: 'placement.duplicate_name',
      status: 409,
      message: `Conflicting resource provider name: ${rp.name} already exists.`,
    });
  });

  it('try to create with the same uuid but without dashes', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, CREATE, {
      input: { name: `dashless-${rp.name}`, uuid: rp.uuid.replace(/-/g, '') },
    });
    expect(firstError(r)).toEqual({
      code: 'placement.duplicate_name',
      status: 409,
      message: `Conflicting resource provider uuid: ${rp.uuid} already exists.`,
    });
  });

  it('post resource provider no uuid', async () => {
    const r = await gql(t.app, CREATE, { input: { name: `no-uuid-${randomUUID()}` } });
    expect(r.errors).toBeUndefined();
    expect(r.data.createResourceProvider.uuid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it('post bad uuid in resource provider', async () => {
    const r = await gql(t.app, CREATE, {
      input: { name: 'my bad rp', uuid: 'this is not a uuid' },
    });
    expect(firstError(r)).toEqual({
      code: 'berth.invalid_uuid',
      status: 400,
      message: "Invalid resource provider uuid: 'this is not a uuid' is not a valid UUID.",
    });
    const list = await gql(
      t.app,
      '{ resourceProviders(filter: { name: "my bad rp" }) { edges { cursor } } }',
    );
    expect(list.data.resourceProviders.edges).toEqual([]);
  });

  it('try to create resource provider with name exceed max characters', async () => {
    const r = await gql(t.app, CREATE, { input: { name: 'x'.repeat(201) } });
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: expect.stringMatching(/1 to 200/),
    });
  });

  it('get non-existing resource provider', async () => {
    const r = await gql(t.app, GET, { uuid: 'd67370b5-4dc0-470d-a4fa-85e8e89abc6c' });
    expect(r).toEqual({ data: { resourceProvider: null } });
  });

  it('fail to get a provider', async () => {
    const r = await gql(t.app, GET, { uuid: 'random_sauce' });
    expect(r.data).toEqual({ resourceProvider: null });
    expect(firstError(r)).toMatchObject({ status: 400, message: expect.stringMatching(/UUID/) });
  });

  it("update a resource provider's name", async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, UPDATE, { input: { uuid: rp.uuid, name: `new name ${rp.uuid}` } });
    expect(r).toEqual({
      data: {
        updateResourceProvider: {
          uuid: rp.uuid,
          name: `new name ${rp.uuid}`,
          generation: 0,
          parent: null,
          root: { uuid: rp.uuid },
        },
      },
    });
    expect((await gql(t.app, GET, { uuid: rp.uuid })).data.resourceProvider.name).toBe(
      `new name ${rp.uuid}`,
    );
  });

  it('try to update resource provider with name exceed max characters', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, UPDATE, { input: { uuid: rp.uuid, name: 'x'.repeat(201) } });
    expect(firstError(r)).toMatchObject({ status: 400 });
    expect((await t.app.services.providers.get(rp.uuid)).name).toBe(rp.name);
  });

  it('try to rename that provider to existing name', async () => {
    const a = await buildResourceProvider(t.app.services);
    const b = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, UPDATE, { input: { uuid: b.uuid, name: a.name } });
    expect(firstError(r)).toMatchObject({ code: 'placement.duplicate_name', status: 409 });
  });

  it('returns placement.concurrent_update when the generation is stale', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 4 }],
    });
    const r = await gql(t.app, UPDATE, {
      input: { uuid: rp.uuid, name: 'stale', generation: rp.generation - 1 },
    });
    expect(firstError(r)).toMatchObject({ code: 'placement.concurrent_update', status: 409 });
    expect((await t.app.services.providers.get(rp.uuid)).name).toBe(rp.name);
  });

  it('update a parent provider UUID to non-existing provider', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, UPDATE, {
      input: { uuid: rp.uuid, name: rp.name, parentUuid: randomUUID() },
    });
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: expect.stringContaining('parent provider UUID does not exist'),
    });
  });

  it('fail trying to self-parent', async () => {
    const uuid = randomUUID();
    const r = await gql(t.app, CREATE, { input: { name: 'child', uuid, parentUuid: uuid } });
    expect(firstError(r)).toEqual({
      code: 'berth.resource_provider.invalid_parent',
      status: 400,
      message: `Unable to create resource provider "child", ${uuid}: parent provider UUID cannot be same as UUID. Please choose a different parent provider UUID.`,
    });
    expect((await gql(t.app, GET, { uuid })).data.resourceProvider).toBeNull();
  });

  it('un-parent provider', async () => {
    const parent = await buildResourceProvider(t.app.services);
    const child = await buildResourceProvider(t.app.services, { parentUuid: parent.uuid });
    const r = await gql(t.app, UPDATE, {
      input: { uuid: child.uuid, name: child.name, parentUuid: null },
    });
    expect(r.data.updateResourceProvider).toMatchObject({
      uuid: child.uuid,
      parent: null,
      root: { uuid: child.uuid },
    });
  });

  it('re-parent back to its original parent after un-parent', async () => {
    const parent = await buildResourceProvider(t.app.services);
    const child = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, UPDATE, {
      input: { uuid: child.uuid, name: child.name, parentUuid: parent.uuid },
    });
    expect(r.data.updateResourceProvider).toMatchObject({
      parent: { uuid: parent.uuid },
      root: { uuid: parent.uuid },
    });
    const p = await gql(t.app, GET, { uuid: parent.uuid });
    expect(p.data.resourceProvider.children).toEqual([{ uuid: child.uuid }]);
  });

  it('re-parents without a name, keeping the name; renames without touching the parent', async () => {
    const parent = await buildResourceProvider(t.app.services);
    const child = await buildResourceProvider(t.app.services);
    const moved = await gql(t.app, UPDATE, {
      input: { uuid: child.uuid, parentUuid: parent.uuid },
    });
    expect(moved.data.updateResourceProvider).toMatchObject({
      name: child.name,
      parent: { uuid: parent.uuid },
    });
    const renamed = await gql(t.app, UPDATE, {
      input: { uuid: child.uuid, name: 'renamed-child' },
    });
    expect(renamed.data.updateResourceProvider).toMatchObject({
      name: 'renamed-child',
      parent: { uuid: parent.uuid },
    });
  });

  it('keeps the parent when parentUuid is omitted', async () => {
    const parent = await buildResourceProvider(t.app.services);
    const child = await buildResourceProvider(t.app.services, { parentUuid: parent.uuid });
    const r = await gql(t.app, UPDATE, { input: { uuid: child.uuid, name: `${child.name}-x` } });
    expect(r.data.updateResourceProvider.parent).toEqual({ uuid: parent.uuid });
  });

  it('fail updating a parent to itself', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, UPDATE, {
      input: { uuid: rp.uuid, name: rp.name, parentUuid: rp.uuid },
    });
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: expect.stringContaining('creating loop in the provider tree is not allowed.'),
    });
  });

  it('fail updating the parent to point to its child', async () => {
    const parent = await buildResourceProvider(t.app.services);
    const child = await buildResourceProvider(t.app.services, { parentUuid: parent.uuid });
    const r = await gql(t.app, UPDATE, {
      input: { uuid: parent.uuid, name: parent.name, parentUuid: child.uuid },
    });
    expect(firstError(r)).toMatchObject({
      status: 400,
      message: expect.stringContaining('creating loop in the provider tree is not allowed.'),
    });
  });

  it('409 conflict while trying to delete parent with existing child', async () => {
    const parent = await buildResourceProvider(t.app.services);
    await buildResourceProvider(t.app.services, { parentUuid: parent.uuid });
    const r = await gql(t.app, DELETE, { uuid: parent.uuid });
    expect(r.data).toBeNull();
    expect(firstError(r)).toEqual({
      code: 'placement.resource_provider.cannot_delete_parent',
      status: 409,
      message: `Unable to delete parent resource provider ${parent.uuid}: It has child resource providers.`,
    });
    expect(await t.app.services.providers.find(parent.uuid)).not.toBeNull();
  });

  it('delete resource provider', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 10 }],
    });
    const r = await gql(t.app, DELETE, { uuid: rp.uuid.toUpperCase() });
    expect(r).toEqual({ data: { deleteResourceProvider: rp.uuid } });
    expect((await gql(t.app, GET, { uuid: rp.uuid })).data.resourceProvider).toBeNull();
  });

  it('404 on deleted provider', async () => {
    const rp = await buildResourceProvider(t.app.services);
    await gql(t.app, DELETE, { uuid: rp.uuid });
    const r = await gql(t.app, DELETE, { uuid: rp.uuid });
    expect(firstError(r)).toMatchObject({
      code: 'placement.resource_provider.not_found',
      status: 404,
    });
  });

  it('delete non-existing resource provider', async () => {
    const r = await gql(t.app, DELETE, { uuid: 'd67370b5-4dc0-470d-a4fa-85e8e89abc6c' });
    expect(firstError(r)).toEqual({
      code: 'placement.resource_provider.not_found',
      status: 404,
      message:
        'No resource provider with uuid d67370b5-4dc0-470d-a4fa-85e8e89abc6c found for delete',
    });
  });
});

describe('allocations.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('fail to delete that provider', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 2048, minUnit: 10, maxUnit: 1024 }],
    });
    await t.app.services.allocations.set([claim(rp.uuid, { DISK_GB: 10 })]);
    const r = await gql(t.app, DELETE, { uuid: rp.uuid });
    expect(firstError(r)).toEqual({
      code: 'placement.resource_provider.inuse',
      status: 409,
      message: `Unable to delete resource provider ${rp.uuid}: Resource provider has allocations.`,
    });
    expect(await t.app.services.providers.find(rp.uuid)).not.toBeNull();
  });
});

describe('mutations in one document', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns fresh data from each mutation when several touch the same provider', async () => {
    const parent = await buildResourceProvider(t.app.services);
    const child = await buildResourceProvider(t.app.services, { parentUuid: parent.uuid });
    const r = await gql(
      t.app,
      `mutation M($a: UpdateResourceProviderInput!, $b: UpdateResourceProviderInput!) {
        before: updateResourceProvider(input: $a) { parent { name } }
        rename: updateResourceProvider(input: $b) { name }
        after: updateResourceProvider(input: $a) { parent { name } }
      }`,
      {
        a: { uuid: child.uuid, name: child.name },
        b: { uuid: parent.uuid, name: `${parent.name}-renamed` },
      },
    );
    expect(r).toEqual({
      data: {
        before: { parent: { name: parent.name } },
        rename: { name: `${parent.name}-renamed` },
        after: { parent: { name: `${parent.name}-renamed` } },
      },
    });
  });
});
