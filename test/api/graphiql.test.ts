// GraphiQL works without the internet: the page berth serves references no CDN, and every asset
// it references is served by berth itself; it is served under a strict Content-Security-Policy
// with no inline script to run. With auth on and introspection off, admin tokens may introspect
// (GraphiQL's docs, code generation); other callers may not.
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
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/\/graphiql\/assets\/[^"'\s>]+/g)].map((m) => m[0]);
    expect(new Set(assets).size).toBe(3); // css, berth's start script, the app
    const start = await (await fetch(`${base}/graphiql/assets/berth-graphiql.js`)).text();
    expect(start).toContain('YogaGraphiQL.renderYogaGraphiQL');
    const workers = [...start.matchAll(/'(monacoeditorwork\/[^']+)'/g)].map(
      (m) => `/graphiql/assets/${m[1]}`,
    );
    expect(workers).toHaveLength(3); // the three editor workers
    for (const asset of new Set([...assets, ...workers])) {
      const r = await fetch(`${base}${asset}`);
      expect({ asset, status: r.status }).toEqual({ asset, status: 200 });
      expect(r.headers.get('content-type')).toMatch(/^text\/(css|javascript)/);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await r.arrayBuffer()).byteLength).toBeGreaterThan(500);
    }
  });

  it('serves the page under a strict policy, with no inline script to run', async () => {
    const page = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'worker-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'font-src': "'self' data:",
      'img-src': "'self' data:",
      'connect-src': "'self'",
      'manifest-src': "'self'",
      'frame-ancestors': "'none'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
    });
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    // Every script is a file of this origin, or data that never runs.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      const runsInline = !/\bsrc=/.test(attrs!) && !/type=application\/json/.test(attrs!);
      expect({ attrs, runsInline }).toEqual({ attrs, runsInline: false });
      expect(/\bsrc=/.test(attrs!) ? body : '').toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
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
