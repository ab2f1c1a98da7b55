// Binds the app to a port and shuts down gracefully on SIGTERM/SIGINT: stop accepting, finish
// in-flight requests (bounded by BERTH_SHUTDOWN_TIMEOUT_MS), then close pools.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type App, createApp } from './app';
import type { Config } from './config';
import type { Logger } from './logger';

/** A listening server. */
export interface RunningServer {
  readonly app: App;
  readonly server: Server;
  readonly url: string;
  /** Graceful stop (idempotent). */
  stop(): Promise<void>;
}

/** Creates the app and listens on config.host:config.port. */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const app = await createApp(config, log);
  const server = createServer((req, res) => app.handle(req, res));
  server.keepAliveTimeout = 65000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.address === '::' ? 'localhost' : addr.address}:${addr.port}`;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      log.info('shutting down: no new connections, finishing in-flight requests');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await closed;
      clearTimeout(timer);
      await app.close();
      log.info('shutdown complete');
    })();
    return stopping;
  };
  return { app, server, url, stop };
}
