// GraphiQL without the internet and under a strict Content-Security-Policy. yoga's GraphiQL page
// loads its scripts, styles and editor workers from a CDN (a blank "Loading…" page in a data
// centre without internet) and runs two inline scripts. berth serves the same files from the npm
// package @graphql-yoga/graphiql under ASSET_PREFIX, plus a small start script of its own, and
// renders the page with no executable inline script at all: GraphiQL's options travel in a
// `type=application/json` block, so the policy allows scripts from this origin only (no hash, no
// nonce). Only the files listed are served (no path is joined from the request), each cached for
// a day under its versioned URL.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { GraphiQLOptions } from 'graphql-yoga';
import { FAVICON_PATH, LOGO_SVG } from './favicon';

/** Where the assets are served. */
export const ASSET_PREFIX = '/graphiql/assets/';

/**
 * Headers of the GraphiQL page (GET /graphql from a browser). Scripts, workers, styles, fonts and
 * images from this origin only; the editor (Monaco) adds `<style>` elements at run time without a
 * nonce, hence `'unsafe-inline'` for styles (never for scripts). No framing, plugins, `<base>` or
 * form posts; no referrer; no content sniffing.
 */
export const GRAPHIQL_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    "img-src 'self' data:",
    "connect-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const DIST = path.join(
  path.dirname(require.resolve('@graphql-yoga/graphiql/package.json')),
  'dist',
);

/** The start script (served as BOOT_FILE): the editor's workers, then GraphiQL on page load. */
const BOOT_SCRIPT = `'use strict';
(function () {
  var assets = document.currentScript.src.replace(/[^/]*$/, '');
  var workers = {
    editorWorkerService: assets + 'monacoeditorwork/editor.worker.bundle.js',
    json: assets + 'monacoeditorwork/json.worker.bundle.js',
    graphql: assets + 'monacoeditorwork/graphql.worker..bundle.js',
  };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) {
      return workers[label] || workers.editorWorkerService;
    },
  };
  document.addEventListener('DOMContentLoaded', function () {
    var options = JSON.parse(document.getElementById('berth-graphiql-options').textContent);
    YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), options);
  });
})();
`;

const BOOT_FILE = 'berth-graphiql.js';

/** Served file name -> content type. */
const FILES: Readonly<Record<string, string>> = {
  [BOOT_FILE]: 'text/javascript; charset=utf-8',
  'graphiql.css': 'text/css; charset=utf-8',
  'yoga-graphiql.umd.js': 'text/javascript; charset=utf-8',
  'monacoeditorwork/editor.worker.bundle.js': 'text/javascript; charset=utf-8',
  'monacoeditorwork/json.worker.bundle.js': 'text/javascript; charset=utf-8',
  'monacoeditorwork/graphql.worker..bundle.js': 'text/javascript; charset=utf-8',
};

const cache = new Map<string, Buffer>([[BOOT_FILE, Buffer.from(BOOT_SCRIPT)]]);

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The page's title and the name in GraphiQL's header. */
export const GRAPHIQL_TITLE = 'berth';

/**
 * The editor's first query (and every new tab's): it answers on a fresh server (an empty list,
 * then the providers `berth demo` or nova-compute created) and shows the shape of the API.
 */
export const DEFAULT_QUERY = `# berth: Placement's providers, usage and scheduling.
# Run it with Ctrl-Enter; every field is in the Docs.
# No data yet? \`npm run demo\` seeds a demo cloud.

query Providers {
  version { berth placementMicroversion }
  capacity {
    providerCount
    lines { resourceClass capacity used utilisation }
  }
  resourceProviders(first: 10) {
    totalCount
    edges {
      node {
        name
        traits
        aggregates { name metadata { key value } }
        inventories { resourceClass total reserved allocationRatio }
        usages { resourceClass usedExact }
      }
    }
  }
}
`;

/**
 * GraphiQL's page (yoga's, with the same options, berth's title, logo and first query unless
 * given) loading everything from ASSET_PREFIX, with no inline script to run: the options are JSON
 * inside a non-executable `<script>` block, with `<` written as `\u003c` so no value can close it.
 */
export function renderOfflineGraphiQL(opts: GraphiQLOptions): string {
  // `query` is what YogaGraphiQL opens with (its own welcome text otherwise); not in yoga's type.
  const merged: GraphiQLOptions & { query?: string } = {
    title: GRAPHIQL_TITLE,
    logo: LOGO_SVG,
    defaultQuery: DEFAULT_QUERY,
    ...opts,
  };
  if (merged.query === undefined) {
    merged.query = merged.defaultQuery;
  }
  const title = (merged.title || GRAPHIQL_TITLE).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
  const options = JSON.stringify(merged).replace(/</g, '\\u003c');
  return [
    '<!doctype html><html lang=en><head><meta charset=utf-8>',
    `<title>${title}</title>`,
    `<link rel=icon href=${FAVICON_PATH}>`,
    `<link rel=stylesheet href=${ASSET_PREFIX}graphiql.css></head>`,
    '<body id=body class=no-focus-outline>',
    '<noscript>You need to enable JavaScript to run this app.</noscript>',
    `<div id=root>Loading ${title}…</div>`,
    `<script type=application/json id=berth-graphiql-options>${options}</script>`,
    `<script src=${ASSET_PREFIX}${BOOT_FILE}></script>`,
    `<script src=${ASSET_PREFIX}yoga-graphiql.umd.js></script>`,
    '</body></html>',
  ].join('');
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
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
  return true;
}
