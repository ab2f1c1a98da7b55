// One REST request as handlers see it, with the checks Placement's decorators perform
// (upstream: util.py check_accept / require_content / extract_json, microversion.py
// version_handler, context.can).
import type { IncomingHttpHeaders } from 'node:http';
import { valueHasNul } from '../lib/nul';
import { acceptableOffers } from './accept';
import type { RestCaller } from './auth';
import { badRequest, HttpError, outsideHandler } from './http-error';
import { type Schema, validateSchema } from './json-schema';
import type { Microversion } from './microversion';
import { authorizeOrThrow } from './policy';
import type { Json } from './py-repr';
import type { QueryParams } from './query-params';
import type { Validated } from './schema-types';

/** What the router knows about a request before dispatch. */
export interface RestRequestInit {
  readonly method: string;
  /** Path below the mount prefix, e.g. '/resource_providers/abc'. */
  readonly path: string;
  /** The mount prefix (Placement's SCRIPT_NAME), '' or e.g. '/placement'. */
  readonly prefix: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: QueryParams;
  readonly headers: IncomingHttpHeaders;
  /** Accept as Placement sees it (missing or '*' + '/*' becomes application/json). */
  readonly accept: string;
  readonly body: Buffer;
  readonly version: Microversion;
  readonly caller: RestCaller;
  readonly requestId: string;
}

/** A REST request plus Placement's per-handler checks. */
export class RestRequest {
  constructor(private readonly init: RestRequestInit) {}

  get method(): string {
    return this.init.method;
  }
  get prefix(): string {
    return this.init.prefix;
  }
  get query(): QueryParams {
    return this.init.query;
  }
  get version(): Microversion {
    return this.init.version;
  }
  get caller(): RestCaller {
    return this.init.caller;
  }
  /** The raw request body. */
  get body(): Buffer {
    return this.init.body;
  }

  get headers(): IncomingHttpHeaders {
    return this.init.headers;
  }

  /** A path parameter ({uuid}, {name}...), URL-decoded. */
  param(name: string): string {
    return this.init.params[name] ?? '';
  }

  /** want_version.matches(min, max). */
  matches(min: string, max?: string): boolean {
    return this.init.version.matches(min, max);
  }

  /**
   * microversion.version_handler: the handler exists from `min` (to `max`).
   * @throws HttpError 404 (or `status`) outside that range.
   */
  requireVersionOrThrow(min: string, max?: string, status = 404): void {
    if (!this.matches(min, max)) {
      throw new HttpError(status);
    }
  }

  /** @throws HttpError 406 'Only application/json is provided' (util.check_accept). */
  checkAcceptOrThrow(): void {
    if (acceptableOffers(this.init.accept, ['application/json']).length === 0) {
      throw new HttpError(406, 'Only application/json is provided');
    }
  }

  /** The media type of the body (without parameters), '' when absent. */
  contentType(): string {
    const v = this.init.headers['content-type'] ?? '';
    return v.split(';')[0]!.trim();
  }

  /** @throws HttpError 415 unless the body is application/json (util.require_content). */
  requireJsonContentOrThrow(): void {
    const type = this.contentType();
    if (type !== 'application/json') {
      throw new HttpError(
        415,
        `The media type ${type || 'None'} is not supported, use application/json`,
      );
    }
  }

  /** @throws HttpError 403 unless policy allows `action` (context.can). */
  authorizeOrThrow(action: string): void {
    try {
      authorizeOrThrow(this.init.caller, action);
    } catch (err) {
      // Placement's PolicyNotAuthorized becomes a 403 outside the handler (no `vary`).
      throw err instanceof HttpError ? outsideHandler(err) : err;
    }
  }

  /**
   * util.extract_json: the parsed body, validated against `schema`, so of the type the schema
   * describes (declare the schema `as const satisfies Schema`).
   * @throws HttpError 400 'Malformed JSON: ...' or 'JSON does not validate: ...'
   */
  jsonOrThrow<const S extends Schema>(schema: S): Validated<S> {
    let data: Json;
    try {
      data = JSON.parse(this.init.body.toString('utf8')) as Json;
    } catch (err) {
      throw badRequest(`Malformed JSON: ${(err as Error).message}`);
    }
    if (nestedDeeperThan(data, MAX_JSON_DEPTH)) {
      throw badRequest(
        `JSON does not validate: the body is nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
    }
    if (valueHasNul(data)) {
      throw badRequest('JSON does not validate: strings must not contain NUL (U+0000) characters');
    }
    const error = validateSchema(data, schema);
    if (error !== undefined) {
      throw badRequest(`JSON does not validate: ${error}`);
    }
    // The one cast from parsed input to its type: `data` has just validated against `schema`.
    return data as Validated<S>;
  }
}

/**
 * The schema of the newest entry of `schemas` (newest first) whose minimum microversion `req`
 * matches; the list must end with one every request matches. Its type is the union of the
 * listed schemas (each keeps its own body type).
 */
export function schemaFor<const L extends readonly (readonly [string, Schema])[]>(
  req: RestRequest,
  schemas: L,
): L[number][1] {
  const entry = schemas.find(([min]) => req.matches(min));
  if (entry === undefined) {
    throw new Error(`no schema for microversion ${req.version}`);
  }
  return entry[1];
}

/** Deepest JSON body accepted (Placement's bodies nest at most 5 levels). */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests arrays/objects deeper than `max` (iterative: no stack to overflow). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') {
      continue;
    }
    if (depth >= max) {
      return true;
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      stack.push([child, depth + 1]);
    }
  }
  return false;
}
