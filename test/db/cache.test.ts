// The Redis cache and the in-process LRU honour the same contract (no mocks: real Redis when
// REDIS_URL is set).
import { randomUUID } from 'node:crypto';
import type { Cache } from '../../src/cache/cache';
import { MemoryCache } from '../../src/cache/memory-cache';
import { RedisCache } from '../../src/cache/redis-cache';

const redisUrl = process.env.REDIS_URL;
const impls: [string, () => Cache][] = [['memory', () => new MemoryCache(100)]];
if (redisUrl) {
  impls.push(['redis', () => new RedisCache(redisUrl, undefined, `test:${randomUUID()}:`)]);
} else {
  process.stdout.write('[berth tests] REDIS_URL unset: Redis cache contract test skipped\n');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(impls)('%s cache', (_name, make) => {
  let cache: Cache;
  beforeEach(() => {
    cache = make();
  });
  afterEach(async () => {
    await cache.invalidatePrefix('');
    await cache.close();
  });

  it('returns what was set, as a copy, and counts hits and misses', async () => {
    expect(await cache.get('a')).toBeUndefined();
    await cache.set('a', { x: [1, 2] }, 10000);
    const got = await cache.get<{ x: number[] }>('a');
    expect(got).toEqual({ x: [1, 2] });
    expect(cache.stats.hits).toBe(1);
    expect(cache.stats.misses).toBe(1);
  });

  it('expires entries after their ttl and reports the remaining ttl', async () => {
    await cache.set('t', 1, 150);
    const ttl = await cache.ttl('t');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(150);
    await sleep(250);
    expect(await cache.get('t')).toBeUndefined();
    expect(await cache.ttl('t')).toBeUndefined();
  });

  it('deletes one key', async () => {
    await cache.set('d', 'v', 10000);
    await cache.delete('d');
    expect(await cache.get('d')).toBeUndefined();
  });

  it('invalidates every key with a prefix and nothing else', async () => {
    await cache.set('p:1', 1, 10000);
    await cache.set('p:2', 2, 10000);
    await cache.set('q:1', 3, 10000);
    await cache.invalidatePrefix('p:');
    expect(await cache.get('p:1')).toBeUndefined();
    expect(await cache.get('p:2')).toBeUndefined();
    expect(await cache.get('q:1')).toBe(3);
  });

  it('increments counters atomically', async () => {
    const results = await Promise.all([cache.incr('n'), cache.incr('n'), cache.incr('n')]);
    expect([...results].sort()).toEqual([1, 2, 3]);
    expect(await cache.incr('n')).toBe(4);
  });

  it('increments a windowed counter that keeps its first expiry', async () => {
    const results = await Promise.all([cache.incr('w', 300), cache.incr('w', 300)]);
    expect([...results].sort()).toEqual([1, 2]);
    const ttl = await cache.ttl('w');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    await new Promise((r) => setTimeout(r, 400));
    expect(await cache.incr('w', 300)).toBe(1);
  });

  it('reports itself healthy', async () => {
    expect(await cache.healthy()).toBe(true);
  });
});

describe('redis cache with Redis unreachable', () => {
  it('degrades to misses instead of throwing', async () => {
    const cache = new RedisCache('redis://127.0.0.1:1', undefined, 'x:');
    await cache.set('k', 1, 1000);
    expect(await cache.get('k')).toBeUndefined();
    expect(await cache.healthy()).toBe(false);
    await cache.close();
  });
});
