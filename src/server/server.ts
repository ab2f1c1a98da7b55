// src/server/ is the running `berth serve` process around one app: listening and graceful
// shutdown (this file), the node:cluster primary of --workers N (cluster.ts), the process-level
// guards against stray rejections and exceptions, and the audit trail's retention timer.
//
// Binds the app to a port and shuts down gracefully on SIGTERM/SIGINT: stop accepting, finish
// in-flight requests (bounded by BERTH_SHUTDOWN_TIMEOUT_MS), then close pools.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, createApp, type WorkerIdentity } from '../app/app';
import type { Config } from '../config/config';
import type { Logger } from '../observability/logger';
import { startAuditPrune } from './audit-prune';
import { startCapacitySampler } from './capacity-sampler';
import { collectAfterLoad } from './collect-after-load';

/** A listening server. */
export interface RunningServer {
  readonly app: App;
  readonly server: Server;
  readonly url: string;
  /** Graceful stop (idempotent). */
  stop(): Promise<void>;
}

/** A bound HTTP listener that can drain. */
export interface Listener {
  readonly server: Server;
  readonly url: string;
  /**
   * Stops accepting connections, lets in-flight requests finish (each answered with
   * `connection: close`), closes keep-alive connections as soon as they are idle, and resolves
   * once every connection is closed — or cuts the rest after `shutdownTimeoutMs`.
   */
  drain(): Promise<void>;
}

/** Options of {@link listen}. */
export interface ListenOptions {
  readonly port: number;
  readonly host: string;
  /** Upper bound of {@link Listener.drain}, in milliseconds. */
  readonly shutdownTimeoutMs: number;
}

/** Listens on host:port with `handle`, tracking in-flight requests for a graceful drain. */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  opts: ListenOptions,
): Promise<Listener> {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    if (draining) {
      // A request that arrived on an open keep-alive connection while draining: answer it, then
      // close the connection so that the client sends its next request to another replica.
      res.setHeader('connection', 'close');
    }
    handle(req, res);
  });
  server.keepAliveTimeout = 65000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.address === '::' ? 'localhost' : addr.address}:${addr.port}`;
  return {
    server,
    url,
    async drain() {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests in flight now: their connections close once answered, instead of idling as
      // keep-alive (and taking new requests) until the timeout cuts them mid-request.
      for (const res of inFlight) {
        if (!res.headersSent) {
          res.setHeader('connection', 'close');
        }
      }
      const timer = setTimeout(() => server.closeAllConnections(), opts.shutdownTimeoutMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** Migrate and seed the database first (default true; cluster workers: the primary did). */
  readonly migrate?: boolean;
  /** Set in a cluster worker: every response carries `x-berth-worker: <id>`, /readyz its pid. */
  readonly worker?: WorkerIdentity;
}

/** Creates the app and listens on config.host:config.port. */
export async function startServer(
  config: Config,
  log: Logger,
  opts: StartOptions = {},
): Promise<RunningServer> {
  const app = await createApp(config, log, { migrate: opts.migrate, worker: opts.worker });
  const workerId = opts.worker ? String(opts.worker.id) : undefined;
  // The capacity index is loaded before the port opens: the first candidates answer is then as
  // fast as every other, and a replica behind a load balancer takes traffic only once warm.
  const warm = performance.now();
  try {
    await app.services.candidates.current();
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  const loadedMs = performance.now() - warm;
  const collected = collectAfterLoad();
  log.info(
    {
      ms: Math.round(loadedMs),
      gcMs: collected ? Math.round(performance.now() - warm - loadedMs) : undefined,
      providers: app.services.candidates.stats.providers,
    },
    'capacity index loaded',
  );
  let listener: Listener;
  try {
    const handle = workerId
      ? (req: IncomingMessage, res: ServerResponse) => {
          res.setHeader('x-berth-worker', workerId);
          app.handle(req, res);
        }
      : (req: IncomingMessage, res: ServerResponse) => app.handle(req, res);
    listener = await listen(handle, {
      port: config.port,
      host: config.host,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
    });
  } catch (err) {
    await app.close().catch(() => undefined);
    const code = (err as { code?: string }).code;
    throw code === 'EADDRINUSE'
      ? err
      : new Error(
          `cannot listen on ${config.host}:${config.port} (${code ?? (err as Error).message}); check BERTH_HOST and PORT`,
        );
  }
  const stopPrune = startAuditPrune(app.services.dataSource, config.auditRetentionDays, log);
  const stopSampler = startCapacitySampler(app.services.capacityHistory, log);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      stopPrune();
      await stopSampler();
      log.info('shutting down: no new connections, finishing in-flight requests');
      await listener.drain();
      await app.close();
      log.info('shutdown complete');
    })();
    return stopping;
  };
  return { app, server: listener.server, url: listener.url, stop };
}
