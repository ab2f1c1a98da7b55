// src/app/ is the composition root, where the layers are wired together and nothing else
// happens: the domain services over one DataSource (services.ts), the scheduler and its reload
// (scheduling.ts), and this file, which builds one app.
//
// The composition root: database (real or embedded), migrations, cache, services, GraphQL, REST
// and the HTTP routes (src/http/), wired once; one close() releases it all.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DataSource } from 'typeorm';
import { Authenticator, type TokenVerifier } from '../auth/authenticator';
import { KeystoneClient } from '../auth/keystone';
import { KeystoneAuthenticator } from '../auth/keystone-cache';
import { RateLimiter } from '../auth/rate-limiter';
import { TokenStore } from '../auth/token-store';
import type { Cache } from '../cache/cache';
import { MemoryCache } from '../cache/memory-cache';
import type * as RedisCacheModule from '../cache/redis-cache';
import type { Config } from '../config/config';
import { type ChangeListener, startChangeListener } from '../db/change-listener';
import { openServerDatabase } from '../db/open';
import { createGraphQL } from '../graphql/yoga';
import { type Readiness, readiness } from '../http/readiness';
import { createRequestHandler } from '../http/router';
import { createAppMetrics } from '../observability/app-metrics';
import type { Logger } from '../observability/logger';
import { ChangeBus } from '../placement/change-bus';
import { createRestRouter } from '../rest/router';
import { createScheduling, type Scheduling } from './scheduling';
import { createServices, type Services } from './services';

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
  /** What admits requests: `authenticator`, or with BERTH_AUTH=keystone the Keystone verifier. */
  readonly verifier: TokenVerifier | undefined;
  /** Node request listener serving every route. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Readiness: database reachable and migrated; cache state reported as detail. */
  readiness(): Promise<Readiness>;
  close(): Promise<void>;
}

/** One worker of `berth serve --workers N` (src/server/cluster.ts). */
export interface WorkerIdentity {
  /** node:cluster worker id (1, 2, …; a restarted worker gets a new one). */
  readonly id: number;
  readonly pid: number;
}

/**
 * Options: a cluster worker's identity and whether to migrate; for tests, an already-initialised
 * DataSource and cache.
 */
export interface AppOverrides {
  /** Migrate and seed the database first (default true; cluster workers: the primary did). */
  readonly migrate?: boolean;
  /** Set in a cluster worker: /readyz then names it (`worker: { id, pid }`). */
  readonly worker?: WorkerIdentity;
  readonly dataSource?: DataSource;
  readonly cache?: Cache;
  /** NOTIFY channel for changes (tests use one per schema). */
  readonly changeChannel?: string;
  /** URL to LISTEN on when a DataSource is given (otherwise no listener is started). */
  readonly listenUrl?: string;
  /** false: no histograms or spans on the hot paths (the bench's baseline); default true. */
  readonly instrument?: boolean;
}

/**
 * Starts everything except the listening socket.
 * @throws when the database cannot be reached or migrated.
 */
export async function createApp(config: Config, log: Logger, o: AppOverrides = {}): Promise<App> {
  const opened = o.dataSource
    ? { dataSource: o.dataSource, url: o.listenUrl, embedded: undefined }
    : await openServerDatabase(config, log, { migrate: o.migrate ?? true });
  const { embedded, url: listenUrl } = opened;
  const ds = opened.dataSource;
  const cache =
    o.cache ??
    (config.redisUrl ? redisCache(config.redisUrl, log, config.redisTimeoutMs) : new MemoryCache());
  const metrics = createAppMetrics({
    restPrefix: config.restPrefix,
    instrument: o.instrument,
    operationNames: config.metricsOperationNames,
  });
  metrics.observePool(ds);
  const bus = new ChangeBus(o.changeChannel);
  const services = createServices(ds, bus, {
    candidateBounds: config.limits.candidates,
    live: config.limits.live,
    groupCommit: config.scheduler.claimBatch,
    capacityHistory: {
      intervalSeconds: config.capacity.historyIntervalSeconds,
      retentionSeconds: config.capacity.historyRetentionSeconds,
    },
  });
  const listener: ChangeListener | undefined = listenUrl
    ? startChangeListener(listenUrl, bus, log)
    : undefined;
  const scheduling = createScheduling(config, services, cache, log, metrics);
  const tokens = new TokenStore(ds);
  const authenticator = config.auth
    ? new Authenticator(tokens, config.limits.authCacheTtlMs, log)
    : undefined;
  // BERTH_AUTH=keystone: Keystone tokens, and berth API tokens (`berth_…`) as before.
  const ks = config.keystone;
  const keystone = ks ? new KeystoneClient(ks, log) : undefined;
  const verifier: TokenVerifier | undefined =
    ks && keystone
      ? new KeystoneAuthenticator(keystone, cache, ks.cacheTtlMs, authenticator, log)
      : authenticator;
  metrics.readStats({ scheduling, services, cache, keystone });
  metrics.readCapacity(services, config.capacity.metricsAggregates);
  const limiter = new RateLimiter(cache, config.limits.rateLimits);
  const graphql = createGraphQL({
    services,
    scheduling,
    log,
    config,
    authenticator: verifier,
    limiter,
    plugins: metrics.graphqlPlugins,
  });
  const admission = { authenticator: verifier, limiter, log };
  const rest = createRestRouter({ services, config, log, authenticator: verifier, limiter });

  const ready = async () => {
    const r = await readiness({ dataSource: ds, cache, config, listener });
    // /readyz is answered by whichever worker the connection landed on: say which.
    return o.worker ? { ...r, worker: o.worker } : r;
  };
  metrics.readReadiness(ready);
  const handle = createRequestHandler({
    config,
    log,
    admission,
    graphql,
    rest,
    metrics,
    readiness: ready,
  });

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
    verifier,
    handle,
    readiness: ready,
    async close() {
      metrics.close();
      await listener?.stop();
      await scheduling.close();
      await cache.close();
      if (!o.dataSource) {
        await ds.destroy();
      }
      await embedded?.stop();
    },
  };
}

/**
 * The Redis cache, its module (and ioredis, ~170 ms to load) required only when REDIS_URL is set:
 * a server, CLI command or test without Redis does not pay for it.
 */
function redisCache(url: string, log: Logger, commandTimeoutMs: number): Cache {
  const { RedisCache }: typeof RedisCacheModule = require('../cache/redis-cache');
  return new RedisCache(url, log, '', { commandTimeoutMs });
}
