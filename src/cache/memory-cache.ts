// In-process LRU implementation of the cache contract (used when REDIS_URL is unset).
import { LRUCache } from 'lru-cache';
import type { Cache, CacheStats } from './cache';

/** LRU cache bounded by entry count. Values are stored as JSON so callers get copies. */
export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  readonly stats: CacheStats = { hits: 0, misses: 0, errors: 0 };
  private readonly lru: LRUCache<string, string>;

  constructor(maxEntries = 10000) {
    this.lru = new LRUCache<string, string>({ max: maxEntries, ttlAutopurge: false });
  }

  async get<T>(key: string): Promise<T | undefined> {
    const raw = this.lru.get(key);
    if (raw === undefined) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    return JSON.parse(raw) as T;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.lru.set(key, JSON.stringify(value), { ttl: Math.max(1, Math.floor(ttlMs)) });
  }

  async ttl(key: string): Promise<number | undefined> {
    if (!this.lru.has(key)) {
      return undefined;
    }
    const remaining = this.lru.getRemainingTTL(key);
    return Number.isFinite(remaining) ? remaining : undefined;
  }

  async incr(key: string, ttlMs?: number): Promise<number> {
    const current = this.lru.get(key);
    const next = Number(JSON.parse(current ?? '0')) + 1;
    if (current === undefined && ttlMs !== undefined) {
      this.lru.set(key, JSON.stringify(next), { ttl: Math.max(1, Math.floor(ttlMs)) });
    } else {
      // noUpdateTTL keeps a fixed window's original expiry.
      this.lru.set(key, JSON.stringify(next), { noUpdateTTL: true });
    }
    return next;
  }

  async delete(key: string): Promise<void> {
    this.lru.delete(key);
  }

  async invalidatePrefix(prefix: string): Promise<void> {
    for (const key of [...this.lru.keys()]) {
      if (key.startsWith(prefix)) {
        this.lru.delete(key);
      }
    }
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.lru.clear();
  }
}
