// Response values returned by REST handlers, with Placement's 1.15 cache headers
// (upstream: handlers set req.response.body / content_type / last_modified / cache_control).
import type { RestRequest } from './request';

/** What a handler returns; the router adds request-id and microversion headers. */
export interface RestResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, or bytes already encoded as UTF-8. */
  readonly body?: string | Uint8Array;
}

/** A JSON response. */
export function jsonResponse(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): RestResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/** A response without a body (204, or 201 with a location). */
export function emptyResponse(status = 204, headers: Record<string, string> = {}): RestResponse {
  return { status, headers };
}

/** An HTTP date, as webob writes last-modified ('Wed, 21 Oct 2015 07:28:00 GMT'). */
export function httpDate(d: Date): string {
  return d.toUTCString();
}

/**
 * Adds cache-control: no-cache and last-modified from microversion 1.15 on. `lastModified`
 * undefined means now; null leaves the header out (webob's `last_modified = None`).
 */
export function withCacheHeaders(
  req: RestRequest,
  res: RestResponse,
  lastModified?: Date | null,
): RestResponse {
  if (!req.matches('1.15')) {
    return res;
  }
  const headers: Record<string, string> = { ...res.headers, 'cache-control': 'no-cache' };
  if (lastModified !== null) {
    headers['last-modified'] = httpDate(lastModified ?? new Date());
  }
  return { ...res, headers };
}

/** The latest of `dates` (Placement's pick_last_modified over a collection), or undefined. */
export function latest(dates: Iterable<Date | null | undefined>): Date | undefined {
  let out: Date | undefined;
  for (const d of dates) {
    if (d && (!out || d > out)) {
      out = d;
    }
  }
  return out;
}
