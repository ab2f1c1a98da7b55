// Matching paths against the route table: 404 for unknown paths, 405 with Allow for unknown
// methods (upstream: placement/handler.py make_map / dispatch / handle_405).
import type { Services } from '../app/services';
import { HttpError, outsideHandler } from './http-error';
import type { RestRequest } from './request';
import type { RestResponse } from './response';

/** A handler of one method on one route. */
export type RestHandler = (req: RestRequest, services: Services) => Promise<RestResponse>;

/** One route: a path template ('/resource_providers/{uuid}') and its handlers by method. */
export interface RouteDeclaration {
  readonly path: string;
  readonly methods: Readonly<Record<string, RestHandler>>;
}

interface CompiledRoute {
  readonly path: string;
  readonly segments: readonly string[];
  readonly methods: Readonly<Record<string, RestHandler>>;
}

/** A matched handler with its path parameters. */
export interface RouteMatch {
  readonly handler: RestHandler;
  readonly params: Readonly<Record<string, string>>;
  /** The route's path template ('/resource_providers/{uuid}'), for the audit trail. */
  readonly template: string;
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A compiled route table. */
export class RouteTable {
  private readonly routes: readonly CompiledRoute[];

  constructor(declarations: readonly RouteDeclaration[]) {
    this.routes = declarations.map((d) => ({
      path: d.path,
      segments: d.path.split('/'),
      methods: d.methods,
    }));
  }

  /**
   * The handler for `method` on `path` ('' and '/' are both the root).
   * @throws HttpError 404 when no route matches, 405 (with Allow) when the method is not served.
   */
  matchOrThrow(method: string, path: string): RouteMatch {
    const parts = (path === '' ? '/' : path).split('/');
    for (const route of this.routes) {
      const params = this.bind(route.segments, parts);
      if (!params) {
        continue;
      }
      const handler = route.methods[method];
      if (!handler) {
        throw new HttpError(
          405,
          'The method specified is not allowed for this resource.',
          undefined,
          {
            allow: Object.keys(route.methods).join(', '),
          },
        );
      }
      const nul = Object.entries(params).find(([, v]) => v.includes('\u0000'));
      if (nul) {
        // PostgreSQL text cannot hold U+0000: no resource is named with one.
        throw new HttpError(
          400,
          `Invalid ${nul[0]} in the path: it must not contain a NUL (U+0000) character.`,
        );
      }
      return { handler, params, template: route.path };
    }
    throw outsideHandler(new HttpError(404));
  }

  private bind(template: readonly string[], parts: readonly string[]) {
    if (template.length !== parts.length) {
      return undefined;
    }
    const params: Record<string, string> = {};
    for (let i = 0; i < template.length; i++) {
      const t = template[i]!;
      const p = parts[i]!;
      if (t.startsWith('{') && t.endsWith('}')) {
        if (p === '') {
          return undefined;
        }
        params[t.slice(1, -1)] = decodeSegment(p);
      } else if (t !== p) {
        return undefined;
      }
    }
    return params;
  }
}
