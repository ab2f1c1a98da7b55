// GraphiQL works without the internet: the page berth serves references no CDN, and every asset
// it references is served by berth itself. With auth on and introspection off, admin tokens may
// introspect (GraphiQL's docs, code generation); other callers may not.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app';

describe('GraphiQL offline', () => {
  let t: TestApp;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on', BERTH_INTROSPECTION: 'off' });
    server = createServer((req, res) => t.app.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('serves a page whose scripts, styles and workers all come from berth', async () => {
    const page = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('YogaGraphiQL');
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/\/graphiql\/assets\/[^"'\s>]+/g)].map((m) => m[0]);
    expect(new Set(assets).size).toBe(5); // css, the app, three editor workers
    for (const asset of new Set(assets)) {
      const r = await fetch(`${base}${asset}`);
      expect({ asset, status: r.status }).toEqual({ asset, status: 200 });
      expect(r.headers.get('content-type')).toMatch(/^text\/(css|javascript)/);
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it.each(['/graphiql/assets/../../package.json', '/graphiql/assets/nope.js', '/graphiql/assets/'])(
    'serves nothing else: %s',
    async (p) => {
      expect((await fetch(`${base}${p}`)).status).toBe(404);
    },
  );

  it('lets admin tokens introspect while introspection is off for others', async () => {
    const admin = (await t.app.tokens.create({ role: 'admin' })).token;
    const reader = (await t.app.tokens.create({ role: 'reader' })).token;
    const ask = async (token: string) => {
      const r = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }),
      });
      return (await r.json()) as { data?: unknown; errors?: { message: string }[] };
    };
    expect(await ask(admin)).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    expect((await ask(reader)).errors?.[0]?.message).toMatch(/introspection/i);
  });
});
