// Jest globalSetup for the integration project: uses DATABASE_URL when set (CI: real PostgreSQL),
// else starts embedded PGlite in memory (fresh machine). Workers get the URL via the environment.
import { startEmbeddedPg } from '../../src/db/embedded-pg';
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
  if (globalConfig.maxWorkers > 1) {
    // PGlite is one database session: two test files at once would switch each other's
    // search_path (each file has its own schema). npm test runs two workers only with DATABASE_URL.
    throw new Error(
      `embedded PGlite serves one test file at a time: run jest with --maxWorkers=1 (got ${globalConfig.maxWorkers}) or set DATABASE_URL`,
    );
  }
  const pg = await startEmbeddedPg('memory://', { maxConnections: 64 });
  process.env.BERTH_TEST_DATABASE_URL = pg.url;
  process.env.BERTH_TEST_EMBEDDED = '1';
  globalThis.__berthEmbeddedStop = () => pg.stop();
  process.stdout.write(
    '\n[berth tests] DATABASE_URL unset: using embedded PGlite (tests needing real PostgreSQL concurrency are skipped)\n',
  );
}
