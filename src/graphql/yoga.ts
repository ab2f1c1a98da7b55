// src/graphql/ is the GraphQL server around the Pothos schema (schema/): this file builds the
// yoga endpoint, the plugins beside it run around every operation (authentication, authorisation
// on the coerced arguments, armour, the result budget, error codes, NUL refusal), compiled-queries
// and direct-answer execute documents, and loaders/ batches the resolvers' reads per request.
//
// Composition root of the GraphQL endpoint: yoga over the Pothos schema with the one error mask,
// authentication/authorisation, rate limit and armour.
import { randomUUID } from 'node:crypto';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { DIRECT_ROOTS } from '../../schema/allocation-candidate-answer';
import type { Context } from '../../schema/context';
import { maskError } from '../../schema/errors';
import { schema } from '../../schema/index';
import type { Scheduling } from '../app/scheduling';
import type { Services } from '../app/services';
import type { Principal, TokenVerifier } from '../auth/authenticator';
import type { RateLimiter } from '../auth/rate-limiter';
import type { Config } from '../config/config';
import { renderOfflineGraphiQL } from '../http/graphiql-assets';
import type { Logger } from '../observability/logger';
import { useArmour } from './armour-plugin';
import { type AdmittedContext, useAuthentication } from './authenticate-plugin';
import { useAuthorization } from './authorize-plugin';
import { useCompiledQueries } from './compiled-queries';
import { useErrorCodeLog } from './error-code-plugin';
import { createLoaders } from './loaders/create-loaders';
import { useResultBudget } from './result-budget';

/** Server-side context handed to yoga by the HTTP layer. */
export interface ServerContext extends AdmittedContext {
  readonly requestId?: string;
}

/** Builds the yoga instance (tests call its `fetch`, the server mounts it at /graphql). */
export function createGraphQL(deps: {
  services: Services;
  scheduling: Scheduling;
  log: Logger;
  config: Config;
  /** undefined = authentication off. */
  authenticator: TokenVerifier | undefined;
  limiter: RateLimiter;
  /** More yoga plugins, run after berth's own (e.g. /metrics' operation timing). */
  plugins?: readonly Plugin[];
}): YogaServerInstance<ServerContext, Context> {
  const principals = new WeakMap<Request, Principal>();
  const l = deps.config.limits;
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    renderGraphiQL: renderOfflineGraphiQL,
    maskedErrors: {
      maskError: (error, message) => {
        const masked = maskError(error, message);
        if (
          (masked as { extensions?: { code?: unknown } }).extensions?.code ===
          'INTERNAL_SERVER_ERROR'
        ) {
          // The client sees "Unexpected error."; the operator gets the cause.
          const cause = (error as { originalError?: unknown }).originalError ?? error;
          deps.log.error({ err: cause }, 'GraphQL request failed with an unexpected error');
        }
        return masked;
      },
    },
    logging: false,
    // No cross-origin access unless BERTH_CORS_ORIGINS lists the origins (yoga's default
    // reflects any Origin with credentials).
    cors:
      deps.config.corsOrigins.length > 0
        ? { origin: [...deps.config.corsOrigins], credentials: true }
        : false,
    // Every network request has its body read under the limit before it reaches yoga (413 in
    // src/http/router.ts), so yoga's own limit would only re-stream each body through a
    // TransformStream, a measurable share of a small request's CPU. In-process callers of yoga.fetch are our code.
    maxRequestBodySize: false,
    plugins: [
      useAuthentication({
        authenticator: deps.authenticator,
        limiter: deps.limiter,
        log: deps.log,
        principals,
      }),
      useAuthorization({ services: deps.services }),
      useArmour({
        maxDepth: l.maxDepth,
        maxAliases: l.maxAliases,
        maxDirectives: l.maxDirectives,
        maxCost: l.maxCost,
        maxTokens: l.maxTokens,
        // Admin tokens may always introspect (GraphiQL's docs, code generation).
        introspection: (request) =>
          deps.config.introspection ||
          (request !== undefined && principals.get(request)?.role === 'admin'),
      }),
      useResultBudget({ schema, maxItems: l.maxResultItems }),
      useCompiledQueries({ schema, log: deps.log, direct: DIRECT_ROOTS }),
      useErrorCodeLog(),
      ...(deps.plugins ?? []),
    ],
    context: ({ requestId, request }): Context => {
      const id = requestId ?? randomUUID();
      return {
        requestId: id,
        log: deps.log.child({ requestId: id }),
        services: deps.services,
        loaders: createLoaders(deps.services),
        scheduling: deps.scheduling,
        caller: principals.get(request) ?? null,
      };
    },
  });
}
