// The Keystone v3 client of BERTH_AUTH=keystone: berth's own service token (password auth, the
// shape of keystonemiddleware's [keystone_authtoken]), renewed before it expires, and the
// validation of a caller's token (GET /v3/auth/tokens with X-Subject-Token). Token values are
// never logged: log lines name a token by its hash prefix only (tokenDigest).
import { createHash } from 'node:crypto';
import type { Logger } from '../observability/logger';
import type { KeystoneIdentity } from './roles';

/** Where Keystone is and who berth is there (config BERTH_KEYSTONE_*). */
export interface KeystoneSettings {
  /** Base URL, e.g. http://keystone:5000 (a trailing /v3 is accepted). */
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly project: string;
  readonly userDomain: string;
  readonly projectDomain: string;
  /** Per-request timeout in milliseconds. */
  readonly timeoutMs: number;
}

/** Keystone cannot answer (refused, timed out, 5xx, or berth's own credentials refused). */
export class KeystoneUnavailableError extends Error {
  override readonly name = 'KeystoneUnavailableError';
}

/** What Keystone said about a token. */
export type KeystoneValidation =
  | {
      readonly valid: true;
      readonly identity: KeystoneIdentity;
      /** Token expiry, epoch milliseconds. */
      readonly expiresAt: number;
    }
  | { readonly valid: false; readonly reason: string };

/** sha256 of a token in hex: the only form of a token berth keeps, logs or caches. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Renew berth's service token this long before it expires. */
const RENEW_MARGIN_MS = 30_000;

/** Tokens are printable ASCII without spaces; anything else is refused without a call. */
const TOKEN_SHAPE = /^[\x21-\x7e]{1,8192}$/;

interface ServiceToken {
  readonly token: string;
  readonly expiresAt: number;
  /** Renew from then on: half its lifetime, or RENEW_MARGIN_MS before expiry if later. */
  readonly renewAt: number;
}

/** Keystone v3 client: one per process. */
export class KeystoneClient {
  /** Calls made, for metrics and tests. */
  readonly stats = { validations: 0, serviceAuths: 0, failures: 0 };
  private readonly base: string;
  private service: ServiceToken | undefined;
  private serviceInFlight: Promise<ServiceToken> | undefined;

  constructor(
    private readonly s: KeystoneSettings,
    private readonly log?: Logger,
  ) {
    this.base = s.url.replace(/\/+$/, '').replace(/\/v3$/, '');
  }

  private async call(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${this.base}${path}`, {
        ...init,
        signal: AbortSignal.timeout(this.s.timeoutMs),
      });
    } catch (err) {
      this.stats.failures++;
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name;
      throw new KeystoneUnavailableError(`Keystone at ${this.base} cannot be reached (${cause}).`);
    }
  }

  private async authenticate(): Promise<ServiceToken> {
    this.stats.serviceAuths++;
    const body = {
      auth: {
        identity: {
          methods: ['password'],
          password: {
            user: {
              name: this.s.username,
              domain: { name: this.s.userDomain },
              password: this.s.password,
            },
          },
        },
        scope: { project: { name: this.s.project, domain: { name: this.s.projectDomain } } },
      },
    };
    const res = await this.call('/v3/auth/tokens?nocatalog', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const token = res.headers.get('x-subject-token');
    const json = (await res.json().catch(() => undefined)) as
      | { token?: { expires_at?: string } }
      | undefined;
    const expiresAt = Date.parse(json?.token?.expires_at ?? '');
    if (res.status !== 201 || !token || Number.isNaN(expiresAt)) {
      this.stats.failures++;
      this.log?.error(
        { status: res.status, user: this.s.username, project: this.s.project },
        "Keystone refused berth's service credentials (BERTH_KEYSTONE_USERNAME/PASSWORD/PROJECT)",
      );
      throw new KeystoneUnavailableError(
        res.status >= 500
          ? `Keystone answered ${res.status}.`
          : "Keystone refused berth's service credentials.",
      );
    }
    const now = Date.now();
    const renewAt = Math.max(now + (expiresAt - now) / 2, expiresAt - RENEW_MARGIN_MS);
    return { token, expiresAt, renewAt };
  }

  /**
   * berth's service token, authenticating (once, however many callers wait) when there is none
   * or it has expired; past its renewal time it is renewed in the background while still used.
   */
  private async serviceToken(): Promise<string> {
    const now = Date.now();
    const current = this.service;
    if (current && current.renewAt > now) {
      return current.token;
    }
    this.serviceInFlight ??= this.authenticate()
      .then((t) => {
        this.service = t;
        return t;
      })
      .finally(() => {
        this.serviceInFlight = undefined;
      });
    if (current && current.expiresAt > now) {
      this.serviceInFlight.catch((err) =>
        this.log?.warn({ err: String(err) }, 'Keystone service token renewal failed'),
      );
      return current.token;
    }
    return (await this.serviceInFlight).token;
  }

  /**
   * Validates `token` with Keystone.
   * @throws KeystoneUnavailableError when Keystone cannot answer.
   */
  async validate(token: string): Promise<KeystoneValidation> {
    if (!TOKEN_SHAPE.test(token)) {
      return { valid: false, reason: 'Invalid Keystone token.' };
    }
    for (let attempt = 0; ; attempt++) {
      const service = await this.serviceToken();
      this.stats.validations++;
      const res = await this.call('/v3/auth/tokens?nocatalog', {
        method: 'GET',
        headers: { 'x-auth-token': service, 'x-subject-token': token },
      });
      if (res.status === 200) {
        return this.parse(await res.json().catch(() => undefined));
      }
      await res.body?.cancel();
      if (res.status === 404 || res.status === 400) {
        return { valid: false, reason: 'The Keystone token is invalid, expired or revoked.' };
      }
      if (res.status === 401 && attempt === 0) {
        this.service = undefined; // berth's own token was refused (expired, revoked): renew once
        continue;
      }
      this.stats.failures++;
      this.log?.warn({ status: res.status }, 'Keystone token validation failed');
      throw new KeystoneUnavailableError(
        res.status >= 500
          ? `Keystone answered ${res.status}.`
          : `Keystone refused to validate tokens for berth (${res.status}): berth's service user needs the service or admin role.`,
      );
    }
  }

  private parse(body: unknown): KeystoneValidation {
    const t = (body as { token?: Record<string, unknown> } | undefined)?.token;
    const expiresAt = Date.parse(String(t?.expires_at ?? ''));
    if (!t || Number.isNaN(expiresAt)) {
      this.stats.failures++;
      throw new KeystoneUnavailableError('Keystone answered a token validation without a token.');
    }
    if (expiresAt <= Date.now()) {
      return { valid: false, reason: 'The Keystone token has expired.' };
    }
    const roles = Array.isArray(t.roles)
      ? t.roles.flatMap((r) => (typeof r?.name === 'string' ? [r.name as string] : []))
      : [];
    const project = t.project as { id?: unknown } | undefined;
    const projectId = typeof project?.id === 'string' ? project.id : null;
    const user = t.user as { id?: unknown } | undefined;
    const userId = typeof user?.id === 'string' ? user.id : null;
    return { valid: true, identity: { roles, projectId, userId }, expiresAt };
  }
}
