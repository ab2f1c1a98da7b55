// The query string as webob's req.GET multidict presents it to Placement handlers (ordered
// pairs, last value wins for single reads, dict(req.GET) for schema validation).

import { badRequest } from './http-error';
import { type Schema, validateSchema } from './json-schema';
import type { Validated } from './schema-types';

/** An ordered multi-valued query string. */
export class QueryParams {
  private readonly pairs: readonly (readonly [string, string])[];

  constructor(search: string) {
    this.pairs = [...new URLSearchParams(search)];
  }

  /** Every (key, value) pair in request order. */
  items(): readonly (readonly [string, string])[] {
    return this.pairs;
  }

  /** True when `key` appears. */
  has(key: string): boolean {
    return this.pairs.some(([k]) => k === key);
  }

  /** The last value of `key` (webob MultiDict.__getitem__), or undefined. */
  get(key: string): string | undefined {
    for (let i = this.pairs.length - 1; i >= 0; i--) {
      if (this.pairs[i]![0] === key) {
        return this.pairs[i]![1];
      }
    }
    return undefined;
  }

  /** Every value of `key`, in order. */
  getAll(key: string): string[] {
    return this.pairs.filter(([k]) => k === key).map(([, v]) => v);
  }

  /** dict(req.GET): each key once (first-appearance order) with its last value. */
  toDict(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k] of this.pairs) {
      if (!(k in out)) {
        out[k] = this.get(k)!;
      }
    }
    return out;
  }

  /**
   * util.validate_query_params: the query dict against `schema`; returns that dict, of the
   * type the schema describes.
   * @throws HttpError 400 'Invalid query string parameters: ...'
   */
  validateOrThrow<const S extends Schema>(schema: S): Validated<S> {
    const dict = this.toDict();
    const error = validateSchema(dict, schema);
    if (error !== undefined) {
      throw badRequest(`Invalid query string parameters: ${error}`);
    }
    // The one cast from the query to its type: `dict` has just validated against `schema`.
    return dict as Validated<S>;
  }
}
