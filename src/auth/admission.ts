// Admission of one API request, before its body is read: the rate limit, then the token; the
// one decision code of GraphQL (src/http/router.ts, src/graphql/authenticate-plugin.ts) and the
// REST facade in token mode (src/rest/router.ts). A valid token is limited only when its role has
// a limit (BERTH_RATE_LIMIT_ROLES); a token this replica has verified recently is counted at once.
// Otherwise the client address's count of failed authentications is checked first (an address
// over BERTH_RATE_LIMIT is refused with no database lookup and no body read), then the token is
// looked up and the request counted against the token's role (valid) or the address (refused).
// With auth off every request counts against the address (BERTH_RATE_LIMIT_ANONYMOUS). A
// database that cannot be reached while a token is looked up is a retryable 503, never an
// internal error.
import type { Logger } from '../observability/logger';
import { bearerToken, type Principal, type TokenVerifier } from './authenticator';
import { KeystoneUnavailableError } from './keystone';
import type { RateLimiter, RatePolicy } from './rate-limiter';

/** The 401 message when no token is sent: it names the header to send. */
export const MISSING_TOKEN =
  'Authentication required: send the header `Authorization: Bearer <token>` (tokens come from `berth token create`).';

/** Stable error codes of admission. */
export const ADMISSION_CODES = {
  unauthenticated: 'berth.unauthenticated',
  rateLimited: 'berth.rate_limited',
  unavailable: 'berth.unavailable',
  /** A valid token that grants no berth role (Keystone). */
  forbidden: 'berth.forbidden',
} as const;

/** Let in (with the caller, null when auth is off), or refused with an HTTP answer. */
export type Admission =
  | { readonly ok: true; readonly principal: Principal | null }
  | {
      readonly ok: false;
      readonly status: 401 | 403 | 429 | 503;
      readonly message: string;
      readonly code: string;
      readonly headers: Readonly<Record<string, string>>;
    };

/** What admission needs. */
export interface AdmissionDeps {
  /** undefined = auth off (every caller may do everything); berth or Keystone tokens. */
  readonly authenticator: TokenVerifier | undefined;
  readonly limiter: RateLimiter;
  readonly log?: Logger;
}

/**
 * Admits a request carrying the `authorization` header (or, without one, `xAuthToken`: the
 * OpenStack `X-Auth-Token` header) from `address`. Never throws.
 */
export function admit(
  deps: AdmissionDeps,
  authorization: string | null | undefined,
  address: string,
  xAuthToken?: string | null,
): Promise<Admission> {
  return admitToken(deps, bearerToken(authorization) ?? (xAuthToken || undefined), address);
}

/**
 * Counts one request under `policy` (with `count` false, only checks): the 429 refusal over its
 * limit, else undefined.
 */
async function throttled(
  policy: RatePolicy,
  who: string,
  count = true,
): Promise<Admission | undefined> {
  const d = count ? await policy.hit(who) : await policy.check(who);
  return d.allowed
    ? undefined
    : {
        ok: false,
        status: 429,
        message: policy.message(d.retryAfterSeconds),
        code: ADMISSION_CODES.rateLimited,
        headers: { 'retry-after': String(d.retryAfterSeconds) },
      };
}

/** Counts a valid token's request against its role's limit. */
async function asPrincipal(deps: AdmissionDeps, p: Principal): Promise<Admission> {
  return (await throttled(deps.limiter.forToken(p.role), p.tokenId)) ?? { ok: true, principal: p };
}

/**
 * Admits a request presenting `token` (undefined = none sent) from `address`; `missing` is the
 * 401 message when no token is sent (REST names its own header). Never throws.
 */
export async function admitToken(
  deps: AdmissionDeps,
  token: string | undefined,
  address: string,
  missing = MISSING_TOKEN,
): Promise<Admission> {
  if (!deps.authenticator) {
    return (await throttled(deps.limiter.forAnonymous(), address)) ?? { ok: true, principal: null };
  }
  const known = deps.authenticator.peek(token);
  if (known) {
    return asPrincipal(deps, known);
  }
  const failures = deps.limiter.forFailedAuth();
  const guessing = await throttled(failures, address, false);
  if (guessing) {
    return guessing;
  }
  try {
    const result = await deps.authenticator.verify(token);
    if (result.ok) {
      return asPrincipal(deps, result.principal);
    }
    if (result.forbidden) {
      return {
        ok: false,
        status: 403,
        message: result.reason,
        code: ADMISSION_CODES.forbidden,
        headers: {},
      };
    }
    return (
      (await throttled(failures, address)) ?? {
        ok: false,
        status: 401,
        message: token === undefined ? missing : result.reason,
        code: ADMISSION_CODES.unauthenticated,
        headers: { 'www-authenticate': 'Bearer realm="berth"' },
      }
    );
  } catch (err) {
    deps.log?.warn({ err: String(err) }, 'token lookup failed: answering 503');
    return {
      ok: false,
      status: 503,
      message:
        err instanceof KeystoneUnavailableError
          ? `Authentication is temporarily unavailable (${err.message}); retry.`
          : 'Authentication is temporarily unavailable (the database cannot be reached); retry.',
      code: ADMISSION_CODES.unavailable,
      headers: { 'retry-after': '1' },
    };
  }
}
