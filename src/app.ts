// The application: database (real or embedded), migrations, cache, services and HTTP routes.
// Everything the server and the tests need, with one close() that releases it all.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DataSource } from 'typeorm';
import { createScheduling, type Scheduling } from './app-scheduling';
import { admit } from './auth/admission';
import { Authenticator } from './auth/authenticator';
import { RateLimiter } from './auth/rate-limiter';
import { TokenStore } from './auth/token-store';
import type { Cache } from './cache/cache';
import { MemoryCache } from './cache/memory-cache';
import { RedisCache } from './cache/redis-cache';
import type { Config } from './config';
import { type ChangeListener, startChangeListener } from './db/change-listener';
import { createDataSource } from './db/data-source';
import { type EmbeddedPg, startEmbeddedPg } from './db/embedded-pg';
import { seedStandard } from './db/seed';
import { ASSET_PREFIX, serveGraphiQLAsset } from './graphiql-assets';
import { AUTH_CODES, graphqlMediaTypeProblem } from './graphql/authenticate-plugin';
import { BodyTooLargeError, readBodyLimited } from './http-body';
import type { Logger } from './logger';
import { ChangeBus } from './placement/change-bus';
import { createRestRouter } from './rest/router';
import { createServices, type Services } from './services';
import { createGraphQL } from './yoga';

/** A running berth application (not yet bound to a port). */
export interface App {
  readonly config: Config;
  readonly log: Logger;
  readonly dataSource: DataSource;
  readonly cache: Cache;
  readonly services: Services;
  readonly scheduling: Scheduling;
  readonly graphql: ReturnType<typeof createGraphQL>;
  /** API tokens (`berth token …`). */
  readonly tokens: TokenStore;
  /** Token verification; undefined when authentication is off. */
  readonly authenticator: Authenticator | undefined;
  /** Node request listener serving every route. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Readiness: database reachable and migrated; cache state reported as detail. */
  readiness(): Promise<{ ready: boolean; checks: Record<string, string> }>;
  close(): Promise<void>;
}

/** Options for tests: an already-initialised DataSource and cache. */
export interface AppOverrides {
  readonly dataSource?: DataSource;
  readonly cache?: Cache;
  /** NOTIFY channel for changes (tests use one per schema). */
  readonly changeChannel?: string;
  /** URL to LISTEN on when a DataSource is given (otherwise no listener is started). */
  readonly listenUrl?: string;
}

/** One metric in the Prometheus text format. */
function metric(name: string, type: 'counter' | 'gauge', value: number, help?: string): string {
  const lines = help ? [`# HELP ${name} ${help}`] : [];
  return [...lines, `# TYPE ${name} ${type}`, `${name} ${value}`].join('\n');
}

/**
 * What authentication each API really does, for the start-up banner and /readyz: GraphQL and
 * REST token mode verify berth tokens; REST noauth2 trusts the X-Auth-Token header (Placement's
 * test mode) whatever BERTH_AUTH says.
 */
export function authSummary(config: Config): string {
  const graphql = config.auth
    ? 'on'
    : config.authExplicit
      ? 'OFF (BERTH_AUTH=off: every caller is admin)'
      : 'OFF (embedded default: every caller is admin; BERTH_AUTH=on to enable)';
  const rest =
    config.restAuth === 'noauth2'
      ? 'OFF (BERTH_REST_AUTH=noauth2: X-Auth-Token is trusted unverified, as in Placement tests)'
      : config.auth
        ? 'on (berth tokens in X-Auth-Token)'
        : 'OFF (follows BERTH_AUTH)';
  return `GraphQL ${graphql}; REST ${rest}`;
}

/**
 * Starts everything except the listening socket.
 * @throws when the database cannot be reached or migrated.
 */
export async function createApp(config: Config, log: Logger, o: AppOverrides = {}): Promise<App> {
  let embedded: EmbeddedPg | undefined;
  let dataSource = o.dataSource;
  let listenUrl = o.listenUrl;
  if (!dataSource) {
    let url = config.databaseUrl;
    if (!url) {
      embedded = await startEmbeddedPg(config.dataDir, { maxConnections: config.dbPoolSize + 2 });
      url = embedded.url;
      log.info({ dataDir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
    }
    listenUrl = url;
    dataSource = createDataSource({ url, poolSize: config.dbPoolSize });
    try {
      await dataSource.initialize();
      await dataSource.runMigrations({ transaction: 'each' });
      await seedStandard(dataSource.manager);
    } catch (err) {
      await dataSource.destroy().catch(() => undefined);
      await embedded?.stop().catch(() => undefined);
      throw err;
    }
  }
  const ds = dataSource;
  const cache =
    o.cache ??
    (config.redisUrl
      ? new RedisCache(config.redisUrl, log, '', { commandTimeoutMs: config.redisTimeoutMs })
      : new MemoryCache());
  const bus = new ChangeBus(o.changeChannel);
  const services = createServices(ds, bus, {
    candidateBounds: config.limits.candidates,
    live: config.limits.live,
  });
  const listener: ChangeListener | undefined = listenUrl
    ? startChangeListener(listenUrl, bus, log)
    : undefined;
  const scheduling = createScheduling(config, services, cache, log);
  const tokens = new TokenStore(ds);
  const authenticator = config.auth
    ? new Authenticator(tokens, config.limits.authCacheTtlMs, log)
    : undefined;
  const limiter = new RateLimiter(cache, config.limits.rateLimit, config.limits.rateLimitWindowMs);
  const graphql = createGraphQL({ services, scheduling, log, config, authenticator, limiter });
  const admission = { authenticator, limiter, log };
  const rest = createRestRouter({ services, config, log, authenticator, limiter });

  async function readiness() {
    const checks: Record<string, string> = {};
    let ready = true;
    try {
      const pending = await ds.showMigrations();
      checks.database = pending ? 'migrations pending' : 'ok';
      ready = !pending;
    } catch (err) {
      checks.database = `unreachable: ${(err as Error).message}`;
      ready = false;
    }
    checks.cache = (await cache.healthy())
      ? `${cache.kind} ok`
      : `${cache.kind} down (degraded: uncached)`;
    checks.auth = authSummary(config);
    return { ready, checks };
  }

  function metricsText(): string {
    const c = scheduling.cache.stats;
    const lookups = c.hits + c.misses;
    const idx = services.candidates.stats;
    const ev = scheduling.service.evaluations.stats;
    const cb = scheduling.service.claims.stats;
    return [
      metric('berth_candidate_cache_hits_total', 'counter', c.hits, 'Candidate-set cache hits.'),
      metric(
        'berth_candidate_cache_local_hits_total',
        'counter',
        c.localHits,
        'Hits served by the per-replica layer (same index revision).',
      ),
      metric(
        'berth_candidate_cache_shared_bypassed_total',
        'counter',
        c.sharedBypassed,
        'Misses that skipped the shared layer (it was not paying off).',
      ),
      metric('berth_candidate_cache_misses_total', 'counter', c.misses),
      metric(
        'berth_candidate_cache_hit_ratio',
        'gauge',
        lookups ? c.hits / lookups : 0,
        'Hits / lookups since start.',
      ),
      metric('berth_cache_backend_errors_total', 'counter', cache.stats.errors),
      metric('berth_candidate_index_full_loads_total', 'counter', idx.fullLoads),
      metric('berth_candidate_index_refreshes_total', 'counter', idx.refreshes),
      metric('berth_candidate_index_providers', 'gauge', idx.providers),
      metric(
        'berth_scheduler_evaluations_total',
        'counter',
        ev.computed,
        'Filter/weigher passes run.',
      ),
      metric(
        'berth_scheduler_evaluations_shared_total',
        'counter',
        ev.shared,
        "Requests answered with an identical request's pass.",
      ),
      metric(
        'berth_claim_batches_total',
        'counter',
        cb.batches,
        'Transactions that wrote several scheduler claims.',
      ),
      metric('berth_claim_batched_claims_total', 'counter', cb.batchedClaims),
      '',
    ].join('\n');
  }

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  /** Buffers the body under the size limit (413 otherwise), then hands the request to yoga. */
  function serveGraphQL(req: IncomingMessage, res: ServerResponse, requestId: string): void {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
      graphql(req, res, { requestId });
      return;
    }
    const refuse = (status: number, message: string, code: string, headers = {}) => {
      // The body is never read: close the connection rather than drain it.
      res.setHeader('connection', 'close');
      for (const [k, v] of Object.entries(headers)) {
        res.setHeader(k, v as string);
      }
      send(res, status, { errors: [{ message, extensions: { code } }] });
    };
    const mediaProblem = graphqlMediaTypeProblem(req.headers['content-type']);
    if (mediaProblem) {
      refuse(415, mediaProblem, AUTH_CODES.unsupportedMediaType);
      return;
    }
    // Rate limit and token first: an unauthenticated or throttled caller's body is never read.
    admit(admission, req.headers.authorization, req.socket.remoteAddress ?? 'unknown')
      .then(async (admitted) => {
        if (!admitted.ok) {
          refuse(admitted.status, admitted.message, admitted.code, admitted.headers);
          return;
        }
        const body = await readBodyLimited(req, config.limits.maxBodyBytes);
        // @whatwg-node uses an already-read, non-empty `req.body` instead of the (consumed)
        // stream; a string is handed over as is (a Buffer would be walked key by key). An empty
        // body becomes '{}' so yoga answers "Must provide query string." (400).
        (req as IncomingMessage & { body?: string }).body =
          body.length > 0 ? body.toString('utf8') : '{}';
        graphql(req, res, { requestId, admission: admitted });
      })
      .catch((err: unknown) => {
        const tooLarge = err instanceof BodyTooLargeError;
        refuse(
          tooLarge ? 413 : 400,
          tooLarge ? err.message : 'Could not read the request body.',
          tooLarge ? 'berth.request_too_large' : 'berth.bad_request',
        );
      });
  }

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const requestId = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
    res.setHeader('x-request-id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      log.info(
        {
          requestId,
          method: req.method,
          url: req.url,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      send(res, 200, { status: 'ok' });
      return;
    }
    if (path.startsWith(ASSET_PREFIX) && (req.method === 'GET' || req.method === 'HEAD')) {
      if (!serveGraphiQLAsset(path.slice(ASSET_PREFIX.length), res)) {
        send(res, 404, { error: `No route for ${req.method} ${path}` });
      }
      return;
    }
    if (path === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
      res.end(metricsText());
      return;
    }
    if (path === '/readyz') {
      readiness().then(
        (r) => send(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', ...r }),
        () => send(res, 503, { status: 'not ready' }),
      );
      return;
    }
    if (path === '/graphql' || path?.startsWith('/graphql/')) {
      serveGraphQL(req, res, requestId);
      return;
    }
    // --- REST facade (Placement API) at BERTH_REST_PREFIX; '' serves it at '/' ---
    if (rest.matches(path)) {
      rest.handle(req, res);
      return;
    }
    // --- end REST facade ---
    send(res, 404, { error: `No route for ${req.method} ${path}` });
  }

  return {
    config,
    log,
    dataSource: ds,
    cache,
    services,
    scheduling,
    graphql,
    tokens,
    authenticator,
    handle,
    readiness,
    async close() {
      await listener?.stop();
      await cache.close();
      if (!o.dataSource) {
        await ds.destroy();
      }
      await embedded?.stop();
    },
  };
}
