// Who is calling: Placement's noauth2 mode, and berth API tokens in `x-auth-token` (upstream:
// placement/auth.py NoAuthMiddleware + PlacementKeystoneContext, oslo.context from_environ).
import type { IncomingHttpHeaders } from 'node:http';
import type { Principal, TokenVerifier } from '../auth/authenticator';
import type { Role } from '../auth/roles';

/** The caller as Placement's RequestContext sees it. */
export interface RestCaller {
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly roles: readonly string[];
  /** 'all' when the request is system-scoped (openstack-system-scope header). */
  readonly systemScope: string | null;
  /** Set for callers authenticated by a berth API token: the policy is then berth's roles. */
  readonly token?: {
    readonly id: string;
    readonly role: Role;
    readonly project: string | null;
    /** The Keystone user and the project its token is scoped to (audit trail). */
    readonly userId?: string | null;
    readonly tokenProject?: string | null;
  };
}

/** REST authentication mode (config BERTH_REST_AUTH). */
export type RestAuthMode = 'noauth2' | 'token';

/** Header `name` as text (repeated ones joined with ','), or undefined when absent. */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
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

/** The caller in token mode while authentication is off (BERTH_AUTH=off): an unscoped admin. */
const UNAUTHENTICATED_ADMIN: RestCaller = {
  userId: 'admin',
  projectId: 'admin',
  roles: ['admin'],
  systemScope: null,
};

/** Result of authenticating a REST request: a caller, or why there is none (401). */
export type RestAuthResult =
  | { readonly ok: true; readonly caller: RestCaller }
  | { readonly ok: false; readonly reason: string };

/**
 * Identifies the caller of a REST request. noauth2 behaves exactly as Placement's; token mode
 * verifies `x-auth-token` with `authenticator` (undefined = auth off: everyone is admin).
 */
export async function authenticate(
  mode: RestAuthMode,
  headers: IncomingHttpHeaders,
  authenticator?: TokenVerifier,
): Promise<RestAuthResult> {
  if (mode === 'noauth2') {
    const caller = noAuthCaller(headers);
    return caller ? { ok: true, caller } : { ok: false, reason: '' };
  }
  if (!authenticator) {
    return { ok: true, caller: UNAUTHENTICATED_ADMIN };
  }
  const token = header(headers, 'x-auth-token');
  if (token === undefined) {
    return {
      ok: false,
      reason:
        'Authentication required: send the API token in the `X-Auth-Token` header (tokens come from `berth token create`).',
    };
  }
  const result = await authenticator.verify(token);
  if (!result.ok) {
    return result;
  }
  return { ok: true, caller: tokenCaller(result.principal) };
}

/** The REST caller of a verified token (a berth API token or a Keystone token). */
export function tokenCaller(p: Principal): RestCaller {
  return {
    userId: `token:${p.tokenId}`,
    projectId: p.project,
    roles: [p.role],
    systemScope: null,
    token: {
      id: p.tokenId,
      role: p.role,
      project: p.project,
      userId: p.userId ?? null,
      tokenProject: p.tokenProject ?? null,
    },
  };
}
