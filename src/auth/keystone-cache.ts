// Verifies Keystone tokens for BERTH_AUTH=keystone: a validated token is cached (in this process
// and in the shared cache, Redis when configured) until min(token expiry, BERTH_KEYSTONE_CACHE_S),
// an invalid one for NEGATIVE_TTL_MS; concurrent requests presenting the same new token make one
// Keystone call (single flight per token per process). A revoked token is therefore refused at
// most BERTH_KEYSTONE_CACHE_S after it was first validated. While Keystone cannot be reached,
// cached tokens keep working and new ones are refused with 503 (KeystoneUnavailableError).
// Tokens starting with `berth_` are berth API tokens and go to the berth authenticator.
// Caches are keyed by sha256 of the token; the token itself is never stored or logged.
import { LRUCache } from 'lru-cache';
import { type Cache, cacheKey } from '../cache/cache';
import type { Logger } from '../observability/logger';
import type { AuthResult, Principal, TokenVerifier } from './authenticator';
import { type KeystoneClient, tokenDigest } from './keystone';
import { roleOfKeystone } from './roles';

/** How long a token Keystone called invalid is refused without asking again. */
export const NEGATIVE_TTL_MS = 10_000;

/** Default positive cache period (BERTH_KEYSTONE_CACHE_S), in seconds. */
export const DEFAULT_KEYSTONE_CACHE_S = 300;

/** A cached verdict (JSON in the shared cache). `until`: epoch ms after which it is stale. */
interface Verdict {
  readonly principal?: Principal;
  readonly reason?: string;
  readonly forbidden?: boolean;
  readonly until: number;
}

const BERTH_TOKEN_PREFIX = 'berth_';

/** The message of a valid Keystone token that grants no berth role. */
export const NO_ROLE_MESSAGE =
  "The Keystone token grants no Placement role: berth needs the role 'admin' or 'service', or 'member' / 'reader' on a project (project-scoped token).";

/** Keystone token verification with caches; berth tokens are handed to `berth` when given. */
export class KeystoneAuthenticator implements TokenVerifier {
  private readonly local: LRUCache<string, Verdict>;
  private readonly inFlight = new Map<string, Promise<AuthResult>>();

  constructor(
    private readonly client: KeystoneClient,
    private readonly shared: Cache,
    private readonly cacheTtlMs = DEFAULT_KEYSTONE_CACHE_S * 1000,
    /** The berth API token authenticator (undefined: berth tokens are refused). */
    private readonly berth?: TokenVerifier,
    private readonly log?: Logger,
    maxEntries = 10_000,
  ) {
    this.local = new LRUCache({ max: maxEntries });
  }

  private static result(v: Verdict): AuthResult {
    return v.principal
      ? { ok: true, principal: v.principal }
      : { ok: false, reason: v.reason ?? 'Invalid Keystone token.', forbidden: v.forbidden };
  }

  /** The cached principal of `token`, without any I/O. */
  peek(token: string | undefined): Principal | undefined {
    const t = token?.trim();
    if (!t) {
      return undefined;
    }
    if (t.startsWith(BERTH_TOKEN_PREFIX)) {
      return this.berth?.peek(t);
    }
    const v = this.local.get(tokenDigest(t));
    return v && v.until > Date.now() ? v.principal : undefined;
  }

  /**
   * Verifies `token` (cache, then Keystone).
   * @throws KeystoneUnavailableError when it is not cached and Keystone cannot answer; the berth
   * authenticator's error for berth tokens when the database cannot be reached.
   */
  async verify(token: string | undefined): Promise<AuthResult> {
    const t = token?.trim();
    if (!t) {
      return {
        ok: false,
        reason: 'Authentication required: send a Keystone token (X-Auth-Token).',
      };
    }
    if (t.startsWith(BERTH_TOKEN_PREFIX)) {
      return this.berth
        ? this.berth.verify(t)
        : { ok: false, reason: 'berth API tokens are not accepted here.' };
    }
    const digest = tokenDigest(t);
    const hit = this.local.get(digest);
    if (hit && hit.until > Date.now()) {
      return KeystoneAuthenticator.result(hit);
    }
    let pending = this.inFlight.get(digest);
    if (!pending) {
      pending = this.resolve(t, digest).finally(() => this.inFlight.delete(digest));
      this.inFlight.set(digest, pending);
    }
    return pending;
  }

  private remember(digest: string, v: Verdict): void {
    const ttl = v.until - Date.now();
    if (ttl <= 0) {
      return;
    }
    this.local.set(digest, v, { ttl });
    this.shared
      .set(cacheKey('keystone-token', digest), v, ttl)
      .catch((err) => this.log?.warn({ err: String(err) }, 'Keystone token cache write failed'));
  }

  private async resolve(token: string, digest: string): Promise<AuthResult> {
    const cached = await this.shared.get<Verdict>(cacheKey('keystone-token', digest));
    if (cached && cached.until > Date.now()) {
      this.local.set(digest, cached, { ttl: cached.until - Date.now() });
      return KeystoneAuthenticator.result(cached);
    }
    const tokenId = `ks-${digest.slice(0, 16)}`;
    const v = await this.client.validate(token); // throws KeystoneUnavailableError
    const now = Date.now();
    if (!v.valid) {
      this.log?.info({ tokenId }, 'Keystone token refused');
      this.remember(digest, { reason: v.reason, until: now + NEGATIVE_TTL_MS });
      return { ok: false, reason: v.reason };
    }
    const until = Math.min(v.expiresAt, now + this.cacheTtlMs);
    const granted = roleOfKeystone(v.identity);
    if (!granted) {
      this.log?.info({ tokenId, roles: v.identity.roles }, 'Keystone token grants no berth role');
      this.remember(digest, { reason: NO_ROLE_MESSAGE, forbidden: true, until });
      return { ok: false, reason: NO_ROLE_MESSAGE, forbidden: true };
    }
    const principal: Principal = {
      tokenId,
      role: granted.role,
      project: granted.project,
      userId: v.identity.userId ?? null,
      tokenProject: v.identity.projectId,
    };
    this.remember(digest, { principal, until });
    return { ok: true, principal };
  }

  /** Drops every verdict of this process (tests). */
  forget(): void {
    this.local.clear();
  }
}
