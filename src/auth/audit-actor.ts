// Who a request is, as the audit trail records it (src/placement/audit.ts): built by the
// adapters from what authentication found. Never the token text, only ids, names and roles.
import type { AuditActor } from '../placement/audit';
import type { Principal } from './authenticator';

/** Keystone principals carry ids derived from the token digest (src/auth/keystone-cache.ts). */
const isKeystoneId = (id: string) => id.startsWith('ks-');

/** The actor of a GraphQL request (null principal: authentication off, everyone is admin). */
export function actorOfPrincipal(p: Principal | null): AuditActor {
  if (!p) {
    return { kind: 'anonymous', role: 'admin' };
  }
  return {
    kind: isKeystoneId(p.tokenId) ? 'keystone' : 'token',
    id: p.tokenId,
    userId: p.userId ?? null,
    projectId: p.tokenProject ?? p.project,
    role: p.role,
  };
}

/** The actor of a REST request (berth or Keystone token, or Placement's noauth2 user). */
export function actorOfRestCaller(caller: {
  readonly userId: string | null;
  readonly projectId: string | null;
  readonly roles: readonly string[];
  readonly token?: {
    readonly id: string;
    readonly role: string;
    readonly project: string | null;
    readonly userId?: string | null;
    readonly tokenProject?: string | null;
  };
}): AuditActor {
  const t = caller.token;
  if (t) {
    return {
      kind: isKeystoneId(t.id) ? 'keystone' : 'token',
      id: t.id,
      userId: t.userId ?? null,
      projectId: t.tokenProject ?? t.project,
      role: t.role,
    };
  }
  return {
    kind: 'noauth',
    userId: caller.userId,
    projectId: caller.projectId,
    role: caller.roles.join(',').slice(0, 16) || null,
  };
}

/** The actor of a CLI command run by an operator on the server (imports, `berth token`). */
export function cliActor(): AuditActor {
  return { kind: 'cli', name: 'cli' };
}
