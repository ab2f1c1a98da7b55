// GraphQL ResourceProvider.usages and the usages report (mirrors gabbits usage.yaml,
// with-allocations.yaml and consumer-types-bug-story-2009167.yaml).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const REPORT = `query U($p: String!, $u: String, $t: String) {
  usages(projectId: $p, userId: $u, consumerType: $t) {
    total { resourceClass used }
    byConsumerType { consumerType consumerCount usages { resourceClass used } }
  }
}`;
const RP_USAGES =
  'query R($uuid: ID!) { resourceProvider(uuid: $uuid) { usages { resourceClass used } } }';

describe('usage.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('fail to get usages for missing provider', async () => {
    expect(await gql(t.app, RP_USAGES, { uuid: 'fae14fa3-4b43-498c-a33c-4a1d00edb577' })).toEqual({
      data: { resourceProvider: null },
    });
  });

  it('get empty usages', async () => {
    const rp = await buildResourceProvider(t.app.services, { name: 'a name' });
    expect(await gql(t.app, RP_USAGES, { uuid: rp.uuid })).toEqual({
      data: { resourceProvider: { usages: [] } },
    });
  });

  it('get empty usages with project id', async () => {
    expect(await gql(t.app, REPORT, { p: randomUUID() })).toEqual({
      data: { usages: { total: [], byConsumerType: [] } },
    });
  });

  it('get empty usages with project id and user id', async () => {
    const r = await gql(t.app, REPORT, { p: randomUUID(), u: randomUUID() });
    expect(r).toEqual({ data: { usages: { total: [], byConsumerType: [] } } });
  });

  it.each([
    ['get total usages project_id less than min length', { p: '' }],
    ['get total usages user_id less than min length', { p: 'p', u: '' }],
    ['get total usages project_id exceeds max length', { p: 'x'.repeat(256) }],
    ['get total usages user_id exceeds max length', { p: 'p', u: 'x'.repeat(256) }],
  ])('%s', async (_name, vars) => {
    const r = await gql(t.app, REPORT, vars);
    expect(r.data).toBeNull();
    expect(firstError(r)).toMatchObject({ code: 'berth.invalid_input', status: 400 });
  });
});

describe('with-allocations.yaml', () => {
  let t: TestApp;
  let rp: { uuid: string };
  const project = randomUUID();
  beforeAll(async () => {
    t = await createTestApp();
    rp = await buildResourceProvider(t.app.services, {
      inventories: [
        { resourceClass: 'DISK_GB', total: 2048 },
        { resourceClass: 'VCPU', total: 32 },
        { resourceClass: 'MEMORY_MB', total: 1024 },
      ],
    });
    const s = t.app.services;
    // The AllocationFixture's three consumers: two for USER_ID, one for ALT_USER_ID.
    await s.allocations.set([
      { ...claim(rp.uuid, { DISK_GB: 1000 }), projectId: project, userId: 'user' },
      { ...claim(rp.uuid, { VCPU: 6 }), projectId: project, userId: 'user' },
      {
        ...claim(rp.uuid, { DISK_GB: 20, VCPU: 1 }),
        projectId: project,
        userId: 'alt-user',
        consumerType: 'MIGRATION',
      },
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('get usages', async () => {
    expect(await gql(t.app, RP_USAGES, { uuid: rp.uuid })).toEqual({
      data: {
        resourceProvider: {
          usages: [
            { resourceClass: 'VCPU', used: 7 },
            { resourceClass: 'MEMORY_MB', used: 0 },
            { resourceClass: 'DISK_GB', used: 1020 },
          ],
        },
      },
    });
  });

  it('get total usages by project', async () => {
    const r = await gql(t.app, REPORT, { p: project });
    expect(r).toEqual({
      data: {
        usages: {
          total: [
            { resourceClass: 'DISK_GB', used: 1020 },
            { resourceClass: 'VCPU', used: 7 },
          ],
          byConsumerType: [
            {
              consumerType: 'INSTANCE',
              consumerCount: 2,
              usages: [
                { resourceClass: 'DISK_GB', used: 1000 },
                { resourceClass: 'VCPU', used: 6 },
              ],
            },
            {
              consumerType: 'MIGRATION',
              consumerCount: 1,
              usages: [
                { resourceClass: 'DISK_GB', used: 20 },
                { resourceClass: 'VCPU', used: 1 },
              ],
            },
          ],
        },
      },
    });
  });

  it('get total usages by project and user', async () => {
    const r = await gql(t.app, REPORT, { p: project, u: 'user' });
    expect(r.data.usages.total).toEqual([
      { resourceClass: 'DISK_GB', used: 1000 },
      { resourceClass: 'VCPU', used: 6 },
    ]);
  });

  it('get total usages by project and alt user', async () => {
    const r = await gql(t.app, REPORT, { p: project, u: 'alt-user' });
    expect(r.data.usages.total).toEqual([
      { resourceClass: 'DISK_GB', used: 20 },
      { resourceClass: 'VCPU', used: 1 },
    ]);
  });

  it('filters by consumer type', async () => {
    const r = await gql(t.app, REPORT, { p: project, t: 'MIGRATION' });
    expect(r.data.usages.byConsumerType).toEqual([
      {
        consumerType: 'MIGRATION',
        consumerCount: 1,
        usages: [
          { resourceClass: 'DISK_GB', used: 20 },
          { resourceClass: 'VCPU', used: 1 },
        ],
      },
    ]);
  });
});

describe('consumer-types-bug-story-2009167.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('get allocation with 1.38 expected "unknown" consumer_type', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 100 }],
    });
    const project = randomUUID();
    const consumerUuid = randomUUID();
    const set = await gql(
      t.app,
      `mutation S($input: [ConsumerAllocationsInput!]!) { setAllocations(input: $input) { consumerType } }`,
      {
        input: [
          {
            consumerUuid,
            projectId: project,
            userId: 'user',
            allocations: [
              { providerUuid: rp.uuid, resources: [{ resourceClass: 'DISK_GB', amount: 10 }] },
            ],
          },
        ],
      },
    );
    expect(set).toEqual({ data: { setAllocations: [{ consumerType: 'unknown' }] } });
    const r = await gql(t.app, REPORT, { p: project, t: 'unknown' });
    expect(r.data.usages.byConsumerType).toEqual([
      {
        consumerType: 'unknown',
        consumerCount: 1,
        usages: [{ resourceClass: 'DISK_GB', used: 10 }],
      },
    ]);
  });
});
