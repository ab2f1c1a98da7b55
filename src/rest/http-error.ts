// HTTP errors of the REST facade, with webob's titles and explanations (upstream: webob.exc as
// raised by placement/handlers/*.py with json_formatter=util.json_error_formatter).
import { ErrorCode } from '../placement/errors';

/** The request values webob's templates refer to. */
export interface TemplateEnv {
  readonly REQUEST_METHOD: string;
  readonly HTTP_ACCEPT: string;
  readonly CONTENT_TYPE: string;
}

/** A webob body template: the error's detail and the request's environment -> raw body. */
type Template = (detail: string, env: TemplateEnv) => string;

/**
 * webob's default template, `${explanation}<br /><br />\n${detail}\n${html_comment}\n` with an
 * empty comment (Placement moves the comment into `code`): after strip_tags the detail reads
 * 'explanation\n\n detail  ' (two trailing spaces).
 */
const explained =
  (explanation: string): Template =>
  (detail) =>
    `${explanation}<br /><br />\n${detail}\n\n`;

/** Status -> [title, body template] as webob.exc defines them. */
const WEBOB: Readonly<Record<number, readonly [string, Template]>> = {
  400: [
    'Bad Request',
    explained(
      'The server could not comply with the request since it is either malformed or otherwise incorrect.',
    ),
  ],
  401: [
    'Unauthorized',
    explained(
      'This server could not verify that you are authorized to access the document you requested.  Either you supplied the wrong credentials (e.g., bad password), or your browser does not understand how to supply the credentials required.',
    ),
  ],
  403: ['Forbidden', explained('Access was denied to this resource.')],
  404: ['Not Found', explained('The resource could not be found.')],
  405: [
    'Method Not Allowed',
    (detail, env) =>
      `The method ${env.REQUEST_METHOD} is not allowed for this resource. <br /><br />\n${detail}`,
  ],
  406: [
    'Not Acceptable',
    (detail, env) =>
      `The resource could not be generated that was acceptable to your browser\n(content of type ${env.HTTP_ACCEPT}. <br /><br />\n${detail}`,
  ],
  409: ['Conflict', explained('There was a conflict when trying to complete your request.')],
  413: [
    'Request Entity Too Large',
    explained('The body of your request was too large for this server.'),
  ],
  429: [
    'Too Many Requests',
    explained('The client has sent too many requests in a given amount of time.'),
  ],
  415: [
    'Unsupported Media Type',
    (detail, env) =>
      `The request media type ${env.CONTENT_TYPE} is not supported by this server.\n<br /><br />\n${detail}`,
  ],
  500: [
    'Internal Server Error',
    explained('The server has either erred or is incapable of performing the requested operation.'),
  ],
  503: [
    'Service Unavailable',
    explained('The server is currently unavailable. Please try again at a later time.'),
  ],
};

/** The title webob gives `status`. */
export function statusTitle(status: number): string {
  return WEBOB[status]?.[0] ?? 'Error';
}

/** webob's body for `status` with `detail`, before tag stripping (html/plain/json all start here). */
export function webobBody(status: number, detail: string, env: TemplateEnv): string {
  const template = WEBOB[status]?.[1] ?? explained('');
  return template(detail, env);
}

/** webob.exc.strip_tags: newlines to spaces, <br> to newlines, other tags removed. */
export function stripTags(v: string): string {
  return v
    .replace(/\n/g, ' ')
    .replace(/\r/g, '')
    .replace(/<br.*?>/gis, '\n')
    .replace(/<!--.*?-->/gs, '')
    .replace(/<.*?>/gs, '');
}

/** An HTTP error response: status, detail (the handler's message) and Placement error code. */
export class HttpError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * True when Placement raises this error outside its handlers (no route, a policy refusal,
   * an object's NotFound the handler does not catch, the content-type check): such errors pass
   * through the microversion middleware as exceptions, which adds `openstack-api-version` but
   * not `vary` (microversion_parse.middleware).
   */
  outsideHandler = false;
  constructor(
    status: number,
    detail = '',
    code: string = ErrorCode.DEFAULT,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail || statusTitle(status));
    this.name = 'HttpError';
    this.status = status;
    this.detail = detail;
    this.code = code;
    this.headers = headers;
  }
}

/** Marks `err` as raised outside Placement's handlers (no `vary` header); returns it. */
export function outsideHandler(err: HttpError): HttpError {
  err.outsideHandler = true;
  return err;
}

/** 400 Bad Request. */
export function badRequest(detail: string, code?: string): HttpError {
  return new HttpError(400, detail, code);
}

/** 404 Not Found. */
export function notFound(detail = '', code?: string): HttpError {
  return new HttpError(404, detail, code);
}

/** 409 Conflict. */
export function conflict(detail: string, code?: string): HttpError {
  return new HttpError(409, detail, code);
}
