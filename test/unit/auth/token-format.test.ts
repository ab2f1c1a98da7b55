// Token wire format: generation, parsing and the hash comparison.
import {
  generateToken,
  hashSecret,
  parseToken,
  secretMatches,
} from '../../../src/auth/token-format';

describe('token format', () => {
  it('generates berth_<16 hex>_<43 chars> tokens that parse back to id and secret', () => {
    const t = generateToken();
    expect(t.token).toMatch(/^berth_[0-9a-f]{16}_[A-Za-z0-9-]{43}$/);
    const parsed = parseToken(t.token);
    expect(parsed?.id).toBe(t.id);
    expect(hashSecret(parsed!.secret)).toBe(t.secretSha256);
    expect(t.token).not.toContain(t.secretSha256);
  });

  it('generates distinct tokens', () => {
    const ids = new Set(Array.from({ length: 100 }, () => generateToken().token));
    expect(ids.size).toBe(100);
  });

  it.each(['', 'berth_', 'berth_xyz_abc', `berth_0123456789abcdef_${'a'.repeat(42)}`, 'Bearer x'])(
    'rejects %p',
    (v) => {
      expect(parseToken(v)).toBeNull();
    },
  );

  it('matches only the right secret', () => {
    const t = generateToken();
    const { secret } = parseToken(t.token)!;
    expect(secretMatches(secret, t.secretSha256)).toBe(true);
    expect(secretMatches(`${secret.slice(0, -1)}x`, t.secretSha256)).toBe(secret.endsWith('x'));
    expect(secretMatches(secret, 'not-hex')).toBe(false);
  });
});
