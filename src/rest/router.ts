// The Placement-compatible REST facade: the middleware chain of placement/deploy.py (request
// id, Accept default, noauth2, microversion, content checks, dispatch, fault wrapping) over the
// route table, mounted under BERTH_REST_PREFIX (upstream: deploy.py, handler.py, requestlog.py).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticator';
import type { RateLimiter } from '../auth/rate-limiter';
import type { Config } from '../config';
import { DATABASE_UNAVAILABLE, isDatabaseUnavailableError } from '../db/unavailable';
import { BodyTooLargeError, readBodyLimited } from '../http-body';
import type { Logger } from '../logger';
import { valueHasNul } from '../nul';
import { isPlacementError, UnavailableError } from '../placement/errors';
import type { Services } from '../services';
import { authenticate } from './auth';
import { toHttpError } from './domain-errors';
import { type ErrorContext, errorResponse } from './error-response';
import { badRequest, HttpError } from './http-error';
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

/** Counts one request for `who`. @throws HttpError 429 (with Retry-After) over the limit. */
async function rateLimitOrThrow(limiter: RateLimiter, who: string): Promise<void> {
  const decision = await limiter.hit(who);
  if (!decision.allowed) {
    throw new HttpError(
      429,
      `Rate limit exceeded: at most ${limiter.limit} requests per ${limiter.windowMs / 1000} s. Retry after ${decision.retryAfterSeconds} s.`,
      'berth.rate_limited',
      { 'retry-after': String(decision.retryAfterSeconds) },
    );
  }
}

/** webob makes a relative Location absolute with the request's scheme and host. */
function absoluteLocation(req: IncomingMessage, r: RestResponse): RestResponse {
  const location = r.headers.location;
  if (!location?.startsWith('/')) {
    return r;
  }
  const proto = (req.headers['x-forwarded-proto'] as string | undefined)?.split(',')[0]?.trim();
  const host = req.headers.host ?? 'localhost';
  return { ...r, headers: { ...r.headers, location: `${proto || 'http'}://${host}${location}` } };
}

function send(res: ServerResponse, r: RestResponse, extra: Record<string, string>): void {
  res.writeHead(r.status, { ...r.headers, ...extra });
  res.end(r.body ?? '');
}

/** Builds the facade over `services`, mounted at config.restPrefix ('' = at '/'). */
export function createRestRouter(deps: {
  services: Services;
  config: Config;
  log: Logger;
  /** Token verification in token mode; undefined = auth off. */
  authenticator?: Authenticator;
  /** Per-token (or per-address when auth is off) limit; noauth2 mode is not limited. */
  limiter?: RateLimiter;
}): RestRouter {
  const prefix = deps.config.restPrefix;
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

  async function serve(
    req: IncomingMessage,
    path: string,
    search: string,
    ctx: { accept: string; requestId: string; version?: Microversion },
  ): Promise<RestResponse> {
    const headers = req.headers;
    const isRoot = path === '/' || path === '';
    const auth = await authenticate(deps.config.restAuth, headers, deps.authenticator);
    const caller = auth.ok ? auth.caller : null;
    const limited = deps.limiter && deps.config.restAuth === 'token' ? deps.limiter : undefined;
    const address = `ip:${req.socket?.remoteAddress ?? 'local'}`;
    if (!auth.ok && !isRoot) {
      // Failed authentications count against the client address, so guessing is limited too.
      if (limited) {
        await rateLimitOrThrow(limited, address);
      }
      throw new HttpError(
        401,
        auth.reason,
        undefined,
        auth.reason ? { 'www-authenticate': 'Token' } : {},
      );
    }
    const version = negotiateVersionOrThrow(headers[VERSION_HEADER] as string | undefined);
    ctx.version = version;
    if (limited && caller?.token) {
      await rateLimitOrThrow(limited, `token:${caller.token.id}`);
    } else if (limited && auth.ok) {
      await rateLimitOrThrow(limited, address);
    }
    let body: Buffer;
    try {
      body = await readBodyLimited(req, deps.config.limits.maxBodyBytes);
    } catch (err) {
      throw err instanceof BodyTooLargeError ? new HttpError(413, err.message) : err;
    }
    const clen = Number(headers['content-length'] ?? 0);
    if (clen > 0 && !headers['content-type']) {
      throw new HttpError(400, 'content-type header required when content-length > 0');
    }
    const method = req.method ?? 'GET';
    const { handler, params } = table.matchOrThrow(method, path);
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
    return handler(request, deps.services);
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = below(q < 0 ? url : url.slice(0, q)) ?? '/';
    const search = q < 0 ? '' : url.slice(q + 1);
    const rawAccept = req.headers.accept;
    const ctx: { accept: string; requestId: string; version?: Microversion } = {
      accept: !rawAccept || rawAccept === '*/*' ? 'application/json' : rawAccept,
      requestId: `req-${randomUUID()}`,
    };
    const idHeader = { 'x-openstack-request-id': ctx.requestId };
    const versionHeaders = (): Record<string, string> =>
      ctx.version
        ? { [VERSION_HEADER]: `${SERVICE_TYPE} ${ctx.version}`, vary: VERSION_HEADER }
        : {};
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
        const extra = httpErr.status === 500 ? idHeader : { ...versionHeaders(), ...idHeader };
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
