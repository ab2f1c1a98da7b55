// yoga plugin: authenticates `Authorization: Bearer <token>` (401) and rate-limits per token or
// client address (429 + Retry-After). Authorisation of each operation is src/graphql/authorize-plugin.ts.
import type { Plugin } from 'graphql-yoga';
import type { Authenticator, Principal } from '../auth/authenticator';
import { bearerToken } from '../auth/authenticator';
import type { RateLimiter } from '../auth/rate-limiter';

/** Stable extensions.code values of the auth layer. */
export const AUTH_CODES = {
  unauthenticated: 'berth.unauthenticated',
  forbidden: 'berth.forbidden',
  rateLimited: 'berth.rate_limited',
} as const;

/** A JSON GraphQL error response sent before execution. */
export function errorResponse(
  status: number,
  message: string,
  code: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The client address used as rate-limit key when there is no token. */
function clientAddress(serverContext: Record<string, unknown>): string {
  const req = serverContext.req as { socket?: { remoteAddress?: string } } | undefined;
  return req?.socket?.remoteAddress ?? 'local';
}

/** Options of {@link useAuth}. */
export interface AuthPluginOptions {
  /** undefined = auth off (every caller may do everything). */
  readonly authenticator: Authenticator | undefined;
  readonly limiter: RateLimiter;
  /** Where the plugin leaves each request's principal for the context factory. */
  readonly principals: WeakMap<Request, Principal>;
}

/** Builds the plugin. */
export function useAuthentication(o: AuthPluginOptions): Plugin<{ caller?: Principal | null }> {
  return {
    async onRequest({ request, serverContext, endResponse }) {
      let principal: Principal | undefined;
      let failure: string | undefined;
      if (o.authenticator) {
        const result = await o.authenticator.verify(
          bearerToken(request.headers.get('authorization')),
        );
        if (result.ok) {
          principal = result.principal;
          o.principals.set(request, principal);
        } else {
          failure = result.reason;
        }
      }
      // Failed authentications count against the client address, so guessing is limited too.
      const who = principal
        ? `token:${principal.tokenId}`
        : `ip:${clientAddress(serverContext as Record<string, unknown>)}`;
      const decision = await o.limiter.hit(who);
      if (!decision.allowed) {
        endResponse(
          errorResponse(
            429,
            `Rate limit exceeded: at most ${o.limiter.limit} requests per ${o.limiter.windowMs / 1000} s. Retry after ${decision.retryAfterSeconds} s.`,
            AUTH_CODES.rateLimited,
            { 'retry-after': String(decision.retryAfterSeconds) },
          ),
        );
        return;
      }
      if (failure !== undefined) {
        endResponse(
          errorResponse(401, failure, AUTH_CODES.unauthenticated, {
            'www-authenticate': 'Bearer realm="berth"',
          }),
        );
      }
    },
  };
}
