// The `berth` command line: serve, migrate, db reset, token, import, version.
import 'reflect-metadata';
import { Command } from 'commander';
import { ConfigError, loadConfig } from '../config';
import { resetDatabase, seedStandard } from '../db/seed';
import { authSummary } from '../http/readiness';
import { createLogger } from '../logger';
import { installProcessGuards } from '../process-guards';
import { startServer } from '../server';
import { BERTH_VERSION, MAX_MICROVERSION } from '../version';
import { startWatchdog } from '../watchdog';
import { advertiseEmbedded, openDatabase } from './database';
import { describeStartupError } from './errors';
import { registerImportCommand } from './import-command';
import { registerTokenCommand } from './token-command';

function fail(err: unknown): never {
  process.stderr.write(`berth: ${describeStartupError(err)}\n`);
  process.exit(1);
}

function config() {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      fail(err);
    }
    throw err;
  }
}

const program = new Command('berth')
  .description('Resource placement service (OpenStack Placement semantics, GraphQL + REST).')
  .version(BERTH_VERSION, '-V, --version');

program
  .command('serve')
  .description('start the HTTP server (GraphQL at /graphql)')
  .action(async () => {
    const cfg = config();
    const log = createLogger(cfg.logLevel);
    let running: Awaited<ReturnType<typeof startServer>>;
    try {
      running = await startServer(cfg, log);
    } catch (err) {
      fail(err);
    }
    const unadvertise = cfg.embedded
      ? advertiseEmbedded(cfg.dataDir, embeddedUrlOf(running))
      : () => {};
    const banner = [
      `berth ${BERTH_VERSION} listening on ${running.url}`,
      `  GraphQL: ${running.url}/graphql   health: /healthz /readyz`,
      cfg.embedded
        ? `  database: embedded PostgreSQL (PGlite) in ${cfg.dataDir}; set DATABASE_URL for a real server`
        : '  database: DATABASE_URL',
      `  cache: ${cfg.redisUrl ? 'Redis (REDIS_URL)' : 'in-process LRU; set REDIS_URL for Redis'}`,
      `  auth: ${authSummary(cfg)}`,
    ];
    process.stdout.write(`${banner.join('\n')}\n`);
    if ((!cfg.auth && cfg.authExplicit) || (cfg.restAuth === 'noauth2' && !cfg.embedded)) {
      log.warn({ auth: authSummary(cfg) }, 'authentication is off for some callers');
    }
    const shutdown = (signal: string) => {
      log.info({ signal }, 'signal received');
      running.stop().then(
        () => {
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
    process.once('SIGTERM', () => shutdown('SIGTERM'));
    process.once('SIGINT', () => shutdown('SIGINT'));
  });

function embeddedUrlOf(running: Awaited<ReturnType<typeof startServer>>): string {
  const opts = running.app.dataSource.options as { url?: string };
  return opts.url ?? '';
}

program
  .command('migrate')
  .description('apply pending database migrations and seed standard classes and traits')
  .action(async () => {
    const cfg = config();
    let db: Awaited<ReturnType<typeof openDatabase>>;
    try {
      db = await openDatabase(cfg);
    } catch (err) {
      fail(err);
    }
    const applied = await db.dataSource.runMigrations({ transaction: 'each' });
    await seedStandard(db.dataSource.manager);
    process.stdout.write(
      applied.length
        ? `applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}\n`
        : 'database is up to date\n',
    );
    await db.close();
  });

const dbCmd = program.command('db').description('database maintenance');
dbCmd
  .command('reset')
  .description('empty every table and re-seed the standard resource classes and traits')
  .option('--yes', 'confirm: this deletes all data')
  .action(async (opts: { yes?: boolean }) => {
    if (!opts.yes && process.env.NODE_ENV !== 'test') {
      fail(new Error('db reset deletes all data; re-run with --yes to confirm'));
    }
    const cfg = config();
    let db: Awaited<ReturnType<typeof openDatabase>>;
    try {
      db = await openDatabase(cfg);
    } catch (err) {
      fail(err);
    }
    await db.dataSource.runMigrations({ transaction: 'each' });
    await db.dataSource.transaction((em) => resetDatabase(em));
    await db.close();
    process.stdout.write('database reset: standard resource classes and traits seeded\n');
  });

registerImportCommand(program);
registerTokenCommand(program);

program
  .command('version')
  .description('print berth and Placement microversion')
  .action(() => {
    process.stdout.write(`berth ${BERTH_VERSION} (Placement microversion ${MAX_MICROVERSION})\n`);
  });

program.parseAsync(process.argv).catch(fail);
