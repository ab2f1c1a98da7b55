// Fixed-window request rate limits, counted in the shared Cache (Redis across replicas, else
// in-process). Three policies: requests per token by the token's role (opt-in,
// BERTH_RATE_LIMIT_ROLES), failed authentications per client address (BERTH_RATE_LIMIT) and, with
// auth off, requests per client address (BERTH_RATE_LIMIT_ANONYMOUS). A limit of 0 never refuses
// and never touches the cache. Fails open when the cache backend is down: a Redis outage degrades
// limits, never availability.
import type { Cache } from '../cache/cache';
import { cacheKey } from '../cache/cache';
import type { Role } from './roles';

/** The outcome for one request. */
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Every limit, per window of `windowMs` (Config `limits.rateLimits`); 0 = unlimited. */
export interface RateLimits {
  readonly windowMs: number;
  /** Failed authentications per client address while auth is on. */
  readonly failedAuth: number;
  /** Requests per client address while auth is off. */
  readonly anonymous: number;
  /** Requests per token, by the token's role; a role absent is unlimited. */
  readonly roles: Readonly<Partial<Record<Role, number>>>;
}

/** What a limiter needs of the cache. */
type Counter = Pick<Cache, 'get' | 'incr'>;

/** One limit: `limit` requests per `windowMs` per key, counted under its own key space. */
export class RatePolicy {
  constructor(
    private readonly cache: Counter,
    /** Key space of this policy's counters. */
    private readonly space: string,
    readonly limit: number,
    readonly windowMs: number,
    /** What is limited, for the 429 message: "role reader", "failed authentications …". */
    readonly subject: string,
    /** What `limit` counts per window: "requests per token", "failed authentications". */
    private readonly unit: string,
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

  /** The 429 message of a refusal: names the limit that was hit. */
  message(retryAfterSeconds: number): string {
    return `Rate limit exceeded for ${this.subject}: at most ${this.limit} ${this.unit} per ${this.windowMs / 1000} s. Retry after ${retryAfterSeconds} s.`;
  }

  private async decide(who: string, count: boolean): Promise<RateDecision> {
    if (this.limit <= 0) {
      return { allowed: true };
    }
    const t = this.now();
    const window = Math.floor(t / this.windowMs);
    const key = cacheKey('ratelimit', `${this.space}:${who}:${window}`);
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

/** Limits that never refuse. */
const NO_LIMITS: RateLimits = { windowMs: 1000, failedAuth: 0, anonymous: 0, roles: {} };

/** The three policies over one cache; callers pick the one that applies to a request. */
export class RateLimiter {
  private readonly tokens = new Map<Role, RatePolicy>();
  private readonly failed: RatePolicy;
  private readonly anonymous: RatePolicy;

  constructor(
    private readonly cache: Counter,
    readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {
    const w = limits.windowMs;
    this.failed = new RatePolicy(
      cache,
      'authfail',
      limits.failedAuth,
      w,
      'failed authentications from this address',
      'failed authentications',
      now,
    );
    this.anonymous = new RatePolicy(
      cache,
      'anon',
      limits.anonymous,
      w,
      'requests from this address (authentication is off)',
      'requests',
      now,
    );
  }

  /** A limiter that lets everything through (no cache is ever touched). */
  static unlimited(): RateLimiter {
    return new RateLimiter({ get: async () => undefined, incr: async () => undefined }, NO_LIMITS);
  }

  /** Requests per token of `role` (keyed by token id); unlimited unless the role has a limit. */
  forToken(role: Role): RatePolicy {
    let p = this.tokens.get(role);
    if (!p) {
      const limit = this.limits.roles[role] ?? 0;
      p = new RatePolicy(
        this.cache,
        'token',
        limit,
        this.limits.windowMs,
        `role ${role}`,
        'requests per token',
        this.now,
      );
      this.tokens.set(role, p);
    }
    return p;
  }

  /** Failed authentications per client address (keyed by address). */
  forFailedAuth(): RatePolicy {
    return this.failed;
  }

  /** Requests per client address while authentication is off (keyed by address). */
  forAnonymous(): RatePolicy {
    return this.anonymous;
  }
}
