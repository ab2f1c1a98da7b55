// Jest globalSetup for the integration project: uses DATABASE_URL when set (CI: real PostgreSQL),
// else starts embedded PGlite in memory, one per jest worker (fresh machine). Workers get their
// URL via the environment.
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { berthCacheDir, pgliteVersion } from '../../src/db/embedded-template';
import { serveInThread } from '../../src/db/embedded-thread';
import { CHROMIUM, ensureConsoleBuilt } from '../support/console-build';
import { probeMariadb } from '../support/mariadb-probe';

declare global {
  var __berthEmbeddedStop: (() => Promise<void>) | undefined;
}

export default async function globalSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  // The browser tests (test/ui) share one build of the console, made here once.
  if (CHROMIUM) {
    ensureConsoleBuilt();
  } else {
    process.stdout.write(
      '\n[berth tests] chromium not installed: the console browser tests are skipped (apt-get install chromium)\n',
    );
  }
  // The legacy-import tests against MariaDB are skipped (visibly) when it does not answer.
  const mariadb = await probeMariadb();
  process.env.BERTH_TEST_MARIADB_PROBLEM = mariadb ?? '';
  if (mariadb) {
    process.stdout.write(`\n[berth tests] ${mariadb}: the MariaDB import tests are skipped\n`);
  }
  if (process.env.DATABASE_URL) {
    process.env.BERTH_TEST_DATABASE_URL = process.env.DATABASE_URL;
    process.env.BERTH_TEST_EMBEDDED = '';
    return;
  }
  // PGlite is one database session: two test files on one would switch each other's search_path
  // (each file has its own schema). So each jest worker gets a PGlite of its own, each in a
  // thread of its own (they run side by side), reached through BERTH_TEST_DATABASE_URL_<worker>.
  const workers = Math.max(1, globalConfig.maxWorkers);
  const hook = ['--require', path.join(__dirname, '../support/swc-register.cjs')];
  const entry = path.join(__dirname, '../../src/db/embedded-worker.ts');
  const loadDataDir = await initdbDump();
  const servers = await Promise.all(
    Array.from({ length: workers }, () =>
      serveInThread(entry, 'memory://', { port: 0, maxConnections: 64, loadDataDir }, hook),
    ),
  );
  servers.forEach((pg, i) => {
    process.env[`BERTH_TEST_DATABASE_URL_${i + 1}`] = pg.url;
  });
  process.env.BERTH_TEST_DATABASE_URL = servers[0].url;
  process.env.BERTH_TEST_EMBEDDED = '1';
  globalThis.__berthEmbeddedStop = async () => {
    await Promise.all(servers.map((pg) => pg.stop()));
  };
  process.stdout.write(
    `\n[berth tests] DATABASE_URL unset: using embedded PGlite, one per worker (${workers}); tests needing real PostgreSQL concurrency are skipped\n`,
  );
}

/**
 * A freshly created PGlite database, dumped (PGlite's dumpDataDir) into node_modules/.cache/berth
 * once per PGlite version: each worker's in-memory database starts from it instead of running
 * initdb (seconds of wasm each, paid before the first test file could start).
 */
async function initdbDump(): Promise<string> {
  const dir = berthCacheDir();
  const file = path.join(dir, `pglite-initdb-${pgliteVersion()}.tar`);
  if (!existsSync(file)) {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = await PGlite.create();
    const dump = await pg.dumpDataDir('none');
    await pg.close();
    mkdirSync(dir, { recursive: true });
    const scratch = `${file}.${process.pid}`;
    writeFileSync(scratch, Buffer.from(await dump.arrayBuffer()));
    renameSync(scratch, file);
  }
  return file;
}
