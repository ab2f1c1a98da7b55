// src/http/ is the HTTP edge of a berth process: this router, request bodies under the size limit
// (body.ts), client addresses, readiness, the error-code header, and the static pages it serves
// itself (the console, GraphiQL's assets, the icon, `/`). GraphQL requests go on to src/graphql/,
// REST requests to src/rest/.
//
// The HTTP routes of one berth process: health, readiness, metrics, GraphiQL assets, `/` (the
// console, for browsers), the icon, the console, GraphQL (admission before the body is read) and
// the Placement REST facade.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AdmissionDeps, admit } from '../auth/admission';
import type { Config } from '../config/config';
import { AUTH_CODES, graphqlMediaTypeProblem } from '../graphql/authenticate-plugin';
import type { createGraphQL } from '../graphql/yoga';
import type { AppMetrics } from '../observability/app-metrics';
import type { Logger } from '../observability/logger';
import { withRequestId } from '../observability/request-scope';
import type { createRestRouter } from '../rest/router';
import { BodyTooLargeError, readBodyLimited } from './body';
import { clientAddress } from './client-address';
import { CONSOLE_PREFIX, createConsoleHandler } from './console-assets';
import { errorCodeOf, noteErrorCode } from './error-code';
import { FAVICON_PATH, serveFavicon } from './favicon';
import { ASSET_PREFIX, GRAPHIQL_PAGE_HEADERS, serveGraphiQLAsset } from './graphiql-assets';
import type { Readiness } from './readiness';
import { ROOT_REDIRECT, redirectsToConsole } from './root';

/**
 * A body already read, as @whatwg-node takes it from `req.body` instead of the (consumed) stream:
 * it tests `Object.keys(body).length > 0` first, which for a string or a Buffer lists every
 * character (~40 us and as many strings for a 500-byte operation), so the bytes are handed over
 * as a one-key async iterable; yoga reads them as one chunk, decoded as UTF-8 as before.
 */
interface ReadBody extends AsyncIterable<Buffer> {
  readonly bytes: Buffer;
}

function readBody(bytes: Buffer): ReadBody {
  return {
    bytes,
    async *[Symbol.asyncIterator]() {
      yield bytes;
    },
  };
}

const EMPTY_OBJECT = Buffer.from('{}');

/** What the routes serve. */
export interface RouterDeps {
  readonly config: Config;
  readonly log: Logger;
  readonly admission: AdmissionDeps;
  readonly graphql: ReturnType<typeof createGraphQL>;
  readonly rest: ReturnType<typeof createRestRouter>;
  readonly metrics: Pick<AppMetrics, 'text' | 'contentType' | 'observeRequest'>;
  readonly readiness: () => Promise<Readiness>;
}

/** The Node request listener serving every route. */
export function createRequestHandler(
  d: RouterDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { config, log, admission, graphql, rest, metrics, readiness } = d;
  const serveConsole = createConsoleHandler();

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  /**
   * Buffers the body under the size limit (413 otherwise), then hands the request to yoga. A GET
   * may be a browser opening GraphiQL: it gets the page's policy headers (yoga merges them into
   * its answer; on a JSON answer they are harmless).
   */
  function serveGraphQL(req: IncomingMessage, res: ServerResponse, requestId: string): void {
    if (req.method === 'GET' || req.method === 'HEAD') {
      for (const [name, value] of Object.entries(GRAPHIQL_PAGE_HEADERS)) {
        res.setHeader(name, value);
      }
    }
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
      graphql(req, res, { requestId });
      return;
    }
    const refuse = (status: number, message: string, code: string, headers = {}) => {
      // The body is never read: close the connection rather than drain it.
      res.setHeader('connection', 'close');
      for (const [k, v] of Object.entries(headers)) {
        res.setHeader(k, v as string);
      }
      noteErrorCode(res, code);
      send(res, status, { errors: [{ message, extensions: { code } }] });
    };
    const mediaProblem = graphqlMediaTypeProblem(req.headers['content-type']);
    if (mediaProblem) {
      refuse(415, mediaProblem, AUTH_CODES.unsupportedMediaType);
      return;
    }
    // Rate limit and token first: an unauthenticated or throttled caller's body is never read.
    const xAuth = req.headers['x-auth-token'];
    admit(
      admission,
      req.headers.authorization,
      clientAddress(
        req.socket.remoteAddress,
        req.headers['x-forwarded-for'],
        config.limits.trustedProxies,
      ),
      Array.isArray(xAuth) ? xAuth[0] : xAuth,
    )
      .then(async (admitted) => {
        if (!admitted.ok) {
          refuse(admitted.status, admitted.message, admitted.code, admitted.headers);
          return;
        }
        const body = await readBodyLimited(req, config.limits.maxBodyBytes);
        // An empty body becomes '{}' so yoga answers "Must provide query string." (400).
        (req as IncomingMessage & { body?: ReadBody }).body = readBody(
          body.length > 0 ? body : EMPTY_OBJECT,
        );
        graphql(req, res, { requestId, admission: admitted });
      })
      .catch((err: unknown) => {
        const tooLarge = err instanceof BodyTooLargeError;
        refuse(
          tooLarge ? 413 : 400,
          tooLarge ? err.message : 'Could not read the request body.',
          tooLarge ? 'berth.request_too_large' : 'berth.bad_request',
        );
      });
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      log.info(
        {
          requestId,
          method: req.method,
          url: req.url,
          status: res.statusCode,
          code: errorCodeOf(res),
          ms,
        },
        'request',
      );
      metrics.observeRequest(path, req.method, res.statusCode, ms / 1000);
    });
    // Spans opened while serving it (src/observability/stage.ts) name the request id.
    withRequestId(requestId, () => route(req, res, path, requestId));
  }

  function route(req: IncomingMessage, res: ServerResponse, path: string, requestId: string): void {
    if (path === '/healthz') {
      send(res, 200, { status: 'ok' });
      return;
    }
    if (path.startsWith(ASSET_PREFIX) && (req.method === 'GET' || req.method === 'HEAD')) {
      if (!serveGraphiQLAsset(path.slice(ASSET_PREFIX.length), res)) {
        send(res, 404, { error: `No route for ${req.method} ${path}` });
      }
      return;
    }
    if (path === '/' && redirectsToConsole(req, config.restPrefix)) {
      // 302, not 301: a browser must not remember it (the REST facade may be mounted at '/').
      res.writeHead(302, { location: ROOT_REDIRECT, vary: 'accept, openstack-api-version' });
      res.end();
      return;
    }
    if (path === FAVICON_PATH) {
      serveFavicon(req.method ?? 'GET', res);
      return;
    }
    if (path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`)) {
      serveConsole(path, req.method ?? 'GET', res);
      return;
    }
    if (path === '/metrics') {
      const scope = /[?&]scope=worker(&|$)/.test(req.url ?? '') ? 'worker' : 'server';
      metrics.text(scope).then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.contentType });
          res.end(text);
        },
        (err: unknown) => {
          log.error({ err }, 'metrics collection failed');
          send(res, 500, { error: 'metrics collection failed' });
        },
      );
      return;
    }
    if (path === '/readyz') {
      readiness().then(
        (r) => send(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', ...r }),
        () => send(res, 503, { status: 'not ready' }),
      );
      return;
    }
    if (path === '/graphql' || path?.startsWith('/graphql/')) {
      serveGraphQL(req, res, requestId);
      return;
    }
    // --- REST facade (Placement API) at BERTH_REST_PREFIX; '' serves it at '/' ---
    if (rest.matches(path)) {
      rest.handle(req, res);
      return;
    }
    // --- end REST facade ---
    send(res, 404, { error: `No route for ${req.method} ${path}` });
  }

  return handle;
}
