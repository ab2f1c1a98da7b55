// The Placement-compatible REST facade: the middleware chain of placement/deploy.py (request
// id, Accept default, noauth2, microversion, content checks, dispatch, fault wrapping) over the
// route table, mounted under BERTH_REST_PREFIX (upstream: deploy.py, handler.py, requestlog.py).
// Token mode admits each request through src/auth/admission.ts (GraphQL's rate limits and token
// checks, before the body is read); noauth2 is Placement's and is never rate limited.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../app/services';
import { type AdmissionDeps, admitToken } from '../auth/admission';
import { actorOfRestCaller } from '../auth/audit-actor';
import type { TokenVerifier } from '../auth/authenticator';
import { RateLimiter } from '../auth/rate-limiter';
import type { Config } from '../config/config';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailableError } from '../db/unavailable';
import { BodyTooLargeError, readBodyLimited } from '../http/body';
import { clientAddress } from '../http/client-address';
import { noteErrorCode } from '../http/error-code';
import { valueHasNul } from '../lib/nul';
import type { Logger } from '../observability/logger';
import { runAudited } from '../placement/audit';
import { isPlacementError, UnavailableError } from '../placement/errors';
import { authenticate, header, type RestCaller, tokenCaller } from './auth';
import { toHttpError } from './domain-errors';
import { type ErrorContext, errorResponse } from './error-response';
import { badRequest, HttpError, outsideHandler } from './http-error';
import {
  type Microversion,
  negotiateVersionOrThrow,
  SERVICE_TYPE,
  VERSION_HEADER,
} from './microversion';
import { QueryParams } from './query-params';
import { RestRequest } from './request';
import type { RestResponse } from './response';
import { RouteTable } from './route-table';
import { ROUTES } from './routes';

/** The REST facade as the app mounts it. */
export interface RestRouter {
  /** True when `path` (without query) belongs to the facade. */
  matches(path: string): boolean;
  /** Serves one request (never throws; errors become responses). */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** The 401 detail in token mode when no `x-auth-token` is sent. */
const MISSING_REST_TOKEN =
  'Authentication required: send the API token in the `X-Auth-Token` header (tokens come from `berth token create`).';

/** The negotiated microversion of `header`, or undefined when it is not acceptable. */
function acceptableVersion(header: string | undefined): Microversion | undefined {
  try {
    return negotiateVersionOrThrow(header);
  } catch {
    return undefined;
  }
}

/** The `x-auth-token` header (repeated ones joined), or undefined. */
function authToken(req: IncomingMessage): string | undefined {
  return header(req.headers, 'x-auth-token');
}

/** webob makes a relative Location absolute with the request's scheme and host. */
function absoluteLocation(req: IncomingMessage, r: RestResponse): RestResponse {
  const location = r.headers.location;
  if (!location?.startsWith('/')) {
    return r;
  }
  const proto = header(req.headers, 'x-forwarded-proto')?.split(',')[0]?.trim();
  const host = req.headers.host ?? 'localhost';
  return { ...r, headers: { ...r.headers, location: `${proto || 'http'}://${host}${location}` } };
}

/**
 * Header names as Placement's responses spell them: webob's Response properties write
 * `Content-Type`, `Location`, `Cache-Control`, `Last-Modified` (and uWSGI `Content-Length`);
 * the headers Placement's middleware adds by name stay lower case (`openstack-api-version`,
 * `vary`, `x-openstack-request-id`, `allow`). HTTP/1.1 names are case-insensitive, but some
 * clients compare them as written.
 */
const WEBOB_CASE: Readonly<Record<string, string>> = {
  'content-type': 'Content-Type',
  location: 'Location',
  'cache-control': 'Cache-Control',
  'last-modified': 'Last-Modified',
};

function send(res: ServerResponse, r: RestResponse, extra: Record<string, string>): void {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...r.headers, ...extra })) {
    headers[WEBOB_CASE[name] ?? name] = value;
  }
  const body = r.body ?? '';
  if (r.status !== 204 && r.status !== 304) {
    headers['Content-Length'] = String(
      typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    );
  }
  res.writeHead(r.status, headers);
  res.end(body);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Placement's `req-<uuid>` request id, built from the request id the HTTP layer logs when that is
 * a uuid (so the audit trail, the Placement answer and the request log name the same request).
 */
function placementRequestId(outer: unknown): string {
  return `req-${typeof outer === 'string' && UUID.test(outer) ? outer.toLowerCase() : randomUUID()}`;
}

/** Builds the facade over `services`, mounted at config.restPrefix ('' = at '/'). */
export function createRestRouter(deps: {
  services: Services;
  config: Config;
  log: Logger;
  /** Token verification in token mode; undefined = auth off. */
  authenticator?: TokenVerifier;
  /** Rate limits of token mode (src/auth/rate-limiter.ts); absent = unlimited. */
  limiter?: RateLimiter;
}): RestRouter {
  const prefix = deps.config.restPrefix;
  const admission: AdmissionDeps = {
    authenticator: deps.authenticator,
    limiter: deps.limiter ?? RateLimiter.unlimited(),
    log: deps.log,
  };
  const table = new RouteTable(ROUTES);

  function below(path: string): string | undefined {
    if (prefix === '') {
      return path;
    }
    if (path === prefix || path.startsWith(`${prefix}/`)) {
      return path.slice(prefix.length);
    }
    return undefined;
  }

  /**
   * Who calls: noauth2's caller, or in token mode the admitted token's (the unscoped admin with
   * auth off); null for an unauthenticated request to the root (version discovery needs no
   * token, and one sent without a token is not counted).
   * @throws HttpError 401, 429 (with Retry-After) or 503 when the request is refused.
   */
  async function callerOrThrow(req: IncomingMessage, isRoot: boolean): Promise<RestCaller | null> {
    if (deps.config.restAuth === 'noauth2') {
      const auth = await authenticate('noauth2', req.headers);
      if (!auth.ok && !isRoot) {
        throw new HttpError(401, auth.reason);
      }
      return auth.ok ? auth.caller : null;
    }
    const token = authToken(req);
    if (isRoot && token === undefined && deps.authenticator) {
      return null;
    }
    const address = clientAddress(
      req.socket?.remoteAddress ?? 'local',
      req.headers['x-forwarded-for'],
      deps.config.limits.trustedProxies,
    );
    const a = await admitToken(admission, token, address, MISSING_REST_TOKEN);
    if (a.ok && a.principal) {
      return tokenCaller(a.principal);
    }
    if (a.ok) {
      const off = await authenticate('token', req.headers); // no authenticator: never a lookup
      return off.ok ? off.caller : null;
    }
    if (a.status === 401) {
      if (isRoot) {
        return null;
      }
      throw new HttpError(401, a.message, undefined, { 'www-authenticate': 'Token' });
    }
    throw new HttpError(a.status, a.message, a.code, a.headers);
  }

  async function serve(
    req: IncomingMessage,
    path: string,
    search: string,
    ctx: { accept: string; requestId: string; version?: Microversion },
  ): Promise<RestResponse> {
    const headers = req.headers;
    const isRoot = path === '/' || path === '';
    const requested = header(headers, VERSION_HEADER);
    let caller: RestCaller | null;
    try {
      caller = await callerOrThrow(req, isRoot);
    } catch (err) {
      // A 429 or 503 answers in the requested microversion (its body carries `code`) when that
      // is valid; a 401 comes before version negotiation, as Placement's does.
      if (err instanceof HttpError && err.status !== 401) {
        ctx.version = acceptableVersion(requested);
      }
      throw err;
    }
    const version = negotiateVersionOrThrow(requested);
    ctx.version = version;
    let body: Buffer;
    try {
      body = await readBodyLimited(req, deps.config.limits.maxBodyBytes);
    } catch (err) {
      throw err instanceof BodyTooLargeError ? new HttpError(413, err.message) : err;
    }
    const clen = Number(headers['content-length'] ?? 0);
    if (clen > 0 && !headers['content-type']) {
      throw outsideHandler(
        new HttpError(400, 'content-type header required when content-length > 0'),
      );
    }
    const method = req.method ?? 'GET';
    const { handler, params, template } = table.matchOrThrow(method, path);
    const query = new QueryParams(search);
    if (valueHasNul(query.items())) {
      throw badRequest(
        'Invalid query string parameters: values must not contain NUL (U+0000) characters',
      );
    }
    const request = new RestRequest({
      method,
      path,
      prefix,
      params,
      query,
      headers,
      accept: ctx.accept,
      body,
      version,
      caller: caller ?? { userId: null, projectId: null, roles: [], systemScope: null },
      requestId: ctx.requestId,
    });
    if (method === 'GET' || method === 'HEAD') {
      return handler(request, deps.services);
    }
    // A write: its transaction appends an audit event naming this caller and route.
    return runAudited(
      {
        actor: actorOfRestCaller(request.caller),
        operation: `${method} ${template}`,
        requestId: ctx.requestId,
      },
      () => handler(request, deps.services),
    );
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = below(q < 0 ? url : url.slice(0, q)) ?? '/';
    const search = q < 0 ? '' : url.slice(q + 1);
    const rawAccept = req.headers.accept;
    const ctx: { accept: string; requestId: string; version?: Microversion } = {
      accept: !rawAccept || rawAccept === '*/*' ? 'application/json' : rawAccept,
      requestId: placementRequestId(res.getHeader('x-request-id')),
    };
    const idHeader = { 'x-openstack-request-id': ctx.requestId };
    // `vary` only on responses of Placement's handlers (errors raised outside them get the
    // version header alone, see HttpError.outsideHandler).
    const versionHeaders = (vary = true): Record<string, string> =>
      !ctx.version
        ? {}
        : vary
          ? { [VERSION_HEADER]: `${SERVICE_TYPE} ${ctx.version}`, vary: VERSION_HEADER }
          : { [VERSION_HEADER]: `${SERVICE_TYPE} ${ctx.version}` };
    serve(req, path, search, ctx).then(
      (r) => send(res, absoluteLocation(req, r), { ...versionHeaders(), ...idHeader }),
      (err: unknown) => {
        let httpErr: HttpError;
        if (err instanceof HttpError) {
          httpErr = err;
        } else if (isPlacementError(err)) {
          httpErr = toHttpError(err);
        } else if (isDatabaseUnavailableError(err)) {
          // A database restart or lost connection: retryable 503, never a 500.
          deps.log.warn({ err: String(err), url }, 'database unavailable');
          httpErr = toHttpError(new UnavailableError(DATABASE_UNAVAILABLE));
        } else {
          deps.log.error({ err, url }, 'REST handler failed');
          httpErr = new HttpError(500, String((err as Error)?.message ?? err));
        }
        const errCtx: ErrorContext = {
          accept: ctx.accept,
          requestId: ctx.requestId,
          version: ctx.version,
          env: {
            REQUEST_METHOD: req.method ?? 'GET',
            HTTP_ACCEPT: ctx.accept,
            CONTENT_TYPE: req.headers['content-type'] || 'None',
          },
          // noauth2's 401 is webob's own response, not Placement's error document.
          plainWebob: httpErr.status === 401 && deps.config.restAuth === 'noauth2',
        };
        const extra =
          httpErr.status === 500
            ? idHeader
            : { ...versionHeaders(!httpErr.outsideHandler), ...idHeader };
        noteErrorCode(res, httpErr.code);
        if (!res.headersSent) {
          send(res, errorResponse(httpErr, errCtx), extra);
        }
        if (!req.complete) {
          req.resume();
        }
      },
    );
  }

  return {
    matches: (path) => prefix === '' || below(path) !== undefined,
    handle,
  };
}
