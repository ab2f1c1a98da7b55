// Authorization of REST actions under Placement's default (legacy, admin-only) policy
// (upstream: placement/policies/*.py with enforce_new_defaults=False, context.can()).
import type { RestCaller } from './auth';
import { HttpError } from './http-error';

/**
 * Allows `action` for a project-scoped caller with the admin role, which is what Placement's
 * default rules (rule:admin_api) come to; system-scoped or non-admin callers get 403.
 * @throws HttpError 403 'Policy does not allow <action> to be performed.'
 */
export function authorizeOrThrow(caller: RestCaller, action: string): void {
  if (caller.roles.includes('admin') && !caller.systemScope) {
    return;
  }
  throw new HttpError(403, `Policy does not allow ${action} to be performed.`);
}
