// REST facade in token mode (BERTH_REST_AUTH=token, BERTH_AUTH=on): x-auth-token verified, each
// role against a read, an allocation write and an admin write; 401/403 in Placement's error
// body; and no token ever reaches the logs.
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/observability/logger';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { type RestClient, restClient } from '../support/rest';

describe('REST token mode (BERTH_AUTH=on)', () => {
  let t: TestApp;
  let rest: RestClient;
  let logs = '';
  let rp: string;
  const tokens: Record<string, string> = {};

  const call = (method: string, path: string, token?: string, body?: unknown) =>
    rest.call(method, path, {
      headers: {
        accept: 'application/json',
        'openstack-api-version': 'placement latest',
        ...(token === undefined ? {} : { 'x-auth-token': token }),
      },
      body,
    });

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs += String(chunk);
        done();
      },
    });
    t = await createTestApp(
      { BERTH_AUTH: 'on', BERTH_REST_AUTH: 'token' },
      { logger: createLogger('trace', sink) },
    );
    for (const role of ['admin', 'scheduler', 'reader']) {
      tokens[role] = (await t.app.tokens.create({ role })).token;
    }
    tokens.scoped = (await t.app.tokens.create({ role: 'scheduler', project: 'p' })).token;
    rp = (
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 100 }],
      })
    ).uuid;
    rest = await restClient(t.app, { prefix: '' });
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  it('returns 401 with Placement’s error body when x-auth-token is missing or invalid', async () => {
    for (const token of [undefined, 'admin', `berth_0123456789abcdef_${'x'.repeat(43)}`]) {
      const r = await call('GET', '/placement/resource_providers', token);
      expect(r.status).toBe(401);
      expect(r.json.errors[0]).toMatchObject({ status: 401, title: 'Unauthorized' });
      expect(r.json.errors[0].detail).toMatch(/API token/);
    }
  });

  const table = [
    { role: 'reader', read: 200, write: 403, admin: 403 },
    { role: 'scheduler', read: 200, write: 204, admin: 403 },
    { role: 'admin', read: 200, write: 204, admin: 200 },
  ];

  it.each(table)('$role: GET /resource_providers → $read', async ({ role, read }) => {
    expect((await call('GET', '/placement/resource_providers', tokens[role])).status).toBe(read);
  });

  it.each(table)('$role: PUT /allocations/{c} → $write', async ({ role, write }) => {
    const consumer = randomUUID();
    const r = await call('PUT', `/placement/allocations/${consumer}`, tokens[role], {
      allocations: { [rp]: { resources: { VCPU: 1 } } },
      project_id: 'p',
      user_id: 'u',
      consumer_generation: null,
      consumer_type: 'INSTANCE',
    });
    expect(r.status).toBe(write);
    if (write === 403) {
      expect(r.json.errors[0].detail).toContain('placement:allocations:update');
    }
    const rows: unknown[] = await t.app.dataSource.query(
      'SELECT 1 FROM consumers WHERE uuid = $1',
      [consumer],
    );
    expect(rows).toHaveLength(write === 204 ? 1 : 0);
  });

  it.each(table)('$role: PUT /traits/CUSTOM_X (admin-only) → $admin', async ({ role, admin }) => {
    const name = `CUSTOM_REST_${role.toUpperCase()}`;
    const r = await call('PUT', `/placement/traits/${name}`, tokens[role]);
    expect(r.status).toBe(admin === 200 ? 201 : 403);
  });

  it('refuses REST allocation writes for a project-scoped token', async () => {
    const r = await call('PUT', `/placement/allocations/${randomUUID()}`, tokens.scoped, {
      allocations: { [rp]: { resources: { VCPU: 1 } } },
      project_id: 'p',
      user_id: 'u',
      consumer_generation: null,
    });
    expect(r.status).toBe(403);
    expect(r.json.errors[0].detail).toContain('Project-scoped tokens');
  });

  it('answers another project’s consumer exactly as an unknown one for a project-scoped token', async () => {
    const member = (await t.app.tokens.create({ role: 'member', project: 'p' })).token;
    const write = async (consumer: string, project: string) => {
      const r = await call('PUT', `/placement/allocations/${consumer}`, tokens.admin, {
        allocations: { [rp]: { resources: { VCPU: 1 } } },
        project_id: project,
        user_id: 'u',
        consumer_generation: null,
        consumer_type: 'INSTANCE',
      });
      expect(r.status).toBe(204);
    };
    const theirs = randomUUID();
    const mine = randomUUID();
    await write(theirs, 'other');
    await write(mine, 'p');
    /** Status, body and headers, less those that differ between any two requests. */
    const answer = async (consumer: string, version: string, token: string) => {
      const r = await rest.call('GET', `/placement/allocations/${consumer}`, {
        headers: {
          accept: 'application/json',
          'openstack-api-version': `placement ${version}`,
          'x-auth-token': token,
        },
      });
      const varying = ['date', 'last-modified', 'x-openstack-request-id', 'x-request-id'];
      const headers = [...r.headers].filter(([k]) => !varying.includes(k));
      return { status: r.status, body: r.text, headers, dated: r.headers.has('last-modified') };
    };
    for (const version of ['1.0', '1.12', '1.28', '1.38', 'latest']) {
      const unknown = await answer(randomUUID(), version, member);
      expect(unknown).toMatchObject({ status: 200, body: '{"allocations":{}}' });
      expect({ version, ...(await answer(theirs, version, member)) }).toEqual({
        version,
        ...unknown,
      });
    }
    // Its own consumer, and the foreign one for an unscoped token, are read as they are.
    expect(JSON.parse((await answer(mine, 'latest', member)).body)).toMatchObject({
      allocations: { [rp]: { resources: { VCPU: 1 } } },
      project_id: 'p',
    });
    expect(JSON.parse((await answer(theirs, 'latest', tokens.reader!)).body)).toMatchObject({
      allocations: { [rp]: { resources: { VCPU: 1 } } },
      project_id: 'other',
    });
  });

  it('never writes a token to the logs (requests logged, secrets redacted)', async () => {
    await fetch(`${rest.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.admin}` },
      body: JSON.stringify({ query: '{ resourceClasses { name } }' }),
    });
    await fetch(`${rest.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer berth_wrong_token' },
      body: JSON.stringify({ query: '{ resourceClasses { name } }' }),
    });
    // Anything that logs headers or a token field is redacted by the logger itself.
    t.app.log.info({ headers: { authorization: `Bearer ${tokens.admin}` } }, 'headers');
    t.app.log.info({ req: { headers: { 'x-auth-token': tokens.reader } } }, 'req');
    t.app.log.info({ token: tokens.scheduler }, 'token');
    expect(logs).toContain('"msg":"request"');
    expect(logs).toContain('[redacted]');
    for (const tok of Object.values(tokens)) {
      expect(logs).not.toContain(tok);
      expect(logs).not.toContain(tok.split('_')[2]);
    }
    expect(logs).not.toContain('berth_wrong_token');
  });
});
