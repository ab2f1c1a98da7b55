// Error responses: webob's html/json/plain choice by Accept and Placement's JSON error document
// {"errors":[{status,title,detail,code,request_id}]} (upstream: placement/util.py
// json_error_formatter, webob.exc.WSGIHTTPException.generate_response).
import { restCode } from '../placement/errors';
import { acceptableOffers } from './accept';
import { type HttpError, statusTitle, stripTags, type TemplateEnv, webobBody } from './http-error';
import { MAX_VERSION, MIN_VERSION, type Microversion } from './microversion';
import type { RestResponse } from './response';

/** What the formatter needs to know about the request. */
export interface ErrorContext {
  readonly accept: string;
  readonly requestId: string;
  /** The negotiated version; undefined when negotiation failed or had not happened. */
  readonly version: Microversion | undefined;
  readonly env: TemplateEnv;
  /** webob's own JSON shape ({message, code, title}) for errors raised outside Placement's handlers. */
  readonly plainWebob?: boolean;
}

function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

/** Placement's JSON error document for `err`. */
export function errorDocument(err: HttpError, ctx: ErrorContext): Record<string, unknown> {
  const detail = stripTags(webobBody(err.status, err.detail, ctx.env));
  const entry: Record<string, unknown> = {
    status: err.status,
    title: statusTitle(err.status),
    detail,
  };
  if (ctx.version?.matches('1.23')) {
    entry.code = restCode(err.code);
  }
  entry.request_id = ctx.requestId;
  if (err.status === 406 && ctx.version === undefined) {
    entry.max_version = MAX_VERSION;
    entry.min_version = MIN_VERSION;
  }
  return { errors: [entry] };
}

/** The error response, in the representation the Accept header prefers. */
export function errorResponse(
  err: HttpError,
  ctx: ErrorContext,
): RestResponse & { readonly body: string } {
  const status = `${err.status} ${statusTitle(err.status)}`;
  const match = acceptableOffers(ctx.accept, ['text/html', 'application/json'])[0];
  const headers = { ...err.headers };
  if (match === 'text/html') {
    const body = webobBody(err.status, escapeHtml(err.detail), ctx.env);
    return {
      status: err.status,
      headers: { ...headers, 'content-type': 'text/html; charset=UTF-8' },
      body: `<html>\n <head>\n  <title>${status}</title>\n </head>\n <body>\n  <h1>${status}</h1>\n  ${body}\n </body>\n</html>`,
    };
  }
  if (match === 'application/json') {
    const doc = ctx.plainWebob
      ? {
          message: stripTags(webobBody(err.status, err.detail, ctx.env)),
          code: status,
          title: statusTitle(err.status),
        }
      : errorDocument(err, ctx);
    return {
      status: err.status,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(doc),
    };
  }
  return {
    status: err.status,
    headers: { ...headers, 'content-type': 'text/plain; charset=UTF-8' },
    body: `${status}\n\n${stripTags(webobBody(err.status, err.detail, ctx.env))}`,
  };
}
