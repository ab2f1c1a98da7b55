// src/http/console-assets.ts: what the browser receives for /ui paths, from a built directory.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { consoleDir, createConsoleHandler } from '../../../src/http/console-assets';

async function serve(dir: string): Promise<{ server: Server; base: string }> {
  const handle = createConsoleHandler(dir);
  const server = createServer((req, res) => handle(req.url!.split('?')[0]!, req.method!, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('the console handler', () => {
  let dir: string;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'berth-console-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>berth</title>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'secret.txt'), 'not linked');
    ({ server, base } = await serve(dir));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page revalidated on each load, under a strict CSP', async () => {
    const r = await fetch(`${base}/ui/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    const csp = r.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp.split('; ')).toContain(directive);
    }
    expect(r.headers.get('x-frame-options')).toBe('DENY');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await r.text()).toContain('<title>berth</title>');
  });

  it('caches hashed assets for a year', async () => {
    const r = await fetch(`${base}/ui/assets/index-abc123.js`);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await r.text()).toBe('console.log(1)');
  });

  it('answers 404 for an asset this build does not have (not the page, which would run as script)', async () => {
    const r = await fetch(`${base}/ui/assets/index-old999.js`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await r.text()).toContain('assets/index-old999.js');
  });

  it.each([
    '/ui/providers/123',
    '/ui/../package.json',
    '/ui/%2e%2e/package.json',
    '/ui/assets/../../etc/passwd',
  ])('answers the page for %s (never a file outside the build)', async (p) => {
    // node:http sends the path as written (fetch would normalise the dots away).
    const body = await new Promise<string>((resolve, reject) => {
      const { hostname, port } = new URL(base);
      get({ hostname, port, path: p }, (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve(`${res.statusCode} ${text}`));
      }).on('error', reject);
    });
    expect(body).toBe('200 <!doctype html><title>berth</title>');
  });

  it('redirects /ui to /ui/, refuses writes, answers HEAD without a body', async () => {
    const redirect = await fetch(`${base}/ui`, { redirect: 'manual' });
    expect([redirect.status, redirect.headers.get('location')]).toEqual([308, '/ui/']);
    expect((await fetch(`${base}/ui/`, { method: 'POST' })).status).toBe(405);
    const head = await fetch(`${base}/ui/`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('says how to build the console when it is not built (503)', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'berth-console-empty-'));
    const s = await serve(empty);
    try {
      const r = await fetch(`${s.base}/ui/`);
      expect(r.status).toBe(503);
      expect(await r.text()).toContain('npm run build:console');
    } finally {
      await new Promise((r) => s.server.close(r));
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('consoleDir', () => {
  it('finds dist/console from src/http/ (ts) and from dist/src/http/ (built, beside a copied package.json)', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'berth-root-'));
    try {
      writeFileSync(path.join(root, 'package.json'), '{}');
      writeFileSync(path.join(root, 'package-lock.json'), '{}');
      mkdirSync(path.join(root, 'src', 'http'), { recursive: true });
      mkdirSync(path.join(root, 'dist', 'src', 'http'), { recursive: true });
      writeFileSync(path.join(root, 'dist', 'package.json'), '{}');
      const want = path.join(root, 'dist', 'console');
      expect(consoleDir(path.join(root, 'src', 'http'))).toBe(want);
      expect(consoleDir(path.join(root, 'dist', 'src', 'http'))).toBe(want);
      expect(consoleDir()).toBe(path.resolve(__dirname, '../../../dist/console'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
