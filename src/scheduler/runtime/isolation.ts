// Plugin isolation: per-plugin time budgets and catching plugin errors (no Nova counterpart: Nova runs
// filters in-process without limits; shape from the Kubernetes framework's per-plugin Status).
//
// Decision: a budget is the total wall time one plugin may spend in one request, summed over all its
// calls (prepare + one call per host). Synchronous calls cannot be pre-empted in-process, so the
// pipeline checks the budget after every call: a slow-but-finite plugin is cut off at the next host
// boundary. Async calls are raced against the remaining budget and abandoned when it runs out.
// A synchronous infinite loop still blocks the event loop; plugins are trusted code loaded at start-up
// (as Nova filters are). The event-loop watchdog (src/lib/watchdog.ts) then names the plugin and kills
// the replica for its supervisor to restart. Operators who need hard isolation run operator plugins
// in worker threads (BERTH_PLUGIN_ISOLATION=worker, worker-pool.ts: the thread is terminated at the
// budget) or out of process (HTTP extenders, extender.ts).

import { errorMessage } from '../../lib/error-message';
import { markRunning, restoreRunning } from '../../lib/watchdog';

export { errorMessage };

/** Wall-time allowance of one plugin for one request. */
export class Budget {
  private spent = 0;

  /**
   * @param limitMs allowance in milliseconds
   * @param now clock in milliseconds (injectable for tests)
   */
  constructor(
    readonly limitMs: number,
    readonly now: () => number,
    /** The plugin spending it: named by the event-loop watchdog if a call never returns. */
    readonly plugin: string | null = null,
  ) {}

  /** Milliseconds left (may be negative once overrun). */
  get remainingMs(): number {
    return this.limitMs - this.spent;
  }

  /** Milliseconds used so far. */
  get spentMs(): number {
    return this.spent;
  }

  /** Adds elapsed time (ms). */
  charge(ms: number): void {
    this.spent += ms;
  }

  /** True once more than the allowance has been spent. */
  get exceeded(): boolean {
    return this.spent > this.limitMs;
  }
}

/** Result of a guarded call. */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly cause: 'error' | 'timeout'; readonly message: string };

/** True for promises and other thenables. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) {
    return false;
  }
  try {
    return typeof (value as { then?: unknown }).then === 'function';
  } catch {
    return false; // a `then` getter that throws (a Proxy, say): not a promise
  }
}

function overrun<T>(budget: Budget): Outcome<T> {
  return {
    ok: false,
    cause: 'timeout',
    message: `exceeded its time budget of ${budget.limitMs} ms (spent ${budget.spentMs.toFixed(1)} ms)`,
  };
}

function settle<T>(budget: Budget, start: number, value: T): Outcome<T> {
  budget.charge(budget.now() - start);
  return budget.exceeded ? overrun(budget) : { ok: true, value };
}

function race<T>(promise: PromiseLike<T>, budget: Budget, start: number): Promise<Outcome<T>> {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        budget.charge(Math.max(budget.now() - start, budget.remainingMs + 1e-3));
        resolve(overrun(budget));
      },
      Math.max(budget.remainingMs - (budget.now() - start), 0),
    );
    // The plugin's promise may settle after the timer fired: both handlers are attached, so a late
    // rejection is never unhandled, and resolve() ignores the second call.
    Promise.resolve(promise).then(
      (value) => {
        clearTimeout(timer);
        resolve(settle(budget, start, value));
      },
      (err: unknown) => {
        clearTimeout(timer);
        budget.charge(budget.now() - start);
        resolve({ ok: false, cause: 'error', message: errorMessage(err) });
      },
    );
  });
}

/**
 * Calls a plugin hook under its budget. Returns synchronously when the hook is synchronous (no await
 * per host on the hot path), otherwise a promise raced against the remaining budget. Never throws.
 */
export function guard<T>(
  budget: Budget,
  call: () => T | PromiseLike<T>,
): Outcome<T> | Promise<Outcome<T>> {
  const start = budget.now();
  let result: T | PromiseLike<T>;
  const previous = markRunning(budget.plugin);
  try {
    result = call();
  } catch (err) {
    budget.charge(budget.now() - start);
    return { ok: false, cause: 'error', message: errorMessage(err) };
  } finally {
    restoreRunning(previous);
  }
  if (isPromiseLike(result)) {
    return race(result, budget, start);
  }
  return settle(budget, start, result);
}
