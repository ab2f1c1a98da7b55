// What a project-scoped berth token reads over REST (berth extension: Placement's default policy
// has no project-scoped reads): its own project's usages, its own consumers' allocations, and on
// a provider only its own project's allocations. A consumer of another project reads exactly as
// an unknown consumer does (same status, same body), so the answer never tells the caller that a
// uuid is in use elsewhere.
import type { RestCaller } from './auth';
import { HttpError } from './http-error';

/** The project a caller's token is scoped to, or null (not scoped, or not a token caller). */
function scopeOf(caller: RestCaller): string | null {
  return caller.token?.project ?? null;
}

/**
 * For a project-scoped token: refuses `action` on another project's data named by the request
 * itself (`project`: e.g. GET /usages?project_id=; null when the request names none). The answer
 * is the same whether that project exists or not.
 * @throws HttpError 403 'Policy does not allow <action> to be performed.'
 */
export function ownProjectOrThrow(
  caller: RestCaller,
  action: string,
  project: string | null,
): void {
  const scope = scopeOf(caller);
  if (scope !== null && project !== null && project !== scope) {
    throw new HttpError(
      403,
      `Policy does not allow ${action} to be performed. This token reads project '${scope}' only.`,
    );
  }
}

/**
 * `consumer` as `caller` may see it: null, exactly as if no such consumer existed, when the
 * caller's token is scoped to another project than the consumer's.
 */
export function visibleConsumer<C extends { readonly projectId: string }>(
  caller: RestCaller,
  consumer: C | null,
): C | null {
  const scope = scopeOf(caller);
  return consumer !== null && scope !== null && consumer.projectId !== scope ? null : consumer;
}

/**
 * The allocations of `list` the caller may see: a project-scoped token sees only its own
 * project's consumers on a provider (the provider itself, and its usages, stay whole).
 */
export function visibleAllocations<A extends { readonly projectId: string }>(
  caller: RestCaller,
  list: readonly A[],
): readonly A[] {
  const scope = scopeOf(caller);
  return scope === null ? list : list.filter((a) => a.projectId === scope);
}
