// Starting the embedded database before the server's modules load: `berth serve` (and `npm start`)
// spend about a second requiring the app, and PGlite about two seconds of wasm in its thread; begun
// first, the two overlap. Light on purpose: it loads PGlite's thread starter and nothing of
// TypeORM or the migrations (the template that fills a fresh data directory is required only
// when one is empty). src/db/open.ts takes what was started here.
import path from 'node:path';
import type { Config } from '../config/config';
import type { Logger } from '../observability/logger';
import { type EmbeddedPg, startEmbeddedPg } from './embedded-pg';
import type * as Template from './embedded-template';

/** Embedded databases started by {@link startEmbeddedEarly}, by data directory, until taken. */
const startedEarly = new Map<string, Promise<EmbeddedPg>>();

/** The server's pool size, and the connections its embedded database must accept. */
export function serverPool(config: Pick<Config, 'dbPoolSize'>) {
  return { poolSize: config.dbPoolSize, maxConnections: config.dbPoolSize + 2 };
}

/**
 * Fills a fresh embedded data directory from the migrated template (src/db/embedded-template.ts,
 * required only then); with BERTH_TEMPLATE_CACHE=off it leaves the directory to PGlite.
 */
export function templateFor(log: Pick<Logger, 'warn'>): (pgdata: string) => Promise<void> {
  return async (pgdata) => {
    const template: typeof Template = require('./embedded-template');
    const cache = template.templateCacheDir();
    if (cache) {
      await template.initialiseFromTemplate(cache, (err) =>
        log.warn({ err, cache }, 'embedded PostgreSQL: no template; creating the database'),
      )(pgdata);
    }
  };
}

/**
 * Starts the embedded database of `config` (none with DATABASE_URL) for {@link takeEarly}: called
 * by `berth serve` before it loads the server's modules, so PGlite opens in its thread meanwhile.
 * A second call for the same directory does nothing. A failure surfaces where it is taken.
 */
export function startEmbeddedEarly(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'>,
  log: Pick<Logger, 'warn'>,
): void {
  const dir = path.resolve(config.dataDir);
  if (config.databaseUrl || startedEarly.has(dir)) {
    return;
  }
  const started = startEmbeddedPg(config.dataDir, {
    maxConnections: serverPool(config).maxConnections,
    initialise: templateFor(log),
  });
  started.catch(() => undefined);
  startedEarly.set(dir, started);
}

/** The embedded database started early in `dataDir`, once (undefined when none was). */
export function takeEarly(dataDir: string): Promise<EmbeddedPg> | undefined {
  const dir = path.resolve(dataDir);
  const early = startedEarly.get(dir);
  startedEarly.delete(dir);
  return early;
}
