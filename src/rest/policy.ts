// Authorization of REST actions: Placement's default (legacy, admin-only) policy for noauth2
// callers (upstream: placement/policies/*.py with enforce_new_defaults=False, context.can()), and
// berth's roles (src/auth/roles.ts) for callers holding a berth API token.
import { roleAllows, roleForRestAction } from '../auth/roles';
import type { RestCaller } from './auth';
import { HttpError } from './http-error';

/**
 * Allows `action` for a project-scoped caller with the admin role, which is what Placement's
 * default rules (rule:admin_api) come to; system-scoped or non-admin callers get 403. A berth
 * token caller needs the role roleForRestAction(action) names; project-scoped tokens may not
 * write allocations over REST (its bodies are not checked per project: use GraphQL).
 * @throws HttpError 403 'Policy does not allow <action> to be performed.'
 */
export function authorizeOrThrow(caller: RestCaller, action: string): void {
  const token = caller.token;
  if (token) {
    const need = roleForRestAction(action);
    if (!roleAllows(token.role, need)) {
      throw new HttpError(
        403,
        `Policy does not allow ${action} to be performed. Role '${token.role}' needs '${need}'.`,
      );
    }
    if (token.project !== null && need === 'scheduler') {
      throw new HttpError(
        403,
        `Policy does not allow ${action} to be performed. Project-scoped tokens write allocations through GraphQL only.`,
      );
    }
    return;
  }
  if (caller.roles.includes('admin') && !caller.systemScope) {
    return;
  }
  throw new HttpError(403, `Policy does not allow ${action} to be performed.`);
}
