// The audit trail through the APIs: a GraphQL mutation, a REST write and a `schedule` claim each
// append one event naming the token, the operation and the request id; a refused REST write
// leaves none; no token secret is ever stored; `auditEvents` is admin only and shows `details`.
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { type RestClient, restClient } from '../support/rest';

describe('audit trail (API)', () => {
  let t: TestApp;
  let rest: RestClient;
  const tokens: Record<string, { token: string; id: string }> = {};

  async function gql(query: string, variables: object, token: string) {
    const res = await t.app.graphql.fetch('http://berth.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as {
      data?: Record<string, any> | null;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
  }

  const rows = (): Promise<Record<string, unknown>[]> =>
    t.app.dataSource.query('SELECT * FROM audit_events ORDER BY id');

  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on', BERTH_REST_AUTH: 'token' });
    for (const role of ['admin', 'service', 'scheduler', 'reader']) {
      const created = await t.app.tokens.create({ role, name: `audit-${role}` });
      tokens[role] = { token: created.token, id: created.info.id };
    }
    rest = await restClient(t.app, { headers: {} });
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });
  beforeEach(async () => {
    await t.app.dataSource.query('DELETE FROM audit_events');
  });

  it('records a GraphQL mutation with the token and never its secret', async () => {
    const uuid = randomUUID();
    const r = await gql(
      'mutation($i: CreateResourceProviderInput!) { createResourceProvider(input: $i) { uuid } }',
      { i: { name: `audit-${uuid}`, uuid } },
      tokens.service!.token,
    );
    expect(r.errors).toBeUndefined();
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      actor_kind: 'token',
      actor_id: tokens.service!.id,
      actor_name: 'audit-service',
      role: 'service',
      operation: 'mutation createResourceProvider',
      providers: [uuid],
    });
    expect(all[0]!.request_id).toEqual(expect.any(String));
    const json = JSON.stringify(await t.app.dataSource.query('SELECT * FROM audit_events'));
    for (const { token } of Object.values(tokens)) {
      expect(json).not.toContain(token);
      expect(json).not.toContain(token.split('_').at(-1));
    }
  });

  it('records a REST write with its route template and x-openstack-request-id', async () => {
    const rp = await buildResourceProvider(t.app.services);
    await t.app.dataSource.query('DELETE FROM audit_events');
    const headers = {
      'x-auth-token': tokens.service!.token,
      'openstack-api-version': 'placement latest',
    };
    const stale = await rest.call('PUT', `/resource_providers/${rp.uuid}/inventories`, {
      headers,
      body: {
        resource_provider_generation: rp.generation + 3,
        inventories: { VCPU: { total: 4 } },
      },
    });
    expect(stale.status).toBe(409);
    expect(await rows()).toEqual([]);
    const ok = await rest.call('PUT', `/resource_providers/${rp.uuid}/inventories`, {
      headers,
      body: { resource_provider_generation: rp.generation, inventories: { VCPU: { total: 4 } } },
    });
    expect(ok.status).toBe(200);
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      actor_id: tokens.service!.id,
      operation: 'PUT /resource_providers/{uuid}/inventories',
      request_id: ok.headers.get('x-openstack-request-id'),
      providers: [rp.uuid],
    });
  });

  it('records a schedule claim as the scheduler token', async () => {
    const rp = await buildResourceProvider(t.app.services, {
      inventories: [{ resourceClass: 'VCPU', total: 8 }],
    });
    await t.app.dataSource.query('DELETE FROM audit_events');
    const consumer = randomUUID();
    const r = await gql(
      'mutation($i: ScheduleInput!) { schedule(input: $i) { selections { consumerUuid } } }',
      {
        i: {
          consumerUuids: [consumer],
          projectId: 'p-audit',
          userId: 'u-audit',
          request: { groups: [{ suffix: '', resources: [{ resourceClass: 'VCPU', amount: 2 }] }] },
        },
      },
      tokens.scheduler!.token,
    );
    expect(r.errors).toBeUndefined();
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({
      actor_name: 'audit-scheduler',
      operation: 'mutation schedule',
      consumers: [consumer],
      providers: [rp.uuid],
      projects: ['p-audit'],
    });
  });

  it('shows what an inventory write set as JSON details to admins', async () => {
    const rp = await buildResourceProvider(t.app.services);
    await t.app.dataSource.query('DELETE FROM audit_events');
    const ok = await rest.call('PUT', `/resource_providers/${rp.uuid}/inventories`, {
      headers: { 'x-auth-token': tokens.service!.token, 'openstack-api-version': 'placement 1.39' },
      body: {
        resource_provider_generation: rp.generation,
        inventories: { VCPU: { total: 4, reserved: 4, allocation_ratio: 1.5 } },
      },
    });
    expect(ok.status).toBe(200);
    const r = await gql(
      '{ auditEvents(first: 1) { edges { node { operation details } } } }',
      {},
      tokens.admin!.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.auditEvents.edges).toEqual([
      {
        node: {
          operation: 'PUT /resource_providers/{uuid}/inventories',
          details: {
            inventories: {
              provider: rp.uuid,
              set: { VCPU: { total: 4, reserved: 4, allocation_ratio: 1.5 } },
            },
          },
        },
      },
    ]);
  });

  it('lets only admin tokens read auditEvents', async () => {
    await buildResourceProvider(t.app.services);
    const q = '{ auditEvents(first: 5) { edges { node { operation actor { kind } } } } }';
    for (const role of ['reader', 'scheduler', 'service']) {
      const r = await gql(q, {}, tokens[role]!.token);
      expect(r.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
      expect(r.data ?? null).toBeNull();
    }
    const ok = await gql(q, {}, tokens.admin!.token);
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.auditEvents.edges).toEqual([
      { node: { operation: 'internal', actor: { kind: 'system' } } },
    ]);
  });
});
