// The verified-token cache is an LRU: a flood of made-up token ids evicts the least recently
// used rows, not every row (a wholesale clear would send every real caller back to the database).
import { Authenticator } from '../../../src/auth/authenticator';
import { generateToken } from '../../../src/auth/token-format';
import type { TokenRecord, TokenStore } from '../../../src/auth/token-store';

/** A store over a Map (the unit under test is the cache, not the table), counting lookups. */
function store(rows: TokenRecord[]): TokenStore & { lookups: number } {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const s = {
    lookups: 0,
    async findById(id: string) {
      s.lookups += 1;
      return byId.get(id) ?? null;
    },
    async touch() {},
  };
  return s as unknown as TokenStore & { lookups: number };
}

it('keeps a recently used token cached while unknown ids fill the cache', async () => {
  const t = generateToken();
  const record = {
    id: t.id,
    name: '',
    role: 'reader',
    project: null,
    secretSha256: t.secretSha256,
    createdAt: new Date(),
    lastUsedAt: null,
    revokedAt: null,
  } as TokenRecord;
  const s = store([record]);
  const auth = new Authenticator(s, 60_000, undefined, 4);
  expect((await auth.verify(t.token)).ok).toBe(true);
  for (let i = 0; i < 10; i++) {
    await auth.verify(generateToken().token); // unknown ids
    expect(auth.peek(t.token)?.tokenId).toBe(t.id); // a use keeps it recent
  }
  const before = s.lookups;
  expect((await auth.verify(t.token)).ok).toBe(true);
  expect(s.lookups).toBe(before); // answered from the cache
});
