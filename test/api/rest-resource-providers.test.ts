// REST facade over HTTP: root, auth, microversions, errors and resource providers (ports of
// gabbits basic-http.yaml, confirm-auth.yaml, microversion.yaml, resource-provider.yaml).
import { createTestApp, type TestApp } from '../support/app';
import { type RestClient, restClient } from '../support/rest';

const ADMIN = { 'x-auth-token': 'admin', accept: 'application/json' };
const JSON_BODY = { ...ADMIN, 'content-type': 'application/json' };
const RP = '6b4a2c2e-39a1-4d8e-9d7d-2a4e3f1b5c01';

describe('REST facade: resource-provider.yaml and friends', () => {
  let t: TestApp;
  let rest: RestClient;

  const call = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    rest.call(method, path, { headers, body });

  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2' });
    rest = await restClient(t.app);
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  it('serves the version document at the root without a token, with microversion headers', async () => {
    const r = await call('GET', '/', {});
    expect(r.status).toBe(200);
    expect(r.json.versions[0]).toMatchObject({
      id: 'v1.0',
      min_version: '1.0',
      max_version: '1.39',
    });
    expect(r.headers.get('openstack-api-version')).toBe('placement 1.0');
    expect(r.headers.get('vary')).toBe('openstack-api-version');
    expect(r.headers.get('x-openstack-request-id')).toMatch(/^req-[0-9a-f-]+$/);
  });

  it('returns 401 without a token and 403 for a non-admin token (confirm-auth.yaml)', async () => {
    expect((await call('GET', '/resource_providers', { accept: 'application/json' })).status).toBe(
      401,
    );
    const r = await call('GET', '/resource_providers', {
      'x-auth-token': 'user',
      accept: 'application/json',
    });
    expect(r.status).toBe(403);
    expect(r.json.errors[0].title).toBe('Forbidden');
  });

  it('refuses NUL characters in query strings and JSON bodies with 400, writing nothing', async () => {
    // Found by the REST fuzzer: a NUL reached PostgreSQL ('invalid byte sequence') as a 500.
    const q = await call('GET', '/resource_providers?name=a%00b', ADMIN);
    expect(q.status).toBe(400);
    expect(q.json.errors[0].detail).toMatch(/NUL/);
    const b = await call(
      'POST',
      '/resource_providers',
      { ...ADMIN, 'content-type': 'application/json' },
      { name: 'nul\u0000name' },
    );
    expect(b.status).toBe(400);
    expect(b.json.errors[0].detail).toMatch(/NUL/);
    const list = await call('GET', '/resource_providers', ADMIN);
    expect(list.json.resource_providers.map((p: { name: string }) => p.name)).not.toContain(
      'nul\u0000name',
    );
  });

  it('formats errors as Placement does, with the code from 1.23 (basic-http.yaml)', async () => {
    const r = await call('GET', '/barnabas', {
      ...ADMIN,
      'openstack-api-version': 'placement 1.23',
    });
    expect(r.status).toBe(404);
    expect(r.json.errors[0]).toMatchObject({
      status: 404,
      title: 'Not Found',
      code: 'placement.undefined_code',
    });
    expect(r.json.errors[0].request_id).toBe(r.headers.get('x-openstack-request-id'));
    const bad = await call('DELETE', '/resource_providers', ADMIN);
    expect(bad.status).toBe(405);
    expect(bad.headers.get('allow')).toBe('GET, POST');
  });

  it('negotiates microversions: latest, 406 unknown, 400 malformed (microversion.yaml)', async () => {
    const latest = await call('GET', '/', { 'openstack-api-version': 'placement latest' });
    expect(latest.headers.get('openstack-api-version')).toBe('placement 1.39');
    const unknown = await call('GET', '/', { 'openstack-api-version': 'placement 0.5' });
    expect(unknown.status).toBe(406);
    expect(unknown.json.errors[0]).toMatchObject({ max_version: '1.39', min_version: '1.0' });
    expect((await call('GET', '/', { 'openstack-api-version': 'placement 1.2.3' })).status).toBe(
      400,
    );
  });

  it('checks Accept and Content-Type (406, 415, 400)', async () => {
    const plain = await call('GET', '/resource_providers', { ...ADMIN, accept: 'text/plain' });
    expect(plain.status).toBe(406);
    expect(plain.text).toContain('Only application/json is provided');
    const r = await call(
      'POST',
      '/resource_providers',
      { ...ADMIN, 'content-type': 'text/plain' },
      'x',
    );
    expect(r.status).toBe(415);
    const schema = await call('POST', '/resource_providers', JSON_BODY, { transport: 'car' });
    expect(schema.status).toBe(400);
    expect(schema.json.errors[0].detail).toContain(
      "JSON does not validate: 'name' is a required property",
    );
  });

  it('creates a provider: 201 without body before 1.20, 200 with body from 1.20', async () => {
    const old = await call('POST', '/resource_providers', JSON_BODY, { name: 'old-rp' });
    expect(old.status).toBe(201);
    expect(old.text).toBe('');
    expect(old.headers.get('location')).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/placement\/resource_providers\//,
    );
    const r = await call(
      'POST',
      '/resource_providers',
      { ...JSON_BODY, 'openstack-api-version': 'placement 1.20' },
      { name: 'rp-1', uuid: RP },
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ uuid: RP, name: 'rp-1', generation: 0, root_provider_uuid: RP });
    expect(r.json.links[0]).toEqual({ rel: 'self', href: `/placement/resource_providers/${RP}` });
    expect(r.headers.get('cache-control')).toBe('no-cache');
  });

  it('refuses a duplicate with placement.duplicate_name', async () => {
    const r = await call(
      'POST',
      '/resource_providers',
      { ...JSON_BODY, 'openstack-api-version': 'placement 1.23' },
      { name: 'rp-1' },
    );
    expect(r.status).toBe(409);
    expect(r.json.errors[0].code).toBe('placement.duplicate_name');
  });

  it('lists and filters providers, shaped by microversion', async () => {
    const v10 = await call('GET', `/resource_providers?uuid=${RP}`, ADMIN);
    expect(v10.json.resource_providers).toHaveLength(1);
    expect(v10.json.resource_providers[0]).not.toHaveProperty('root_provider_uuid');
    const v114 = await call('GET', '/resource_providers?name=rp-1', {
      ...ADMIN,
      'openstack-api-version': 'placement 1.14',
    });
    expect(v114.json.resource_providers[0].parent_provider_uuid).toBeNull();
    const unknownParam = await call('GET', '/resource_providers?in_tree=x', ADMIN);
    expect(unknownParam.status).toBe(400);
    expect(unknownParam.json.errors[0].detail).toContain('Invalid query string parameters');
  });

  it('updates and deletes a provider', async () => {
    const u = await call('PUT', `/resource_providers/${RP}`, JSON_BODY, { name: 'rp-renamed' });
    expect(u.status).toBe(200);
    expect(u.json.name).toBe('rp-renamed');
    expect((await call('DELETE', `/resource_providers/${RP}`, ADMIN)).status).toBe(204);
    const gone = await call('DELETE', `/resource_providers/${RP}`, ADMIN);
    expect(gone.status).toBe(404);
    expect(gone.json.errors[0].detail).toContain(
      `No resource provider with uuid ${RP} found for delete`,
    );
  });
});
