// Admission of one API request, before its body is read: the rate limit, then the token. A token
// this replica has verified recently is counted against itself at once. Otherwise the client
// address's count of failed authentications is checked first (a guesser over the limit is
// refused with no database lookup and no body read), then the token is looked up and the request
// counted against the token (valid) or the address (refused). With auth off every request counts
// against the address. A database that cannot be reached while a token is looked up is a
// retryable 503, never an internal error.
import type { Logger } from '../logger';
import { type Authenticator, bearerToken, type Principal } from './authenticator';
import type { RateDecision, RateLimiter } from './rate-limiter';

/** The 401 message when no token is sent: it names the header to send. */
export const MISSING_TOKEN =
  'Authentication required: send the header `Authorization: Bearer <token>` (tokens come from `berth token create`).';

/** Stable error codes of admission. */
export const ADMISSION_CODES = {
  unauthenticated: 'berth.unauthenticated',
  rateLimited: 'berth.rate_limited',
  unavailable: 'berth.unavailable',
} as const;

/** Let in (with the caller, null when auth is off), or refused with an HTTP answer. */
export type Admission =
  | { readonly ok: true; readonly principal: Principal | null }
  | {
      readonly ok: false;
      readonly status: 401 | 429 | 503;
      readonly message: string;
      readonly code: string;
      readonly headers: Readonly<Record<string, string>>;
    };

/** What admission needs. */
export interface AdmissionDeps {
  /** undefined = auth off (every caller may do everything). */
  readonly authenticator: Authenticator | undefined;
  readonly limiter: RateLimiter;
  readonly log?: Logger;
}

/** Admits a request carrying `authorization` from `address`. Never throws. */
export async function admit(
  deps: AdmissionDeps,
  authorization: string | null | undefined,
  address: string,
): Promise<Admission> {
  const limit = deps.limiter;
  const throttled = (d: RateDecision): Admission | undefined =>
    d.allowed
      ? undefined
      : {
          ok: false,
          status: 429,
          message: `Rate limit exceeded: at most ${limit.limit} requests per ${limit.windowMs / 1000} s. Retry after ${d.retryAfterSeconds} s.`,
          code: ADMISSION_CODES.rateLimited,
          headers: { 'retry-after': String(d.retryAfterSeconds) },
        };
  const byAddress = `ip:${address}`;
  if (!deps.authenticator) {
    return throttled(await limit.hit(byAddress)) ?? { ok: true, principal: null };
  }
  const token = bearerToken(authorization);
  const known = deps.authenticator.peek(token);
  if (known) {
    return throttled(await limit.hit(`token:${known.tokenId}`)) ?? { ok: true, principal: known };
  }
  const guessing = throttled(await limit.check(byAddress));
  if (guessing) {
    return guessing;
  }
  try {
    const result = await deps.authenticator.verify(token);
    if (result.ok) {
      const p = result.principal;
      return throttled(await limit.hit(`token:${p.tokenId}`)) ?? { ok: true, principal: p };
    }
    return (
      throttled(await limit.hit(byAddress)) ?? {
        ok: false,
        status: 401,
        message: token === undefined ? MISSING_TOKEN : result.reason,
        code: ADMISSION_CODES.unauthenticated,
        headers: { 'www-authenticate': 'Bearer realm="berth"' },
      }
    );
  } catch (err) {
    deps.log?.warn({ err: String(err) }, 'token lookup failed: answering 503');
    return {
      ok: false,
      status: 503,
      message: 'Authentication is temporarily unavailable (the database cannot be reached); retry.',
      code: ADMISSION_CODES.unavailable,
      headers: { 'retry-after': '1' },
    };
  }
}
