// yoga plugin: authenticates `Authorization: Bearer <token>` (401), rate-limits per token or
// client address (429 + Retry-After), and authorises each operation's root fields against the
// central role map in src/auth/roles.ts before anything executes (403). Project-scoped tokens
// may only write allocations for consumers of their project.
import {
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLObjectType,
  getArgumentValues,
  getOperationAST,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Authenticator, Principal } from '../auth/authenticator';
import { bearerToken } from '../auth/authenticator';
import { collectWriteTargets, projectScopeViolation } from '../auth/project-scope';
import type { RateLimiter } from '../auth/rate-limiter';
import { PROJECT_SCOPED_MUTATIONS, roleAllows, roleForOperation } from '../auth/roles';
import type { Services } from '../services';

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

/** Root fields of `set`, through fragments (cycles cut). @skip/@include are ignored: all count. */
export function rootFields(doc: DocumentNode, set: SelectionSetNode): FieldNode[] {
  const frags = new Map(
    doc.definitions.flatMap((d) =>
      d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d]] : [],
    ),
  );
  const out: FieldNode[] = [];
  const walk = (s: SelectionSetNode, seen: ReadonlySet<string>) => {
    for (const sel of s.selections) {
      if (sel.kind === Kind.FIELD) {
        out.push(sel);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet, seen);
      } else {
        const f = frags.get(sel.name.value);
        if (f && !seen.has(sel.name.value)) {
          walk(f.selectionSet, new Set([...seen, sel.name.value]));
        }
      }
    }
  };
  walk(set, new Set());
  return out;
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
  readonly services: Services;
  /** Where the plugin leaves each request's principal for the context factory. */
  readonly principals: WeakMap<Request, Principal>;
}

/** Builds the plugin. */
export function useAuth(o: AuthPluginOptions): Plugin<{ caller?: Principal | null }> {
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
    async onExecute({ args, setResultAndStopExecution }) {
      const caller = (args.contextValue as { caller?: Principal | null }).caller;
      if (!caller) {
        return;
      }
      const op = getOperationAST(args.document, args.operationName);
      if (!op) {
        return;
      }
      const rootType: GraphQLObjectType | null | undefined =
        op.operation === 'mutation' ? args.schema.getMutationType() : undefined;
      const forbid = (message: string) =>
        setResultAndStopExecution({
          errors: [
            new GraphQLError(message, {
              extensions: { code: AUTH_CODES.forbidden, http: { status: 403 } },
            }),
          ],
        });
      const fields = rootFields(args.document, op.selectionSet);
      for (const f of fields) {
        const need = roleForOperation(op.operation, f.name.value);
        if (!roleAllows(caller.role, need)) {
          forbid(
            `Role '${caller.role}' may not run ${op.operation} field '${f.name.value}' (needs '${need}').`,
          );
          return;
        }
      }
      if (!caller.project || !rootType) {
        return;
      }
      for (const f of fields) {
        const def = rootType.getFields()[f.name.value];
        if (!def || !PROJECT_SCOPED_MUTATIONS.has(f.name.value)) {
          continue;
        }
        let values: Record<string, unknown>;
        try {
          values = getArgumentValues(def, f, args.variableValues ?? {});
        } catch {
          // Bad arguments: execution reports the coercion error and writes nothing.
          continue;
        }
        const reason = await projectScopeViolation(
          o.services.dataSource,
          caller.project,
          collectWriteTargets(values),
        );
        if (reason) {
          forbid(reason);
          return;
        }
      }
    },
  };
}
