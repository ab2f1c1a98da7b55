// API token wire format `berth_<id>_<secret>`: generation, parsing, hashing and the
// constant-time comparison. Only sha256(secret) is ever stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefix of every token (makes leaked tokens easy to grep for and to scan for). */
export const TOKEN_PREFIX = 'berth_';

const TOKEN_RE = /^berth_([0-9a-f]{16})_([A-Za-z0-9-]{43})$/;

/** A freshly generated token: its public id, full text (shown once) and the hash to store. */
export interface NewToken {
  readonly id: string;
  readonly token: string;
  readonly secretSha256: string;
}

/** Hex SHA-256 of a token secret. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Generates a token: 64-bit random id, 256-bit random secret (base64url, '_' mapped to '-'). */
export function generateToken(): NewToken {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url').replace(/_/g, '-');
  return { id, token: `${TOKEN_PREFIX}${id}_${secret}`, secretSha256: hashSecret(secret) };
}

/** Splits a token into id and secret; null when it is not in berth's format. */
export function parseToken(token: string): { id: string; secret: string } | null {
  const m = TOKEN_RE.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

/** Constant-time check that `secret` hashes to `expectedSha256` (hex). */
export function secretMatches(secret: string, expectedSha256: string): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(expectedSha256, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
