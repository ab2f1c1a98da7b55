// Fixed-window rate limits over the in-process cache, with an injected clock: the window, the
// three policies (per token by role, failed authentications and anonymous requests per address),
// which are unlimited by default, and the 429 message naming the limit hit.
import { RateLimiter, type RateLimits } from '../../../src/auth/rate-limiter';
import type { Role } from '../../../src/auth/roles';
import { MemoryCache } from '../../../src/cache/memory-cache';

const limits = (o: Partial<RateLimits> = {}): RateLimits => ({
  windowMs: 10_000,
  failedAuth: 0,
  anonymous: 0,
  roles: {},
  ...o,
});

describe('RateLimiter', () => {
  it('allows `limit` requests per window per key, then says when to retry', async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(new MemoryCache(), limits({ failedAuth: 2 }), () => now);
    const p = limiter.forFailedAuth();
    expect(await p.hit('a')).toEqual({ allowed: true });
    expect(await p.hit('a')).toEqual({ allowed: true });
    expect(await p.hit('b')).toEqual({ allowed: true });
    expect(await p.check('a')).toEqual({ allowed: false, retryAfterSeconds: 10 });
    now += 2_500;
    expect(await p.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 8 });
    now += 7_500;
    expect(await p.check('a')).toEqual({ allowed: true });
    expect(await p.hit('a')).toEqual({ allowed: true });
  });

  it('limits nothing by default, without touching the cache', async () => {
    const cache = new MemoryCache();
    const incr = jest.spyOn(cache, 'incr');
    const limiter = new RateLimiter(cache, limits());
    const policies = [
      ...(['reader', 'scheduler', 'admin'] as const).map((r) => limiter.forToken(r)),
      limiter.forFailedAuth(),
      limiter.forAnonymous(),
    ];
    for (const p of policies) {
      for (let i = 0; i < 50; i++) {
        expect(await p.hit('a')).toEqual({ allowed: true });
      }
    }
    expect(incr).not.toHaveBeenCalled();
  });

  const table: { role: Role; limit: number | undefined; refused: boolean }[] = [
    { role: 'reader', limit: 2, refused: true },
    { role: 'scheduler', limit: 0, refused: false },
    { role: 'admin', limit: undefined, refused: false },
  ];
  it.each(table)('token of role $role with limit $limit: refused $refused', async (row) => {
    const roles = row.limit === undefined ? {} : { [row.role]: row.limit };
    const limiter = new RateLimiter(new MemoryCache(), limits({ roles }));
    const p = limiter.forToken(row.role);
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push((await p.hit('token-1')).allowed);
    }
    expect(outcomes).toEqual([true, true, !row.refused]);
  });

  it('counts each policy on its own: an address and a token id never share a counter', async () => {
    const limiter = new RateLimiter(
      new MemoryCache(),
      limits({ failedAuth: 1, anonymous: 1, roles: { reader: 1 } }),
    );
    expect((await limiter.forFailedAuth().hit('x')).allowed).toBe(true);
    expect((await limiter.forAnonymous().hit('x')).allowed).toBe(true);
    expect((await limiter.forToken('reader').hit('x')).allowed).toBe(true);
    expect((await limiter.forFailedAuth().hit('x')).allowed).toBe(false);
  });

  it('names the limit hit in its message', () => {
    const limiter = new RateLimiter(
      new MemoryCache(),
      limits({ failedAuth: 30, anonymous: 40, roles: { reader: 600 } }),
    );
    expect(limiter.forToken('reader').message(3)).toBe(
      'Rate limit exceeded for role reader: at most 600 requests per token per 10 s. Retry after 3 s.',
    );
    expect(limiter.forFailedAuth().message(4)).toBe(
      'Rate limit exceeded for failed authentications from this address: at most 30 failed authentications per 10 s. Retry after 4 s.',
    );
    expect(limiter.forAnonymous().message(5)).toMatch(
      /^Rate limit exceeded for requests from this address \(authentication is off\): at most 40 requests per 10 s\./,
    );
  });

  it('fails open when the cache cannot count', async () => {
    const down = { get: async () => undefined, incr: async () => undefined };
    const p = new RateLimiter(down, limits({ anonymous: 1 })).forAnonymous();
    for (let i = 0; i < 5; i++) {
      expect(await p.hit('a')).toEqual({ allowed: true });
    }
  });

  it('unlimited() lets everything through', async () => {
    const limiter = RateLimiter.unlimited();
    expect(await limiter.forFailedAuth().hit('a')).toEqual({ allowed: true });
    expect(await limiter.forToken('reader').hit('a')).toEqual({ allowed: true });
  });
});
