// The `route` label of an HTTP request: the route's template (`/resource_providers/{uuid}`), never
// the path itself, so that one series stands for every provider. Unknown paths read `other`.

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The `method` label: the method, or `other` for one HTTP does not define. */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && METHODS.has(method) ? method : 'other';
}

/** The `status` label: `2xx`, `4xx`, … */
export function statusLabel(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

/** What names routes. */
export interface RouteNaming {
  /** Fixed paths served as they are (`/healthz`, `/graphql`). */
  readonly exact: readonly string[];
  /** Prefixes whose paths all count as one route (`/ui` → `/ui/*`). */
  readonly prefixes: readonly string[];
  /** Where the REST facade is mounted ('' = at '/'). */
  readonly restPrefix: string;
  /** The REST route templates, below restPrefix (`/resource_providers/{uuid}`). */
  readonly restTemplates: readonly string[];
}

/** Builds the `path → route label` function. */
export function routeNamer(n: RouteNaming): (path: string) => string {
  const exact = new Set(n.exact);
  const templates = n.restTemplates.map((t) => ({ template: t, segments: t.split('/') }));
  const matches = (segments: readonly string[], parts: readonly string[]) =>
    segments.length === parts.length &&
    segments.every((s, i) => (s.startsWith('{') ? parts[i] !== '' : s === parts[i]));
  return (path) => {
    if (exact.has(path)) {
      return path;
    }
    for (const p of n.prefixes) {
      if (path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`)) {
        return `${p.endsWith('/') ? p.slice(0, -1) : p}/*`;
      }
    }
    const below =
      n.restPrefix === ''
        ? path
        : path === n.restPrefix || path.startsWith(`${n.restPrefix}/`)
          ? path.slice(n.restPrefix.length)
          : undefined;
    if (below !== undefined) {
      const parts = (below === '' ? '/' : below).split('/');
      const hit = templates.find((t) => matches(t.segments, parts));
      if (hit) {
        return `${n.restPrefix}${hit.template}`;
      }
    }
    return 'other';
  };
}
