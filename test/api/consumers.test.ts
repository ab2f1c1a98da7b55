// GraphQL consumer and Consumer.allocations (mirrors the GET /allocations/{consumer_uuid} steps of
// gabbits allocations.yaml and allocations-1.28.yaml).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const CONSUMER = `query C($uuid: ID!) {
  consumer(uuid: $uuid) {
    uuid projectId userId consumerType generation
    allocations { provider { uuid name } resourceClass used consumer { uuid } }
  }
}`;

describe('allocations.yaml', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('get allocations is empty dict', async () => {
    expect(await gql(t.app, CONSUMER, { uuid: randomUUID() })).toEqual({
      data: { consumer: null },
    });
  });

  it('check allocations by consumer id', async () => {
    const rp1 = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'DISK_GB', total: 100 }],
    });
    const rp2 = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    const c = claim(rp1.uuid, { DISK_GB: 5 });
    await t.app.services.allocations.set([
      { ...c, allocations: [...c.allocations, { providerUuid: rp2.uuid, resources: { VCPU: 2 } }] },
    ]);
    const r = await gql(t.app, CONSUMER, { uuid: c.consumerUuid.toUpperCase() });
    expect(r).toEqual({
      data: {
        consumer: {
          uuid: c.consumerUuid,
          projectId: 'proj',
          userId: 'user',
          consumerType: 'INSTANCE',
          generation: 1,
          allocations: [
            {
              provider: { uuid: rp1.uuid, name: rp1.name },
              resourceClass: 'DISK_GB',
              used: 5,
              consumer: { uuid: c.consumerUuid },
            },
            {
              provider: { uuid: rp2.uuid, name: rp2.name },
              resourceClass: 'VCPU',
              used: 2,
              consumer: { uuid: c.consumerUuid },
            },
          ],
        },
      },
    });
  });

  it('refuses a malformed consumer uuid', async () => {
    const r = await gql(t.app, CONSUMER, { uuid: 'not-a-uuid' });
    expect(r.data).toEqual({ consumer: null });
    expect(firstError(r)).toEqual({
      code: 'berth.invalid_uuid',
      status: 400,
      message: "Invalid consumer uuid: 'not-a-uuid' is not a valid UUID.",
    });
  });
});
