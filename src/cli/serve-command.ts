// `berth serve [--workers N]`: serves in this process (N = 1, always so on the embedded database),
// or becomes the node:cluster primary of N workers (src/server/cluster.ts), each of which serves as
// one process does. The start banner is printed once, by the process that was started.
import type { Command } from 'commander';
import type { WorkerIdentity } from '../app/app';
import type { Config } from '../config/config';
import { startEmbeddedEarly } from '../db/embedded-early';
import { prepareServerDatabase } from '../db/open';
import { CONSOLE_PREFIX } from '../http/console-assets';
import { authSummary } from '../http/readiness';
import { BERTH_VERSION } from '../lib/version';
import { createLogger, type Logger } from '../observability/logger';
import { startTracing } from '../observability/tracing';
import {
  announceListening,
  clusterWorker,
  planWorkers,
  reportStartFailure,
  superviseWorkers,
  type WorkerPlan,
} from '../server/cluster';
import type { RunningServer } from '../server/server';
import { advertiseEmbedded } from './database';
import { configOrExit, describeStartupError, exitWithStartupError } from './errors';
import { servingHeld } from './serve-early';

/** The start banner (and the auth warning): once per `berth serve`, whatever the worker count. */
function announce(cfg: Config, log: Logger, url: string, plan: WorkerPlan): void {
  const banner = [
    `berth ${BERTH_VERSION} listening on ${url}`,
    `  console: ${url}${CONSOLE_PREFIX}/   GraphiQL: ${url}/graphql (in a browser)`,
    `  GraphQL: ${url}/graphql   Placement REST: ${url}${cfg.restPrefix}/   health: /healthz /readyz`,
    cfg.embedded
      ? `  database: embedded PostgreSQL (PGlite) in ${cfg.dataDir}; set DATABASE_URL for a real server`
      : '  database: DATABASE_URL',
    `  cache: ${cfg.redisUrl ? 'Redis (REDIS_URL)' : 'in-process LRU; set REDIS_URL for Redis'}`,
    `  auth: ${authSummary(cfg)}`,
    `  workers: ${plan.count} (${plan.note})${plan.count > 1 ? '; /readyz answers per worker, /metrics for all of them' : ''}`,
  ];
  process.stdout.write(`${banner.join('\n')}\n`);
  if ((!cfg.auth && cfg.authExplicit) || (cfg.restAuth === 'noauth2' && !cfg.embedded)) {
    log.warn({ auth: authSummary(cfg) }, 'authentication is off for some callers');
  }
}

function embeddedUrlOf(running: RunningServer): string {
  const opts = running.app.dataSource.options as { url?: string };
  return opts.url ?? '';
}

/**
 * Serves in this process until SIGTERM/SIGINT: the whole `berth serve` (`plan` given), or one
 * cluster worker (`worker` given: the primary migrated, prints the banner and is told of
 * failures).
 */
async function serveHere(
  cfg: Config,
  log: Logger,
  who: { readonly plan: WorkerPlan } | { readonly worker: WorkerIdentity },
): Promise<void> {
  const worker = 'worker' in who ? who.worker : undefined;
  // Before the server's modules load: the instrumentations patch them as they are required.
  const tracing = startTracing();
  if (!worker) {
    // Opens in its own thread while the modules below load (one process on the embedded database).
    startEmbeddedEarly(cfg, log);
  }
  // Loaded here, not at the top: a cluster primary never serves, and is ~30 MiB smaller without
  // the app (require: a dynamic import() would be ESM, which ts-node runs of src/ cannot load).
  const { startServer }: typeof import('../server/server') = require('../server/server');
  const {
    installProcessGuards,
  }: typeof import('../server/process-guards') = require('../server/process-guards');
  const { startWatchdog }: typeof import('../lib/watchdog') = require('../lib/watchdog');
  if (!worker) {
    // npm start's console build, which ran beside the loading above (src/cli/serve-early.ts).
    await servingHeld();
  }
  let running: RunningServer;
  try {
    running = await startServer(cfg, log, { migrate: !worker, worker });
  } catch (err) {
    if (worker) {
      reportStartFailure(describeStartupError(err));
      return;
    }
    exitWithStartupError(err);
  }
  let unadvertise = () => {};
  if ('plan' in who) {
    if (cfg.embedded) {
      unadvertise = advertiseEmbedded(cfg.dataDir, embeddedUrlOf(running));
    }
    announce(cfg, log, running.url, who.plan);
  } else {
    announceListening(running.url);
  }
  const shutdown = (signal: string) => {
    log.info({ signal }, 'signal received');
    running.stop().then(
      async () => {
        await tracing?.shutdown().catch(() => {});
        unadvertise();
        process.exit(0);
      },
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  installProcessGuards(log, () => running.stop());
  startWatchdog(cfg.watchdogMs);
  // A worker may get both the terminal's SIGINT and the primary's SIGTERM: stop() is idempotent.
  // A single process keeps its old behaviour: a second signal of the same kind ends it at once.
  const on = worker ? process.on.bind(process) : process.once.bind(process);
  on('SIGTERM', () => shutdown('SIGTERM'));
  on('SIGINT', () => shutdown('SIGINT'));
  // SIGHUP re-reads the scheduler configuration; reload() logs a refused one, which changes nothing.
  process.on('SIGHUP', () => {
    try {
      running.app.scheduling.reload();
    } catch {}
  });
}

/** Adds `serve` to `program`. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the HTTP server (GraphQL at /graphql)')
    .option(
      '--workers <n>',
      'processes serving the port (default: BERTH_WORKERS, else one per core; 1 on the embedded database)',
    )
    .action(async (opts: { workers?: string }) => {
      const cfg = configOrExit();
      const log = createLogger(cfg.logLevel);
      const worker = clusterWorker();
      if (worker) {
        await serveHere(cfg, log.child({ worker: worker.id }), { worker });
        return;
      }
      let plan: WorkerPlan;
      try {
        plan = planWorkers(cfg, opts.workers);
      } catch (err) {
        exitWithStartupError(err);
      }
      if (plan.count === 1) {
        await serveHere(cfg, log, { plan });
        return;
      }
      try {
        // Once, before forking: N workers migrating the same database at once could race.
        await prepareServerDatabase(cfg, log);
      } catch (err) {
        exitWithStartupError(err);
      }
      superviseWorkers({
        count: plan.count,
        log: log.child({ primary: process.pid }),
        shutdownTimeoutMs: cfg.shutdownTimeoutMs,
        onListening: (url) => announce(cfg, log, url, plan),
      });
    });
}
