// Redis implementation of the cache contract (ioredis). Failures degrade to misses, never errors:
// Redis is an accelerator, Postgres is the truth. A Redis that hangs (stopped, partitioned,
// swapping) costs at most one short deadline: every command times out after `commandTimeoutMs`,
// and a timeout opens a breaker for `cooldownMs` during which calls miss at once without asking;
// the first call after it probes Redis again.
import './ioredis-strings';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../observability/logger';
import type { Cache, CacheStats } from './cache';
import { parseRedisUrl } from './redis-url';

/**
 * Redis-backed cache on the Redis, or the Sentinel-watched master group, that `url` names
 * (redis-url.ts). `namespace` prefixes every key (tests use one per worker).
 */
export class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  readonly stats: CacheStats = { hits: 0, misses: 0, errors: 0 };
  readonly client: Redis;
  private lastErrorLog = 0;
  private everReady = false;
  private closed = false;
  /** Until when (ms since epoch) Redis is skipped after a command timed out. */
  private openUntil = 0;
  private readonly cooldownMs: number;

  constructor(
    url: string,
    private readonly log?: Logger,
    private readonly namespace = '',
    opts: { commandTimeoutMs?: number; cooldownMs?: number } = {},
  ) {
    this.cooldownMs = opts.cooldownMs ?? 2000;
    const commandTimeout = opts.commandTimeoutMs ?? 250;
    const target = parseRedisUrl(url);
    const options: RedisOptions = {
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout,
      keepAlive: 10_000,
      // Commands issued in the same tick (concurrent requests' cache reads) share one write.
      enableAutoPipelining: true,
      retryStrategy: (times) => (this.closed ? null : Math.min(times * 200, 2000)),
    };
    if (typeof target === 'string') {
      this.client = new Redis(target, options);
    } else {
      this.client = new Redis({
        ...target,
        ...options,
        // Sentinel: every (re)connection asks a Sentinel for the master. When none answers, ask
        // them again (forever, until closed) rather than give up on Redis for good.
        sentinelRetryStrategy: (times) => (this.closed ? null : Math.min(times * 200, 2000)),
        // A Sentinel that accepts the connection but does not answer (hung) is left after this.
        sentinelCommandTimeout: Math.max(commandTimeout, 1000),
        // Drop the connection when the Sentinels announce a new master (+switch-master): a
        // master that hangs or is cut off keeps its socket open and would otherwise be kept.
        failoverDetector: true,
        // ... and a dropped connection to a hung master is destroyed after this, not 2 s.
        disconnectTimeout: 500,
        // A master demoted to replica (it came back after a failover) refuses writes: reconnect
        // (through the Sentinels, to the new master) instead of failing every write.
        reconnectOnError: (err) => err.message.startsWith('READONLY'),
      });
      // ioredis ends the client (no more reconnects) when the failover detector drops a
      // connection while a new one is being made: start again after a pause.
      this.client.on('end', () => {
        if (!this.closed) {
          setTimeout(() => {
            if (!this.closed && this.client.status === 'end') {
              this.client.connect().catch(() => undefined);
            }
          }, 1000).unref();
        }
      });
    }
    this.client.on('error', (err) => this.noteError(err));
    this.client.on('ready', () => {
      this.everReady = true;
    });
  }

  private noteError(err: unknown): void {
    this.stats.errors++;
    if (/timed out/i.test(String((err as Error)?.message ?? err))) {
      this.openUntil = Date.now() + this.cooldownMs;
    }
    const now = Date.now();
    if (now - this.lastErrorLog > 10000) {
      this.lastErrorLog = now;
      this.log?.warn({ err: String(err) }, 'redis unavailable: cache degraded to misses');
    }
  }

  /**
   * True when a command can be sent now. While the first connection is being made, waits for it
   * (bounded); once Redis has gone away, answers false at once so callers miss instead of waiting.
   */
  private async usable(): Promise<boolean> {
    if (Date.now() < this.openUntil) {
      return false; // a command timed out recently: don't wait on Redis again yet
    }
    const status = this.client.status;
    if (status === 'ready') {
      return true;
    }
    if (this.everReady || (status !== 'connecting' && status !== 'connect' && status !== 'wait')) {
      return false;
    }
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), 1000);
      this.client.once('ready', onReady);
    });
  }

  private k(key: string): string {
    return this.namespace + key;
  }

  async get<T>(key: string): Promise<T | undefined> {
    if (!(await this.usable())) {
      this.stats.misses++;
      return undefined;
    }
    try {
      const raw = await this.client.get(this.k(key));
      if (raw === null) {
        this.stats.misses++;
        return undefined;
      }
      this.stats.hits++;
      return JSON.parse(raw) as T;
    } catch (err) {
      this.noteError(err);
      this.stats.misses++;
      return undefined;
    }
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    if (!(await this.usable())) {
      return;
    }
    try {
      await this.client.set(
        this.k(key),
        JSON.stringify(value),
        'PX',
        Math.max(1, Math.floor(ttlMs)),
      );
    } catch (err) {
      this.noteError(err);
    }
  }

  async ttl(key: string): Promise<number | undefined> {
    if (!(await this.usable())) {
      return undefined;
    }
    try {
      const ms = await this.client.pttl(this.k(key));
      return ms >= 0 ? ms : undefined;
    } catch (err) {
      this.noteError(err);
      return undefined;
    }
  }

  async incr(key: string, ttlMs?: number): Promise<number | undefined> {
    if (!(await this.usable())) {
      return undefined;
    }
    try {
      if (ttlMs !== undefined) {
        // MULTI: create the counter with its expiry only if absent (fixed window), then INCR.
        const res = await this.client
          .multi()
          .set(this.k(key), '0', 'PX', Math.max(1, Math.floor(ttlMs)), 'NX')
          .incr(this.k(key))
          .exec();
        const [err, value] = res?.[1] ?? [new Error('transaction aborted'), undefined];
        if (err) {
          throw err;
        }
        return Number(value);
      }
      return await this.client.incr(this.k(key));
    } catch (err) {
      this.noteError(err);
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    if (!(await this.usable())) {
      return;
    }
    try {
      await this.client.del(this.k(key));
    } catch (err) {
      this.noteError(err);
    }
  }

  async invalidatePrefix(prefix: string): Promise<void> {
    if (!(await this.usable())) {
      return;
    }
    try {
      let cursor = '0';
      do {
        const [next, keys] = await this.client.scan(
          cursor,
          'MATCH',
          `${this.k(prefix)}*`,
          'COUNT',
          500,
        );
        cursor = next;
        if (keys.length > 0) {
          await this.client.unlink(...keys);
        }
      } while (cursor !== '0');
    } catch (err) {
      this.noteError(err);
    }
  }

  async healthy(): Promise<boolean> {
    if (!(await this.usable())) {
      return false;
    }
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.client.disconnect(false);
  }
}
