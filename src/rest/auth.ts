// Who is calling: Placement's noauth2 mode, and the seam for token auth (upstream:
// placement/auth.py NoAuthMiddleware + PlacementKeystoneContext, oslo.context from_environ).
import type { IncomingHttpHeaders } from 'node:http';

/** The caller as Placement's RequestContext sees it. */
export interface RestCaller {
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly roles: readonly string[];
  /** 'all' when the request is system-scoped (openstack-system-scope header). */
  readonly systemScope: string | null;
}

/** REST authentication mode (config BERTH_REST_AUTH). */
export type RestAuthMode = 'noauth2' | 'token';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

/**
 * noauth2: token 'user[:project]' (project defaults to user); roles from x-roles, else admin when
 * the user is 'admin'; x-project-id overrides the project, openstack-system-scope drops it.
 * Returns null when there is no x-auth-token (401).
 */
export function noAuthCaller(headers: IncomingHttpHeaders): RestCaller | null {
  const token = header(headers, 'x-auth-token');
  if (token === undefined) {
    return null;
  }
  const sep = token.indexOf(':');
  const userId = sep < 0 ? token : token.slice(0, sep);
  const projectId = (sep < 0 ? '' : token.slice(sep + 1)) || userId;
  const rolesHeader = header(headers, 'x-roles');
  const roles =
    rolesHeader !== undefined ? rolesHeader.split(',') : userId === 'admin' ? ['admin'] : [];
  const systemScope = header(headers, 'openstack-system-scope') || null;
  const explicitProject = header(headers, 'x-project-id');
  return {
    userId,
    projectId: explicitProject ?? (systemScope ? null : projectId),
    roles: roles.map((r) => r.trim()).filter((r) => r.length > 0),
    systemScope,
  };
}

/** The caller used while token auth is not built: an unscoped admin. */
const UNAUTHENTICATED_ADMIN: RestCaller = {
  userId: 'admin',
  projectId: 'admin',
  roles: ['admin'],
  systemScope: null,
};

/**
 * Identifies the caller of a REST request; null means 401. Paths '/' and '' (the version
 * document) never need a caller.
 */
export function authenticate(mode: RestAuthMode, headers: IncomingHttpHeaders): RestCaller | null {
  if (mode === 'noauth2') {
    return noAuthCaller(headers);
  }
  // TODO(hardening issue): token mode. Verify the bearer token / x-auth-token and map its
  // roles here (this one function is the seam); until then non-noauth2 mode means "no auth".
  return UNAUTHENTICATED_ADMIN;
}
