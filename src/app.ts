// The application: database (real or embedded), migrations, cache, services and HTTP routes.
// Everything the server and the tests need, with one close() that releases it all.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DataSource } from 'typeorm';
import type { Cache } from './cache/cache';
import { MemoryCache } from './cache/memory-cache';
import { RedisCache } from './cache/redis-cache';
import type { Config } from './config';
import { type ChangeListener, startChangeListener } from './db/change-listener';
import { createDataSource } from './db/data-source';
import { type EmbeddedPg, startEmbeddedPg } from './db/embedded-pg';
import { seedStandard } from './db/seed';
import type { Logger } from './logger';
import { ChangeBus } from './placement/change-bus';
import { createServices, type Services } from './services';
import { createGraphQL } from './yoga';

/** A running berth application (not yet bound to a port). */
export interface App {
  readonly config: Config;
  readonly log: Logger;
  readonly dataSource: DataSource;
  readonly cache: Cache;
  readonly services: Services;
  readonly graphql: ReturnType<typeof createGraphQL>;
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
    o.cache ?? (config.redisUrl ? new RedisCache(config.redisUrl, log) : new MemoryCache());
  const bus = new ChangeBus(o.changeChannel);
  const services = createServices(ds, bus);
  const listener: ChangeListener | undefined = listenUrl
    ? startChangeListener(listenUrl, bus, log)
    : undefined;
  const graphql = createGraphQL({ services, log });

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
    checks.auth = config.auth ? 'on' : 'off';
    return { ready, checks };
  }

  function send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
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
    if (path === '/readyz') {
      readiness().then(
        (r) => send(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', ...r }),
        () => send(res, 503, { status: 'not ready' }),
      );
      return;
    }
    if (path === '/graphql' || path?.startsWith('/graphql/')) {
      graphql(req, res, { requestId });
      return;
    }
    send(res, 404, { error: `No route for ${req.method} ${path}` });
  }

  return {
    config,
    log,
    dataSource: ds,
    cache,
    services,
    graphql,
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
