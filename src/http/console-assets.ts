// The console (console/, a Vite build in dist/console) served at /ui: hashed assets cached for a
// year, the page itself revalidated on every load, a strict Content-Security-Policy (the console
// talks only to this origin's /graphql). A path is never joined from the request: it is looked up
// in the list of files the build produced.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';

/** Where the console is served. */
export const CONSOLE_PREFIX = '/ui';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The built console's directory: dist/console below the package root, which is this file's
 * grandparent (running from src/http/ under ts) or great-grandparent (running from dist/src/http/;
 * dist/ holds a copy of package.json, so the root is recognised by its package-lock.json).
 */
export function consoleDir(from: string = __dirname): string {
  const root = [path.resolve(from, '../..'), path.resolve(from, '../../..')].find((d) =>
    existsSync(path.join(d, 'package-lock.json')),
  );
  return path.join(root ?? process.cwd(), 'dist', 'console');
}

/** Relative path -> file contents, read once. */
function loadFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const child = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(dir, child)).isDirectory()) {
        walk(child);
      } else {
        files.set(child, readFileSync(path.join(dir, child)));
      }
    }
  };
  walk('');
  return files;
}

/** Serves the console from `dir`; `handle` answers requests whose path starts with /ui. */
export function createConsoleHandler(dir: string = consoleDir()) {
  let files: Map<string, Buffer> | undefined;
  return function serveConsole(pathname: string, method: string, res: ServerResponse): void {
    if (method !== 'GET' && method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `${method} is not allowed on the console` }));
      return;
    }
    if (pathname === CONSOLE_PREFIX) {
      res.writeHead(308, { location: `${CONSOLE_PREFIX}/` });
      res.end();
      return;
    }
    if (!files) {
      if (!existsSync(path.join(dir, 'index.html'))) {
        res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '10' });
        res.end('The console is not built: run `npm run build:console` (npm start does it).\n');
        return;
      }
      files = loadFiles(dir);
    }
    const rel = pathname.slice(CONSOLE_PREFIX.length + 1);
    if (!files.has(rel) && /^assets\/[^/]+$/.test(rel)) {
      // An asset of another build (a tab open across a redeploy): a 404, not the page as script.
      res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      res.end(method === 'HEAD' ? undefined : `No such console asset: ${rel}\n`);
      return;
    }
    // Other unknown paths get the page (the console routes with the URL hash, so only / matters).
    const name = files.has(rel) ? rel : 'index.html';
    const body = files.get(name)!;
    const hashed = name.startsWith('assets/');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    res.end(method === 'HEAD' ? undefined : body);
  };
}
