// LISTENs for other replicas' change notifications on a dedicated connection and republishes
// them in-process. A lost connection means notifications may have been missed: listeners are
// told "everything changed" and the connection is re-established with backoff.
import { Client } from 'pg';
import type { Logger } from '../observability/logger';

/** A running listener. */
export interface ChangeListener {
  /** True while the LISTEN connection is up. */
  connected(): boolean;
  stop(): Promise<void>;
}

/**
 * Where heard notifications go (the domain's change bus implements it): the channel to LISTEN on,
 * how a payload decodes, and what to publish ('all' after a reconnect: anything may have changed).
 */
export interface NotificationSink<C> {
  readonly channel: string;
  decode(payload: string): C | undefined | null;
  publish(change: C | { kind: 'all' }, origin: 'remote'): void;
}

/** Starts listening on `bus.channel` over a new connection to `url`. */
export function startChangeListener<C>(
  url: string,
  bus: NotificationSink<C>,
  log: Logger,
): ChangeListener {
  let client: Client | undefined;
  let up = false;
  let stopped = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (stopped) {
      return;
    }
    const c = new Client({
      connectionString: url,
      application_name: 'berth-listener',
      keepAlive: true,
      keepAliveInitialDelayMillis: 10000,
    });
    client = c;
    c.on('notification', (msg) => {
      if (msg.channel !== bus.channel || !msg.payload) {
        return;
      }
      const change = bus.decode(msg.payload);
      if (change) {
        bus.publish(change, 'remote');
      }
    });
    c.on('error', (err) => {
      log.warn({ err: String(err) }, 'change listener connection lost');
      retry();
    });
    c.on('end', () => retry());
    try {
      await c.connect();
      await c.query(`LISTEN "${bus.channel.replace(/"/g, '')}"`);
      up = true;
      if (attempt > 0) {
        log.info('change listener reconnected; reloading the candidate index');
        // Anything committed while we were away was not heard: rebuild.
        bus.publish({ kind: 'all' }, 'remote');
      }
      attempt = 0;
    } catch (err) {
      log.warn({ err: String(err) }, 'change listener cannot connect');
      retry();
    }
  };

  const retry = () => {
    if (stopped || timer) {
      return;
    }
    up = false;
    client?.removeAllListeners();
    client?.end().catch(() => undefined);
    client = undefined;
    attempt++;
    timer = setTimeout(
      () => {
        timer = undefined;
        void connect();
      },
      Math.min(100 * 2 ** attempt, 5000),
    );
    timer.unref();
  };

  void connect();
  return {
    connected: () => up,
    async stop() {
      stopped = true;
      if (timer) {
        clearTimeout(timer);
      }
      const c = client;
      client = undefined;
      c?.removeAllListeners();
      await c?.end().catch(() => undefined);
    },
  };
}
