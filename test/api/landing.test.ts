// What a browser finds at the server's address: `/` sends it to the console, /favicon.ico is an
// icon, GraphiQL is titled berth and opens on a query that answers on a fresh server. With the
// REST facade mounted at '/', `/` stays Placement's version document for every client but a
// browser's page load.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_QUERY } from '../../src/http/graphiql-assets';
import { createTestApp, type TestApp } from '../support/app';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

async function listen(t: TestApp): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => t.app.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.each([
  ['/placement (default)', {}],
  ["'' (Placement at /)", { BERTH_REST_PREFIX: '' }],
])('landing with the REST facade at %s', (_name, env: Record<string, string>) => {
  let t: TestApp;
  let server: Server;
  let base: string;
  const atRoot = env.BERTH_REST_PREFIX === '';

  beforeAll(async () => {
    t = await createTestApp(env);
    ({ server, base } = await listen(t));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('redirects a browser from / to the console', async () => {
    for (const method of ['GET', 'HEAD']) {
      const r = await fetch(`${base}/`, {
        method,
        headers: { accept: BROWSER },
        redirect: 'manual',
      });
      expect({ method, status: r.status, location: r.headers.get('location') }).toEqual({
        method,
        status: 302,
        location: '/ui/',
      });
    }
  });

  it('answers JSON clients at / as before', async () => {
    const plain = await fetch(`${base}/`, { redirect: 'manual' });
    const json = await fetch(`${base}/`, {
      headers: { accept: 'application/json' },
      redirect: 'manual',
    });
    // A browser naming a microversion is a Placement client.
    const versioned = await fetch(`${base}/`, {
      headers: { accept: 'text/html', 'openstack-api-version': 'placement 0.5' },
      redirect: 'manual',
    });
    if (atRoot) {
      for (const r of [plain, json]) {
        expect(r.status).toBe(200);
        const body = (await r.json()) as { versions: { id: string }[] };
        expect(body.versions[0]!.id).toBe('v1.0');
      }
      expect(versioned.status).toBe(406);
      expect(await versioned.text()).toContain('Unacceptable version header: 0.5');
    } else {
      // No Placement root here: a client following the redirect gets the console page.
      expect(plain.status).toBe(302);
      expect(json.status).toBe(302);
    }
  });

  it('serves /favicon.ico', async () => {
    const r = await fetch(`${base}/favicon.ico`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await r.arrayBuffer());
    // An ICO header (reserved 0, type 1, one image) around a PNG.
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(bytes.subarray(22, 26).toString('latin1')).toBe('\x89PNG');
    expect((await fetch(`${base}/favicon.ico`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${base}/favicon.ico`, { method: 'POST' })).status).toBe(405);
  });
});

describe('GraphiQL page', () => {
  let t: TestApp;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ server, base } = await listen(t));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('is titled berth, uses berth’s icon and opens on berth’s example query', async () => {
    const html = await (await fetch(`${base}/graphql`, { headers: { accept: BROWSER } })).text();
    expect(html).toContain('<title>berth</title>');
    expect(html).toContain('Loading berth…');
    expect(html).not.toMatch(/Yoga GraphiQL|__TITLE__/);
    expect(html).toContain('<link rel=icon href=/favicon.ico>');
    const json = /<script type=application\/json id=berth-graphiql-options>(.*?)<\/script>/.exec(
      html,
    )![1]!;
    const options = JSON.parse(json) as Record<string, string>;
    expect(options.title).toBe('berth');
    expect(options.query).toBe(DEFAULT_QUERY);
    expect(options.defaultQuery).toBe(DEFAULT_QUERY);
    expect(options.logo).toMatch(/^<svg /);
  });

  it('example query answers on a fresh server', async () => {
    const r = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: DEFAULT_QUERY }),
    });
    const body = (await r.json()) as {
      errors?: unknown;
      data: { resourceProviders: { totalCount: number; edges: unknown[] } };
    };
    expect(body.errors).toBeUndefined();
    expect(body.data.resourceProviders).toEqual({ totalCount: 0, edges: [] });
  });
});
