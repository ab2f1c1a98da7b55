// The cache contract shared by the Redis cache and the in-process LRU (derived, rebuildable data
// only: never the source of truth for inventories or allocations).

/** Cache statistics, exposed as metrics. */
export interface CacheStats {
  hits: number;
  misses: number;
  errors: number;
}

/** A string-keyed JSON cache. Implementations never throw on backend failure: they miss. */
export interface Cache {
  /** 'redis' or 'memory'. */
  readonly kind: 'redis' | 'memory';
  readonly stats: CacheStats;
  /** The cached value, or undefined on a miss (or when the backend is down). */
  get<T>(key: string): Promise<T | undefined>;
  /** Stores `value` for `ttlMs` milliseconds. */
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** Remaining time to live in milliseconds, or undefined when absent. */
  ttl(key: string): Promise<number | undefined>;
  delete(key: string): Promise<void>;
  /**
   * Atomically increments an integer counter (created at 0); undefined when the backend is down.
   * With `ttlMs`, a counter created by this call expires after `ttlMs` milliseconds (later
   * increments keep the original expiry: a fixed window).
   */
  incr(key: string, ttlMs?: number): Promise<number | undefined>;
  /** Deletes every key starting with `prefix`. */
  invalidatePrefix(prefix: string): Promise<void>;
  /** True when the backend answers. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

/** The one key-naming function: `berth:<kind>:<id>`. */
export function cacheKey(kind: string, id: string): string {
  return `berth:${kind}:${id}`;
}
