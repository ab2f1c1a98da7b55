// Fixed-window rate limiter over the in-process cache, with an injected clock.
import { RateLimiter } from '../../../src/auth/rate-limiter';
import { MemoryCache } from '../../../src/cache/memory-cache';

describe('RateLimiter', () => {
  it('allows `limit` requests per window per key, then says when to retry', async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(new MemoryCache(), 2, 10_000, () => now);
    expect(await limiter.hit('a')).toEqual({ allowed: true });
    expect(await limiter.hit('a')).toEqual({ allowed: true });
    expect(await limiter.hit('b')).toEqual({ allowed: true });
    now += 2_500;
    expect(await limiter.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 8 });
    now += 7_500;
    expect(await limiter.hit('a')).toEqual({ allowed: true });
  });

  it('never limits when the limit is 0', async () => {
    const limiter = new RateLimiter(new MemoryCache(), 0, 1000);
    for (let i = 0; i < 50; i++) {
      expect(await limiter.hit('a')).toEqual({ allowed: true });
    }
  });
});
