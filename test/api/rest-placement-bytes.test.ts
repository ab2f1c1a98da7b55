// Byte-level parity of the REST facade with the real Placement 8.0: the expectations below are
// what Placement 8.0.0 (Debian bookworm, noauth2, PostgreSQL) answered to the same requests in
// test/conformance/differential.mjs, with uuids and request ids substituted. Placement's JSON
// separators are ", " and ": " (json.dumps); berth writes none, so whole bodies are compared
// with that whitespace removed and string values (error details) are compared exactly.
import { request } from 'node:http';
import { createTestApp, type TestApp } from '../support/app';
import { closeServer, listen } from '../support/rest';

const ROOT = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0001';
const CHILD = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0002';
const GRANDCHILD = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0003';
const CHILD2 = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0004';
const LONE = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0005';
const MISSING = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a00ff';
const CONSUMER = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0100';
const PROJECT = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0200';
const USER = '7a1f0c52-1d55-4c1e-9a43-0e6c1b0a0300';

interface Reply {
  status: number;
  /** Header names as sent, lower-cased name -> [name, value]. */
  headers: Map<string, [string, string]>;
  text: string;
  detail: string | undefined;
}

/** Python json.dumps output with its ", " / ": " separators removed (outside strings). */
function compact(python: string): string {
  return python.replace(/("(?:[^"\\]|\\.)*")|, |: /g, (m, str: string | undefined) =>
    str ? str : m.trim(),
  );
}

describe('REST facade: byte parity with Placement 8.0', () => {
  let t: TestApp;
  let base: string;
  let server: import('node:http').Server;

  function call(
    method: string,
    path: string,
    o: { body?: string; version?: string; headers?: Record<string, string> } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {
      'x-auth-token': 'admin',
      accept: 'application/json',
      'openstack-api-version': `placement ${o.version ?? '1.39'}`,
      ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...o.headers,
    };
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const map = new Map<string, [string, string]>();
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            map.set(res.rawHeaders[i]!.toLowerCase(), [res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          }
          const text = Buffer.concat(chunks).toString();
          let detail: string | undefined;
          try {
            detail = JSON.parse(text).errors?.[0]?.detail;
          } catch {
            detail = undefined;
          }
          resolve({ status: res.statusCode!, headers: map, text, detail });
        });
      });
      req.on('error', reject);
      req.end(o.body);
    });
  }

  const post = (path: string, body: unknown, version?: string) =>
    call('POST', path, { body: JSON.stringify(body), version });

  beforeAll(async () => {
    t = await createTestApp({ BERTH_REST_AUTH: 'noauth2', BERTH_REST_PREFIX: '' });
    ({ server, base } = await listen((req, res) => t.app.handle(req, res)));
    expect((await post('/resource_providers', { name: 'root', uuid: ROOT })).status).toBe(200);
    for (const [uuid, parent] of [
      [CHILD, ROOT],
      [GRANDCHILD, CHILD],
      [CHILD2, ROOT],
    ]) {
      const r = await post('/resource_providers', {
        name: uuid,
        uuid,
        parent_provider_uuid: parent,
      });
      expect(r.status).toBe(200);
    }
    expect((await post('/resource_providers', { name: 'lone', uuid: LONE })).status).toBe(200);
  });
  afterAll(async () => {
    await closeServer(server);
    await t.close();
  });

  it('spells Content-Type, Location, Cache-Control, Last-Modified as webob does', async () => {
    const r = await post('/resource_providers', { name: 'casing' });
    expect(r.status).toBe(200);
    const names = [...r.headers.values()].map(([name]) => name);
    expect(names).toEqual(
      expect.arrayContaining([
        'Content-Type',
        'Content-Length',
        'Location',
        'Cache-Control',
        'Last-Modified',
        'openstack-api-version',
        'vary',
        'x-openstack-request-id',
      ]),
    );
    expect(names).not.toContain('content-type');
    expect(r.headers.get('content-length')![1]).toBe(String(Buffer.byteLength(r.text)));
  });

  it('lists ?in_tree= in provider id order, root first (as Placement)', async () => {
    const r = await call('GET', `/resource_providers?in_tree=${GRANDCHILD}`);
    expect(JSON.parse(r.text).resource_providers.map((p: { uuid: string }) => p.uuid)).toEqual([
      ROOT,
      CHILD,
      GRANDCHILD,
      CHILD2,
    ]);
  });

  it('writes stored allocation ratios as floats and echoes the ones a write sent as given', async () => {
    const put = await call('PUT', `/resource_providers/${ROOT}/inventories`, {
      body: '{"resource_provider_generation": 0, "inventories": {"VCPU": {"total": 4, "allocation_ratio": 4}, "MEMORY_MB": {"total": 2048, "allocation_ratio": 1.5, "reserved": 512}, "DISK_GB": {"total": 100}}}',
    });
    expect(put.status).toBe(200);
    expect(put.text).toBe(
      compact(
        '{"resource_provider_generation": 1, "inventories": {"VCPU": {"total": 4, "reserved": 0, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 4}, "MEMORY_MB": {"total": 2048, "reserved": 512, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 1.5}, "DISK_GB": {"total": 100, "reserved": 0, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 1.0}}}',
      ),
    );
    const get = await call('GET', `/resource_providers/${ROOT}/inventories`);
    expect(get.text).toBe(
      compact(
        '{"resource_provider_generation": 1, "inventories": {"VCPU": {"total": 4, "reserved": 0, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 4.0}, "MEMORY_MB": {"total": 2048, "reserved": 512, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 1.5}, "DISK_GB": {"total": 100, "reserved": 0, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 1.0}}}',
      ),
    );
    const one = await call('GET', `/resource_providers/${ROOT}/inventories/VCPU`);
    expect(one.text).toBe(
      compact(
        '{"total": 4, "reserved": 0, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 4.0, "resource_provider_generation": 1}',
      ),
    );
    const update = await call('PUT', `/resource_providers/${ROOT}/inventories/DISK_GB`, {
      body: '{"resource_provider_generation": 1, "total": 200, "allocation_ratio": 2.0}',
    });
    expect(update.text).toBe(
      compact(
        '{"total": 200, "reserved": 0, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 2.0, "resource_provider_generation": 2}',
      ),
    );
    const created = await call('POST', `/resource_providers/${LONE}/inventories`, {
      body: '{"resource_class": "VCPU", "total": 8, "allocation_ratio": 16}',
    });
    expect(created.status).toBe(201);
    expect(created.text).toBe(
      compact(
        '{"total": 8, "reserved": 0, "min_unit": 1, "max_unit": 2147483647, "step_size": 1, "allocation_ratio": 16, "resource_provider_generation": 1}',
      ),
    );
  });

  it("words an over-capacity allocation as Placement (no capacity figures) with webob's detail", async () => {
    const r = await call('PUT', `/allocations/${CONSUMER}`, {
      body: JSON.stringify({
        allocations: { [ROOT]: { resources: { VCPU: 17 } } },
        project_id: PROJECT,
        user_id: USER,
        consumer_generation: null,
        consumer_type: 'INSTANCE',
      }),
    });
    expect(r.status).toBe(409);
    expect(r.detail).toBe(
      `There was a conflict when trying to complete your request.\n\n Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${ROOT}'. The requested amount would exceed the capacity.  `,
    );
    expect(JSON.parse(r.text).errors[0].code).toBe('placement.undefined_code');
  });

  it('refuses to delete a root with children and allocations as a parent (children first)', async () => {
    const alloc = await call('PUT', `/allocations/${CONSUMER}`, {
      body: JSON.stringify({
        allocations: { [ROOT]: { resources: { VCPU: 2 } } },
        project_id: PROJECT,
        user_id: USER,
        consumer_generation: null,
        consumer_type: 'INSTANCE',
      }),
    });
    expect(alloc.status).toBe(204);
    const r = await call('DELETE', `/resource_providers/${ROOT}`);
    expect(r.status).toBe(409);
    const rid = JSON.parse(r.text).errors[0].request_id as string;
    expect(r.text).toBe(
      compact(
        `{"errors": [{"status": 409, "title": "Conflict", "detail": "There was a conflict when trying to complete your request.\\n\\n Unable to delete parent resource provider ${ROOT}: It has child resource providers.  ", "code": "placement.resource_provider.cannot_delete_parent", "request_id": "${rid}"}]}`,
      ),
    );
  });

  it("prints a missing consumer generation as Python's None", async () => {
    const r = await call('PUT', `/allocations/${CONSUMER}`, {
      body: JSON.stringify({
        allocations: { [ROOT]: { resources: { VCPU: 1 } } },
        project_id: PROJECT,
        user_id: USER,
        consumer_generation: null,
        consumer_type: 'INSTANCE',
      }),
    });
    expect(r.status).toBe(409);
    expect(r.detail).toBe(
      'There was a conflict when trying to complete your request.\n\n consumer generation conflict - expected 1 but got None  ',
    );
  });

  it.each([
    // [method, path, vary?]: errors Placement raises outside its handlers carry no vary
    ['GET', `/resource_providers/${MISSING}`, false],
    ['PUT', `/resource_providers/${MISSING}`, false],
    ['GET', `/resource_providers/${MISSING}/aggregates`, false],
    ['GET', '/resource_classes/CUSTOM_NO_SUCH', false],
    ['GET', '/no_such_thing', false],
    ['DELETE', `/resource_providers/${MISSING}`, true],
    ['GET', `/resource_providers/${MISSING}/inventories`, true],
    ['GET', '/traits/CUSTOM_NO_SUCH', true],
    ['PATCH', `/resource_providers/${ROOT}`, true],
  ] as const)('%s %s: vary only on responses of a handler', async (method, path, vary) => {
    const r = await call(method, path, method === 'PUT' ? { body: '{"name": "x"}' } : {});
    expect(r.status).toBe(method === 'PATCH' ? 405 : 404);
    expect(r.headers.get('openstack-api-version')?.[1]).toBe('placement 1.39');
    expect(r.headers.has('vary')).toBe(vary);
  });

  it('404 and 403 details end as webob writes them', async () => {
    const show = await call('GET', `/resource_providers/${MISSING}`, { version: '1.0' });
    expect(show.text).toBe(
      compact(
        `{"errors": [{"status": 404, "title": "Not Found", "detail": "The resource could not be found.\\n\\n No resource provider with uuid ${MISSING} found  ", "request_id": "${JSON.parse(show.text).errors[0].request_id}"}]}`,
      ),
    );
    const route = await call('GET', '/no_such_thing');
    expect(route.detail).toBe('The resource could not be found.\n\n   ');
    const forbidden = await call('GET', '/resource_providers', {
      headers: { 'x-auth-token': 'user1' },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.has('vary')).toBe(false);
    expect(forbidden.detail).toBe(
      'Access was denied to this resource.\n\n Policy does not allow placement:resource_providers:list to be performed.  ',
    );
  });

  it("lists a provider's traits in trait creation (id) order, as Placement's PUT answer", async () => {
    for (const n of ['C', 'A', 'B']) {
      expect((await call('PUT', `/traits/CUSTOM_ORDER_${n}`)).status).toBe(201);
    }
    const rp = JSON.parse((await call('GET', `/resource_providers/${LONE}`)).text);
    const put = await call('PUT', `/resource_providers/${LONE}/traits`, {
      body: JSON.stringify({
        resource_provider_generation: rp.generation,
        traits: ['CUSTOM_ORDER_B', 'CUSTOM_ORDER_A', 'CUSTOM_ORDER_C'],
      }),
    });
    expect(JSON.parse(put.text).traits).toEqual([
      'CUSTOM_ORDER_C',
      'CUSTOM_ORDER_A',
      'CUSTOM_ORDER_B',
    ]);
    const list = await call('GET', '/traits?name=startswith:CUSTOM_ORDER_');
    expect(list.text).toBe(
      compact('{"traits": ["CUSTOM_ORDER_C", "CUSTOM_ORDER_A", "CUSTOM_ORDER_B"]}'),
    );
  });
});
