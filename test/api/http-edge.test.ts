// The HTTP edge of /graphql: an unauthenticated caller's body is never read (401 before the
// upload ends), throttled guessers cost no token lookup, only JSON bodies are accepted (a
// cross-site form cannot run a mutation), CORS is closed unless configured, and the token cache
// evicts the least recently used rows rather than everything.
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app';
import { QueryCounter } from '../support/query-counter';

async function listen(t: TestApp): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => t.app.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('/graphql edge, auth on', () => {
  let t: TestApp;
  let server: Server;
  let port: number;
  const counter = new QueryCounter();

  beforeAll(async () => {
    t = await createTestApp(
      { BERTH_AUTH: 'on', BERTH_RATE_LIMIT: '3', BERTH_RATE_LIMIT_WINDOW_MS: '60000' },
      { dbLogger: counter },
    );
    ({ server, port } = await listen(t));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  it('answers 401 to an unauthenticated 4 MB upload before the upload ends', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        port,
        method: 'POST',
        path: '/graphql',
        headers: { 'content-type': 'application/json', 'content-length': 4 * 1024 * 1024 },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      // 64 KB of the promised 4 MB, then nothing: a server that reads first never answers.
      req.write(Buffer.alloc(64 * 1024, 0x20));
    });
    expect(status).toBe(401);
  });

  it('refuses throttled token guesses without looking them up', async () => {
    const guess = (n: number) =>
      fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer berth_${String(n).padStart(16, '0')}_${'x'.repeat(43)}`,
        },
        body: '{"query":"{ version { berth } }"}',
      }).then((r) => r.status);
    const { result, queries } = await counter.count(async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        statuses.push(await guess(i));
      }
      return statuses;
    });
    // The 4th-8th never reach the database (the 1st of this file's requests already counted).
    expect(result.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    expect(queries.filter((q) => q.includes('api_tokens')).length).toBeLessThanOrEqual(3);
  });
});

describe('/graphql edge, auth off', () => {
  let t: TestApp;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_CORS_ORIGINS: 'https://console.example.com' });
    ({ server, port } = await listen(t));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const traitExists = async (name: string) =>
    ((await t.app.dataSource.query('SELECT 1 FROM traits WHERE name = $1', [name])) as unknown[])
      .length > 0;

  it.each([
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain',
    'application/graphql',
  ])('refuses a %s POST with 415 and runs nothing', async (type) => {
    const query = 'mutation { createTrait(name: "CUSTOM_CSRF") { name } }';
    const body =
      type === 'application/x-www-form-urlencoded'
        ? `query=${encodeURIComponent(query)}`
        : JSON.stringify({ query });
    const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': type, origin: 'https://evil.example' },
      body,
    });
    expect(r.status).toBe(415);
    expect(
      ((await r.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions
        .code,
    ).toBe('berth.unsupported_media_type');
    expect(await traitExists('CUSTOM_CSRF')).toBe(false);
  });

  it('grants CORS to the configured origins only', async () => {
    const ask = (origin: string) =>
      fetch(`http://127.0.0.1:${port}/graphql`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
    const evil = await ask('https://evil.example');
    // Never the caller's own origin: a browser then refuses the response to that page.
    expect(evil.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
    const ok = await ask('https://console.example.com');
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://console.example.com');
  });
});

describe('/graphql edge, default CORS', () => {
  it('reflects no origin when BERTH_CORS_ORIGINS is unset', async () => {
    const t = await createTestApp();
    try {
      const r = await t.app.graphql.fetch('http://berth.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
        body: '{"query":"{ version { berth } }"}',
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await t.close();
    }
  });
});
