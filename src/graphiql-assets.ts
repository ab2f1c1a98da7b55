// GraphiQL without the internet: yoga's GraphiQL page loads its scripts, styles and editor
// workers from a CDN (a blank "Loading…" page in a data centre without internet). berth serves
// the same files from the npm package @graphql-yoga/graphiql instead, under ASSET_PREFIX, and
// rewrites the page to point there. Only the files listed are served (no path is joined from
// the request), each cached for a day under its versioned URL.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { type GraphiQLOptions, renderGraphiQL } from 'graphql-yoga';

/** Where the assets are served. */
export const ASSET_PREFIX = '/graphiql/assets/';

const DIST = path.join(
  path.dirname(require.resolve('@graphql-yoga/graphiql/package.json')),
  'dist',
);

/** Served file name -> content type. */
const FILES: Readonly<Record<string, string>> = {
  'graphiql.css': 'text/css; charset=utf-8',
  'yoga-graphiql.umd.js': 'text/javascript; charset=utf-8',
  'monacoeditorwork/editor.worker.bundle.js': 'text/javascript; charset=utf-8',
  'monacoeditorwork/json.worker.bundle.js': 'text/javascript; charset=utf-8',
  'monacoeditorwork/graphql.worker..bundle.js': 'text/javascript; charset=utf-8',
};

const cache = new Map<string, Buffer>();

/** GraphiQL's page with every CDN address replaced by berth's own. */
export function renderOfflineGraphiQL(opts: GraphiQLOptions): string {
  return renderGraphiQL(opts)
    .replace(/https:\/\/unpkg\.com\/@graphql-yoga\/graphiql@[^/]+\/dist\//g, ASSET_PREFIX)
    .replace(/<link rel=icon href=https:\/\/[^>]*>/, '');
}

/** Serves `name` (the path after ASSET_PREFIX); false when it is not one of the files. */
export function serveGraphiQLAsset(name: string, res: ServerResponse): boolean {
  const type = FILES[name];
  if (!type) {
    return false;
  }
  let body = cache.get(name);
  if (!body) {
    body = readFileSync(path.join(DIST, name));
    cache.set(name, body);
  }
  res.writeHead(200, {
    'content-type': type,
    'content-length': body.length,
    'cache-control': 'public, max-age=86400',
  });
  res.end(body);
  return true;
}
