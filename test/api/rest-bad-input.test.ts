// REST bad input never 500s: integers past 32 bits in query amounts (an empty answer, as in
// Placement), NUL characters in path segments (every method), JSON nested thousands of levels
// deep and inventories under keys that are no class name (400 in Placement's error shape,
// nothing written).
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { type RestClient, restClient } from '../support/rest';

const HEADERS = {
  'x-auth-token': 'admin',
  accept: 'application/json',
  'content-type': 'application/json',
  'openstack-api-version': 'placement latest',
};

describe('REST bad input', () => {
  let t: TestApp;
  let rest: RestClient;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2' });
    rest = await restClient(t.app, { headers: HEADERS });
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  const call = (method: string, path: string, body?: string) => rest.call(method, path, { body });

  // Placement accepts any digits and finds nothing that large (max_unit is 32-bit): so does berth.
  it.each([
    ['/allocation_candidates?resources=VCPU:2147483648', 'allocation_requests'],
    ['/allocation_candidates?resources=VCPU:99999999999999999999999', 'allocation_requests'],
    ['/allocation_candidates?resources1=VCPU:2147483648&group_policy=none', 'allocation_requests'],
    ['/resource_providers?resources=VCPU:2147483648', 'resource_providers'],
    ['/resource_providers?resources=VCPU:99999999999999999999999', 'resource_providers'],
  ])('answers an empty 200 for an amount past 32 bits: GET %s', async (path, key) => {
    await call(
      'POST',
      '/resource_providers',
      JSON.stringify({ name: `big-${key}-${path.length}` }),
    );
    const r = await call('GET', path);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)[key]).toEqual([]);
  });

  it.each([
    ['GET', '/traits/CUSTOM_A%00B'],
    ['PUT', '/traits/CUSTOM_A%00B'],
    ['DELETE', '/traits/CUSTOM_A%00B'],
    ['GET', '/resource_classes/CUSTOM_A%00B'],
    ['PUT', '/resource_classes/CUSTOM_A%00B'],
    ['DELETE', '/resource_classes/CUSTOM_A%00B'],
    ['GET', '/resource_providers/%00'],
    ['DELETE', '/allocations/%00'],
    ['GET', '/resource_providers/00000000-0000-0000-0000-000000000000/inventories/VC%00PU'],
  ])('answers 400 for a NUL in a path segment: %s %s', async (method, path) => {
    const r = await call(method, path);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).errors[0].detail).toMatch(/NUL|null character|invalid/i);
  });

  // Placement's schema checks only the `inventories` keys that are class names and answers 500
  // for a value under another key that is no object or has no numeric total; berth checks such
  // a value as an inventory (other fields ignored, as Placement's handler does).
  describe('an inventory under a key that is no class name', () => {
    let uuid: string;
    beforeAll(async () => {
      uuid = randomUUID();
      await call('POST', '/resource_providers', JSON.stringify({ name: `inv-${uuid}`, uuid }));
    });
    const putBody = (value: string) =>
      `{"resource_provider_generation": 0, "inventories": {"lower": ${value}}}`;

    it.each(['null', '5', '"x"', '[]', '{}', '{"total": "x"}', '{"total": 5, "reserved": -1}'])(
      'is checked as one: PUT .../inventories with %s',
      async (value) => {
        const r = await call('PUT', `/resource_providers/${uuid}/inventories`, putBody(value));
        expect(r.status).toBe(400);
        expect(JSON.parse(r.text).errors[0].detail).toMatch(
          /JSON does not validate: .+ Failed validating /,
        );
      },
    );

    it('is checked as one: POST /reshaper', async () => {
      const body = `{"inventories": {"${uuid}": ${putBody('null')}}, "allocations": {}}`;
      const r = await call('POST', '/reshaper', body);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text).errors[0].detail).toMatch(/JSON does not validate: None is not/);
    });

    it.each(['{"total": 5}', '{"total": 5, "foo": 1}'])(
      'names an unknown class when %s is an inventory, as in Placement',
      async (value) => {
        const r = await call('PUT', `/resource_providers/${uuid}/inventories`, putBody(value));
        expect(r.status).toBe(400);
        expect(JSON.parse(r.text).errors[0].detail).toContain(
          `Unknown resource class in inventory for resource provider ${uuid}: No such resource class lower.`,
        );
      },
    );
  });

  it.each([
    ['POST', '/resource_providers'],
    ['POST', '/resource_classes'],
    ['POST', '/allocations'],
    ['POST', '/reshaper'],
  ])('answers 400 for JSON nested 3,000 levels deep: %s %s', async (method, path) => {
    const deep = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    const r = await call(method, path, `{"name": ${deep}}`);
    expect(r.status).toBe(400);
    const objects = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`;
    expect((await call(method, path, objects)).status).toBe(400);
    expect(JSON.parse((await call(method, path, objects)).text).errors[0].detail).toMatch(
      /nested deeper than 64 levels/,
    );
  });
});
