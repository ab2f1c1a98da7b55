// GraphQL ResourceProvider.traits and setProviderTraits (mirrors gabbit traits.yaml, the
// /resource_providers/{uuid}/traits steps).
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const SET = `mutation S($uuid: ID!, $traits: [String!]!, $gen: Int!) {
  setProviderTraits(providerUuid: $uuid, traits: $traits, generation: $gen) { uuid generation traits }
}`;
const GET = 'query G($uuid: ID!) { resourceProvider(uuid: $uuid) { generation traits } }';

describe('traits.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.services.traits.create('CUSTOM_TRAIT_1');
    await t.app.services.traits.create('CUSTOM_TRAIT_2');
  });
  afterAll(async () => {
    await t.close();
  });

  it('list traits for resource provider without traits', async () => {
    const rp = await buildResourceProvider(t.app.services);
    expect(await gql(t.app, GET, { uuid: rp.uuid })).toEqual({
      data: { resourceProvider: { generation: 0, traits: [] } },
    });
  });

  it('set traits for resource provider', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, SET, {
      uuid: rp.uuid,
      traits: ['CUSTOM_TRAIT_2', 'CUSTOM_TRAIT_1', 'CUSTOM_TRAIT_2'],
      gen: 0,
    });
    expect(r).toEqual({
      data: {
        setProviderTraits: {
          uuid: rp.uuid,
          generation: 1,
          traits: ['CUSTOM_TRAIT_1', 'CUSTOM_TRAIT_2'],
        },
      },
    });
    expect((await gql(t.app, GET, { uuid: rp.uuid })).data.resourceProvider).toEqual({
      generation: 1,
      traits: ['CUSTOM_TRAIT_1', 'CUSTOM_TRAIT_2'],
    });
  });

  it('replaces the whole set, and an empty list clears it', async () => {
    const rp = await buildResourceProvider(t.app.services, { traits: ['CUSTOM_TRAIT_1'] });
    const r = await gql(t.app, SET, { uuid: rp.uuid, traits: ['HW_CPU_X86_AVX'], gen: 1 });
    expect(r.data.setProviderTraits.traits).toEqual(['HW_CPU_X86_AVX']);
    const cleared = await gql(t.app, SET, { uuid: rp.uuid, traits: [], gen: 2 });
    expect(cleared.data.setProviderTraits).toMatchObject({ generation: 3, traits: [] });
  });

  it('set traits for resource provider with conflict generation', async () => {
    const rp = await buildResourceProvider(t.app.services, { traits: ['CUSTOM_TRAIT_1'] });
    const r = await gql(t.app, SET, { uuid: rp.uuid, traits: ['CUSTOM_TRAIT_2'], gen: 5 });
    expect(r.data).toBeNull();
    expect(firstError(r)).toMatchObject({ code: 'placement.concurrent_update', status: 409 });
    expect((await gql(t.app, GET, { uuid: rp.uuid })).data.resourceProvider).toEqual({
      generation: 1,
      traits: ['CUSTOM_TRAIT_1'],
    });
  });

  it('set non existed traits for resource provider', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, SET, {
      uuid: rp.uuid,
      traits: ['NON_EXISTED_TRAIT1', 'NON_EXISTED_TRAIT2', 'CUSTOM_TRAIT_1'],
      gen: 0,
    });
    expect(firstError(r)).toEqual({
      code: 'berth.trait.not_found',
      status: 400,
      message: 'No such trait(s): NON_EXISTED_TRAIT1, NON_EXISTED_TRAIT2',
    });
    expect((await gql(t.app, GET, { uuid: rp.uuid })).data.resourceProvider).toEqual({
      generation: 0,
      traits: [],
    });
  });

  it('set traits for non_existed resource provider', async () => {
    const r = await gql(t.app, SET, {
      uuid: 'd67370b5-4dc0-470d-a4fa-85e8e89abc6c',
      traits: ['CUSTOM_TRAIT_1'],
      gen: 1,
    });
    expect(firstError(r)).toEqual({
      code: 'placement.resource_provider.not_found',
      status: 404,
      message: 'No resource provider with uuid d67370b5-4dc0-470d-a4fa-85e8e89abc6c found',
    });
  });

  it('refuses a malformed provider uuid', async () => {
    const r = await gql(t.app, SET, { uuid: 'non_existed', traits: [], gen: 1 });
    expect(firstError(r)).toMatchObject({ status: 400, message: expect.stringMatching(/UUID/) });
  });

  it('delete an in-use trait', async () => {
    await t.app.services.traits.create('CUSTOM_IN_USE');
    await buildResourceProvider(t.app.services, { traits: ['CUSTOM_IN_USE'] });
    const r = await gql(t.app, 'mutation { deleteTrait(name: "CUSTOM_IN_USE") }');
    expect(firstError(r)).toMatchObject({
      status: 409,
      message: expect.stringContaining('The trait CUSTOM_IN_USE is in use by a resource provider.'),
    });
  });
});
