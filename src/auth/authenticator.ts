// Verifies presented API tokens: lookup by id (cached briefly in-process), constant-time hash
// comparison, revocation. A revoked token stops working within `cacheTtlMs` on every replica.
import { LRUCache } from 'lru-cache';
import type { Logger } from '../observability/logger';
import type { Role } from './roles';
import { parseToken, secretMatches } from './token-format';
import type { TokenRecord, TokenStore } from './token-store';

/** An authenticated caller. */
export interface Principal {
  /** The token id (never the secret): safe to log and to key rate limits on. */
  readonly tokenId: string;
  readonly role: Role;
  /** Project the token is scoped to, or null. */
  readonly project: string | null;
  /** The Keystone user (Keystone tokens only; the audit trail records it). */
  readonly userId?: string | null;
  /**
   * The project a Keystone token is scoped to, whatever berth's scope (`project` is null for
   * admin and service); the audit trail records it.
   */
  readonly tokenProject?: string | null;
}

/**
 * Why a token was refused (the message is shown to the client). `forbidden`: the token is valid
 * but grants no berth role (403 rather than 401; Keystone tokens, src/auth/keystone-cache.ts).
 */
export type AuthFailure = {
  readonly ok: false;
  readonly reason: string;
  readonly forbidden?: boolean;
};
/** Result of verifying a token. */
export type AuthResult = { readonly ok: true; readonly principal: Principal } | AuthFailure;

/**
 * What admission needs from a token verifier: berth tokens (Authenticator) or Keystone tokens
 * (src/auth/keystone-cache.ts KeystoneAuthenticator).
 */
export interface TokenVerifier {
  /** The principal of `token` when known without any I/O (rate-limited as known), else undefined. */
  peek(token: string | undefined): Principal | undefined;
  /**
   * Verifies `token`.
   * @throws when the backing store cannot be reached (callers answer 503 berth.unavailable).
   */
  verify(token: string | undefined): Promise<AuthResult>;
}

interface Cached {
  readonly record: TokenRecord | null;
  readonly expires: number;
}

/** Default verified-token cache period in milliseconds (= revocation bound). */
export const DEFAULT_TOKEN_CACHE_TTL_MS = 10_000;

/** Verifies tokens against the store, caching rows for `cacheTtlMs` milliseconds. */
export class Authenticator implements TokenVerifier {
  /** Least recently used rows go first when full (a flood of made-up ids evicts only itself). */
  private readonly cache: LRUCache<string, Cached>;

  constructor(
    private readonly store: TokenStore,
    private readonly cacheTtlMs = DEFAULT_TOKEN_CACHE_TTL_MS,
    private readonly log?: Logger,
    maxEntries = 10_000,
  ) {
    this.cache = new LRUCache({ max: maxEntries });
  }

  private async row(id: string): Promise<TokenRecord | null> {
    const now = Date.now();
    const hit = this.cache.get(id);
    if (hit && hit.expires > now) {
      return hit.record;
    }
    const record = await this.store.findById(id);
    // Unknown ids are cached too (as null) so a flood of made-up ids costs one query each per period.
    this.cache.set(id, { record, expires: now + this.cacheTtlMs });
    if (record && !record.revokedAt) {
      this.store
        .touch(id)
        .catch((err) => this.log?.warn({ err: String(err) }, 'token touch failed'));
    }
    return record;
  }

  /**
   * The principal of `token` when its row is cached and valid: no database lookup, so callers
   * can rate-limit known tokens before any work and unknown ones by address.
   */
  peek(token: string | undefined): Principal | undefined {
    const parsed = token ? parseToken(token.trim()) : null;
    const hit = parsed ? this.cache.get(parsed.id) : undefined;
    if (!parsed || !hit || hit.expires <= Date.now() || !hit.record || hit.record.revokedAt) {
      return undefined;
    }
    const r = hit.record;
    return secretMatches(parsed.secret, r.secretSha256)
      ? { tokenId: r.id, role: r.role, project: r.project }
      : undefined;
  }

  /**
   * Verifies `token` (the full `berth_<id>_<secret>` text).
   * @throws the store's error when the database cannot be reached (callers answer 503).
   */
  async verify(token: string | undefined): Promise<AuthResult> {
    if (!token) {
      return { ok: false, reason: 'Authentication required: send an API token.' };
    }
    const parsed = parseToken(token.trim());
    if (!parsed) {
      return { ok: false, reason: 'Invalid API token.' };
    }
    const record = await this.row(parsed.id);
    if (!record || !secretMatches(parsed.secret, record.secretSha256)) {
      return { ok: false, reason: 'Invalid API token.' };
    }
    if (record.revokedAt) {
      return { ok: false, reason: 'API token has been revoked.' };
    }
    return {
      ok: true,
      principal: { tokenId: record.id, role: record.role, project: record.project },
    };
  }

  /** Drops cached rows (tests; a same-process revoke takes effect at once). */
  forget(id?: string): void {
    if (id === undefined) {
      this.cache.clear();
    } else {
      this.cache.delete(id);
    }
  }
}

/** The token from `Authorization: Bearer <token>`, or undefined. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  if (!authorization) {
    return undefined;
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m ? m[1] : undefined;
}
