// Fixed-window request rate limit per caller (token id, or client address when auth is off),
// counted in the shared Cache (Redis across replicas, else in-process). Fails open when the
// cache backend is down: a Redis outage degrades limits, never availability.
import type { Cache } from '../cache/cache';
import { cacheKey } from '../cache/cache';

/** The outcome for one request. */
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** `limit` requests per `windowMs` per key; limit 0 disables the limiter. */
export class RateLimiter {
  constructor(
    private readonly cache: Cache,
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request for `who` and decides whether it may proceed. */
  async hit(who: string): Promise<RateDecision> {
    return this.decide(who, true);
  }

  /** Whether one more request for `who` would be allowed, without counting it. */
  async check(who: string): Promise<RateDecision> {
    return this.decide(who, false);
  }

  private async decide(who: string, count: boolean): Promise<RateDecision> {
    if (this.limit <= 0) {
      return { allowed: true };
    }
    const t = this.now();
    const window = Math.floor(t / this.windowMs);
    const key = cacheKey('ratelimit', `${who}:${window}`);
    const n = count
      ? await this.cache.incr(key, this.windowMs)
      : Number((await this.cache.get<number | string>(key)) ?? 0) + 1;
    if (n === undefined || Number.isNaN(n) || n <= this.limit) {
      return { allowed: true };
    }
    const retryAfterSeconds = Math.max(1, Math.ceil(((window + 1) * this.windowMs - t) / 1000));
    return { allowed: false, retryAfterSeconds };
  }
}
