// Starting the embedded database before the server's modules load: `berth serve` (and `npm start`)
// spend about a second requiring the app, and PGlite half a second of wasm in its thread (plus a
// few tenths unpacking the prebuilt database into a fresh data directory); begun first, the two
// overlap. Light on purpose: it loads PGlite's thread starter and nothing of TypeORM (the
// migrations and the prebuilt database's manifest are read only when the data directory is
// empty). src/db/open.ts takes what was started here.
import path from 'node:path';
import type { Config } from '../config/config';
import type { Logger } from '../observability/logger';
import { unpackArchive } from './embedded-archive';
import { type EmbeddedPg, startEmbeddedPg } from './embedded-pg';
import type * as Prebuilt from './embedded-prebuilt';
import type * as Template from './embedded-template';

/** Embedded databases started by {@link startEmbeddedEarly}, by data directory, until taken. */
const startedEarly = new Map<string, Promise<EmbeddedPg>>();

/** The server's pool size, and the connections its embedded database must accept. */
export function serverPool(config: Pick<Config, 'dbPoolSize'>) {
  return { poolSize: config.dbPoolSize, maxConnections: config.dbPoolSize + 2 };
}

/**
 * The prebuilt database's archive for a fresh data directory (src/db/embedded-prebuilt.ts,
 * required only then), or undefined when it does not fit this berth (logged: the start then
 * takes the template's seconds).
 */
function prebuiltFor(log: Pick<Logger, 'warn' | 'info'>): () => string | undefined {
  return () => {
    const prebuilt: typeof Prebuilt = require('./embedded-prebuilt');
    const choice = prebuilt.choosePrebuilt();
    if ('unusable' in choice) {
      const say = choice.unusable.endsWith('=off') ? log.info : log.warn;
      say.call(
        log,
        { reason: choice.unusable },
        'embedded PostgreSQL: not using the prebuilt database; a fresh one comes from the template cache',
      );
      return undefined;
    }
    if (choice.pending > 0) {
      log.info(
        { pending: choice.pending },
        'embedded PostgreSQL: the prebuilt database lacks the newest migrations; they are applied at start',
      );
    }
    return choice.archive;
  };
}

/**
 * Fills a fresh embedded data directory from the migrated template (src/db/embedded-template.ts,
 * required only then); with BERTH_TEMPLATE_CACHE=off it leaves the directory to PGlite.
 */
async function fromTemplate(log: Pick<Logger, 'warn'>, pgdata: string): Promise<void> {
  const template: typeof Template = require('./embedded-template');
  const cache = template.templateCacheDir();
  if (cache) {
    await template.initialiseFromTemplate(cache, (err) =>
      log.warn({ err, cache }, 'embedded PostgreSQL: no template; creating the database'),
    )(pgdata);
  }
}

/**
 * Fills a fresh embedded data directory in this thread: unpacked from the prebuilt database when
 * it fits this berth, else from the migrated template.
 */
export function templateFor(log: Pick<Logger, 'warn' | 'info'>): (pgdata: string) => Promise<void> {
  const prebuilt = prebuiltFor(log);
  return async (pgdata) => {
    const archive = prebuilt();
    if (archive) {
      unpackArchive(archive, pgdata);
      return;
    }
    await fromTemplate(log, pgdata);
  };
}

/**
 * Starts the embedded database of `config` (none with DATABASE_URL) for {@link takeEarly}: called
 * by `berth serve` before it loads the server's modules, so PGlite opens in its thread meanwhile.
 * A second call for the same directory does nothing. A failure surfaces where it is taken.
 */
export function startEmbeddedEarly(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'dbPoolSize'>,
  log: Pick<Logger, 'warn' | 'info'>,
): void {
  const dir = path.resolve(config.dataDir);
  if (config.databaseUrl || startedEarly.has(dir)) {
    return;
  }
  // The prebuilt database is unpacked by the database's thread, which starts before this returns.
  const started = startEmbeddedPg(config.dataDir, {
    maxConnections: serverPool(config).maxConnections,
    prebuilt: prebuiltFor(log),
    initialise: (pgdata) => fromTemplate(log, pgdata),
  });
  started.then(
    (pg) => log.info({ ...pg.boot }, 'embedded PostgreSQL (PGlite) serving'),
    () => undefined,
  );
  startedEarly.set(dir, started);
}

/** The embedded database started early in `dataDir`, once (undefined when none was). */
export function takeEarly(dataDir: string): Promise<EmbeddedPg> | undefined {
  const dir = path.resolve(dataDir);
  const early = startedEarly.get(dir);
  startedEarly.delete(dir);
  return early;
}
