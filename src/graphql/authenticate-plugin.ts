// yoga plugin: admits each request (src/auth/admission.ts: rate limit, then the bearer token;
// 429 / 401 / 503) and refuses POST bodies that are not JSON (415: a cross-site form cannot
// send one without a CORS preflight). The HTTP layer admits network requests before reading
// their bodies and hands the result over in the server context; in-process callers of
// yoga.fetch are admitted here. Authorisation of each operation is src/graphql/authorize-plugin.ts.
import type { Plugin } from 'graphql-yoga';
import { ADMISSION_CODES, type Admission, type AdmissionDeps, admit } from '../auth/admission';
import type { Principal } from '../auth/authenticator';

/** Stable extensions.code values of the auth layer. */
export const AUTH_CODES = {
  ...ADMISSION_CODES,
  forbidden: 'berth.forbidden',
  unsupportedMediaType: 'berth.unsupported_media_type',
} as const;

/** A JSON GraphQL error response sent before execution. */
export function errorResponse(
  status: number,
  message: string,
  code: string,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * Why a GraphQL POST with this content type is refused, or null. Only JSON is accepted: yoga
 * would also run form-urlencoded and multipart bodies, which any web page can post cross-site.
 */
export function graphqlMediaTypeProblem(contentType: string | null | undefined): string | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || type === 'application/graphql-response+json'
    ? null
    : `GraphQL requests must be sent as application/json (got ${type || 'no content type'}).`;
}

/** The server context the HTTP layer hands to yoga. */
export interface AdmittedContext {
  /** Set when the HTTP layer already admitted the request (before reading its body). */
  readonly admission?: Admission;
  readonly req?: { socket?: { remoteAddress?: string } };
}

/** Options of {@link useAuthentication}. */
export interface AuthPluginOptions extends AdmissionDeps {
  /** Where the plugin leaves each request's principal for the context factory. */
  readonly principals: WeakMap<Request, Principal>;
}

/** The response refusing an admission, or undefined when it let the request in. */
export function refusal(a: Admission): Response | undefined {
  return a.ok ? undefined : errorResponse(a.status, a.message, a.code, a.headers);
}

/** Builds the plugin. */
export function useAuthentication(o: AuthPluginOptions): Plugin<{ caller?: Principal | null }> {
  return {
    async onRequest({ request, serverContext, endResponse }) {
      const ctx = serverContext as AdmittedContext;
      if (request.method === 'POST') {
        const problem = graphqlMediaTypeProblem(request.headers.get('content-type'));
        if (problem) {
          endResponse(errorResponse(415, problem, AUTH_CODES.unsupportedMediaType));
          return;
        }
      }
      const admission =
        ctx.admission ??
        (await admit(
          o,
          request.headers.get('authorization'),
          ctx.req?.socket?.remoteAddress ?? 'local',
          request.headers.get('x-auth-token'),
        ));
      if (!admission.ok) {
        endResponse(refusal(admission)!);
        return;
      }
      if (admission.principal) {
        o.principals.set(request, admission.principal);
      }
    },
  };
}
