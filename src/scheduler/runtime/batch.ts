// Whole-request hooks: a plugin that judges or weighs every host in one call. Runtime-internal (not
// part of the operator plugin API): out-of-process plugins (worker threads, HTTP extenders) use it
// so that one request costs one message or one HTTP call, not one per host.
import type { FilterPlugin, HostView, RequestSpec, WeigherPlugin } from '../plugin-api';
import { type Budget, errorMessage, guard } from './isolation';

/** A host filter that can also judge all hosts at once (`filter` stays the one-host fallback). */
export interface BatchFilter extends FilterPlugin<unknown> {
  /**
   * One verdict per host, in host order; replaces `prepare` + `filter` for a whole request.
   * `remainingMs` is what is left of the plugin's time budget (the pipeline gives up after it).
   */
  filterBatch(
    hosts: readonly HostView[],
    req: RequestSpec,
    remainingMs: number,
  ): Promise<readonly unknown[]>;
}

/** A weigher that can also weigh all hosts at once. */
export interface BatchWeigher extends WeigherPlugin<unknown> {
  /** One raw weight per host, in host order; replaces `prepare` + `weigh` for a whole request. */
  weighBatch(
    hosts: readonly HostView[],
    req: RequestSpec,
    remainingMs: number,
  ): Promise<readonly unknown[]>;
}

/** True when the filter judges all hosts in one call. */
export function hasFilterBatch(f: FilterPlugin<unknown>): f is BatchFilter {
  return typeof (f as Partial<BatchFilter>).filterBatch === 'function';
}

/** True when the weigher weighs all hosts in one call. */
export function hasWeighBatch(w: WeigherPlugin<unknown>): w is BatchWeigher {
  return typeof (w as Partial<BatchWeigher>).weighBatch === 'function';
}

/** What a batch call produced: one raw result per host, or why there is none. */
export type BatchOutcome =
  | { readonly ok: true; readonly values: readonly unknown[] }
  | {
      readonly ok: false;
      readonly cause: 'error' | 'timeout' | 'invalid-result';
      readonly message: string;
    };

/**
 * Runs a batch hook under the plugin's budget (raced like any async hook) and checks that it
 * answered one value per host. Never throws.
 */
export async function runBatch(
  budget: Budget,
  hosts: readonly HostView[],
  call: (remainingMs: number) => Promise<readonly unknown[]>,
): Promise<BatchOutcome> {
  const outcome = await guard(budget, () => call(Math.max(budget.remainingMs, 0)));
  if (!outcome.ok) {
    return outcome;
  }
  const values = outcome.value;
  if (!Array.isArray(values) || values.length !== hosts.length) {
    const message = `expected one result per host (${hosts.length}), got ${errorMessage(Array.isArray(values) ? `${values.length} results` : values)}`;
    return { ok: false, cause: 'invalid-result', message };
  }
  return { ok: true, values };
}
