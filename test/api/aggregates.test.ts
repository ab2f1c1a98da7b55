// GraphQL Aggregate, aggregate/aggregates, setAggregateMetadata, ResourceProvider.aggregates and
// setProviderAggregates (mirrors gabbit aggregate.yaml; metadata is Nova's host-aggregate model).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const AGG_1 = 'f918801a-5e54-4bee-9095-09a9d0c786b8';
const AGG_2 = 'a893eb5c-e2a0-4251-ab26-f71d3b0cfc0b';

const SET = `mutation S($uuid: ID!, $aggs: [ID!]!, $gen: Int!) {
  setProviderAggregates(providerUuid: $uuid, aggregates: $aggs, generation: $gen) {
    generation aggregates { uuid }
  }
}`;
const GET_RP =
  'query G($uuid: ID!) { resourceProvider(uuid: $uuid) { generation aggregates { uuid name metadata { key value } } } }';
const GET_AGG =
  'query A($uuid: ID!) { aggregate(uuid: $uuid) { uuid name metadata { key value } providers { uuid } } }';
const META = `mutation M($uuid: ID!, $name: String, $metadata: [KeyValueInput!]!) {
  setAggregateMetadata(uuid: $uuid, name: $name, metadata: $metadata) { uuid name metadata { key value } }
}`;

describe('aggregate.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('put aggregates for bad resource provider', async () => {
    const r = await gql(t.app, SET, {
      uuid: '6984bb2d-830d-4c8d-ac64-c5a8103664be',
      aggs: [],
      gen: 0,
    });
    expect(r.data).toBeNull();
    expect(firstError(r)).toMatchObject({
      code: 'placement.resource_provider.not_found',
      status: 404,
    });
  });

  it('get empty aggregates', async () => {
    const rp = await buildResourceProvider(t.app.services);
    expect(await gql(t.app, GET_RP, { uuid: rp.uuid })).toEqual({
      data: { resourceProvider: { generation: 0, aggregates: [] } },
    });
  });

  it('put some aggregates - new payload and new microversion', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, SET, { uuid: rp.uuid, aggs: [AGG_1, AGG_2], gen: 0 });
    expect(r).toEqual({
      data: {
        setProviderAggregates: { generation: 1, aggregates: [{ uuid: AGG_2 }, { uuid: AGG_1 }] },
      },
    });
    const after = await gql(t.app, GET_RP, { uuid: rp.uuid });
    expect(after.data.resourceProvider.aggregates.map((a: { uuid: string }) => a.uuid)).toEqual([
      AGG_2,
      AGG_1,
    ]);
  });

  it('clear those aggregates - generation conflict', async () => {
    const rp = await buildResourceProvider(t.app.services, { aggregates: [AGG_1] });
    const r = await gql(t.app, SET, { uuid: rp.uuid, aggs: [], gen: 0 });
    expect(firstError(r)).toMatchObject({ code: 'placement.concurrent_update', status: 409 });
    expect((await gql(t.app, GET_RP, { uuid: rp.uuid })).data.resourceProvider.aggregates).toEqual([
      { uuid: AGG_1, name: null, metadata: [] },
    ]);
  });

  it('clear those aggregates', async () => {
    const rp = await buildResourceProvider(t.app.services, { aggregates: [AGG_1, AGG_2] });
    const r = await gql(t.app, SET, { uuid: rp.uuid, aggs: [], gen: 1 });
    expect(r).toEqual({ data: { setProviderAggregates: { generation: 2, aggregates: [] } } });
  });

  it('refuses a malformed aggregate uuid and writes nothing', async () => {
    const rp = await buildResourceProvider(t.app.services);
    const r = await gql(t.app, SET, { uuid: rp.uuid, aggs: [AGG_1, 'not-a-uuid'], gen: 0 });
    expect(firstError(r)).toEqual({
      code: 'berth.invalid_uuid',
      status: 400,
      message: "Invalid aggregate uuid: 'not-a-uuid' is not a valid UUID.",
    });
    expect(await gql(t.app, GET_RP, { uuid: rp.uuid })).toEqual({
      data: { resourceProvider: { generation: 0, aggregates: [] } },
    });
  });
});

describe('aggregate metadata', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates an aggregate with a name and metadata, sorted by key', async () => {
    const uuid = randomUUID();
    const r = await gql(t.app, META, {
      uuid,
      name: 'rack-1',
      metadata: [
        { key: 'ssd', value: 'true' },
        { key: 'availability_zone', value: 'az1' },
      ],
    });
    const want = {
      uuid,
      name: 'rack-1',
      metadata: [
        { key: 'availability_zone', value: 'az1' },
        { key: 'ssd', value: 'true' },
      ],
    };
    expect(r).toEqual({ data: { setAggregateMetadata: want } });
    expect(await gql(t.app, GET_AGG, { uuid })).toEqual({
      data: { aggregate: { ...want, providers: [] } },
    });
  });

  it('keeps the name when it is omitted, clears it when null, and replaces all metadata', async () => {
    const uuid = randomUUID();
    await gql(t.app, META, { uuid, name: 'keep', metadata: [{ key: 'a', value: '1' }] });
    const kept = await gql(t.app, META, { uuid, metadata: [{ key: 'b', value: '2' }] });
    expect(kept.data.setAggregateMetadata).toEqual({
      uuid,
      name: 'keep',
      metadata: [{ key: 'b', value: '2' }],
    });
    const cleared = await gql(t.app, META, { uuid, name: null, metadata: [] });
    expect(cleared.data.setAggregateMetadata).toEqual({ uuid, name: null, metadata: [] });
  });

  it('refuses duplicate keys and writes nothing', async () => {
    const uuid = randomUUID();
    const r = await gql(t.app, META, {
      uuid,
      name: 'dup',
      metadata: [
        { key: 'k', value: '1' },
        { key: 'k', value: '2' },
      ],
    });
    expect(firstError(r)).toEqual({
      code: 'berth.invalid_input',
      status: 400,
      message: "Duplicate aggregate metadata key 'k'.",
    });
    expect(await gql(t.app, GET_AGG, { uuid })).toEqual({ data: { aggregate: null } });
  });

  it('returns null for an unknown aggregate and a 400 for a malformed uuid', async () => {
    expect(await gql(t.app, GET_AGG, { uuid: randomUUID() })).toEqual({
      data: { aggregate: null },
    });
    const bad = await gql(t.app, GET_AGG, { uuid: 'nope' });
    expect(firstError(bad)).toMatchObject({ status: 400 });
  });

  it('lists member providers and every aggregate', async () => {
    const agg = randomUUID();
    const a = await buildResourceProvider(t.app.services, { aggregates: [agg] });
    const b = await buildResourceProvider(t.app.services, { aggregates: [agg] });
    await buildResourceProvider(t.app.services);
    await gql(t.app, META, { uuid: agg, name: 'pool', metadata: [] });
    const meta = randomUUID();
    await gql(t.app, META, { uuid: meta, metadata: [{ key: 'x', value: 'y' }] });
    const one = await gql(t.app, GET_AGG, { uuid: agg.toUpperCase() });
    expect(one.data.aggregate).toEqual({
      uuid: agg,
      name: 'pool',
      metadata: [],
      providers: [{ uuid: a.uuid }, { uuid: b.uuid }],
    });
    const all = await gql(t.app, '{ aggregates { uuid name providers { uuid } } }');
    expect(all.errors).toBeUndefined();
    expect(all.data.aggregates).toEqual(
      expect.arrayContaining([
        { uuid: agg, name: 'pool', providers: [{ uuid: a.uuid }, { uuid: b.uuid }] },
        { uuid: meta, name: null, providers: [] },
      ]),
    );
    const uuids = all.data.aggregates.map((x: { uuid: string }) => x.uuid);
    expect(uuids).toEqual([...uuids].sort());
  });
});
