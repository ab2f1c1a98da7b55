// Migration from the real OpenStack Placement 8.0: Placement (test/placement-ref/start.sh, on
// PostgreSQL and on MariaDB) is filled through its own REST API (test/support/placement-fill.ts),
// `berth import placement --from <its database>` (the real CLI) copies it into a fresh berth
// schema, and the same GETs to Placement and to berth's REST facade must give the same JSON
// (test/support/placement-compare.ts lists them and the normalisations).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createApp } from '../../src/app/app';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/observability/logger';
import { createTestCache } from '../support/app';
import { createTestDb, type TestDb, testDatabaseUrl } from '../support/db';
import { compareProbes, describeDifferences, migrationProbes } from '../support/placement-compare';
import { type Filled, fillPlacement, placementCaller } from '../support/placement-fill';
import {
  dropPlacementDb,
  placementDb,
  placementMissing,
  type RunningPlacement,
  startPlacement,
} from '../support/placement-ref';
import { type RestClient, restClient } from '../support/rest';

const missing = placementMissing();
if (missing) console.warn(`SKIPPED test/api/placement-migration.test.ts: ${missing}`);
const maybe = missing ? describe.skip : describe;
const root = path.resolve(__dirname, '../..');
jest.setTimeout(180_000);

/** `berth import placement --from <source>` into `schema` of the test database (the real CLI). */
function importPlacement(source: string, schema: string): { status: number; out: string } {
  const url = new URL(testDatabaseUrl());
  url.searchParams.set('options', `-c search_path=${schema}`);
  const res = spawnSync(
    process.execPath,
    [
      '-r',
      path.join(root, 'test/support/swc-register.cjs'),
      'src/cli/main.ts',
      'import',
      'placement',
      '--from',
      source,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: url.toString(), LOG_LEVEL: 'warn' },
    },
  );
  return { status: res.status ?? -1, out: `${res.stdout}\n${res.stderr}` };
}

// MariaDB is probed once by the jest global setup (test/setup/global-setup.ts).
const mariadbProblem = process.env.BERTH_TEST_MARIADB_PROBLEM || undefined;
if (!missing && mariadbProblem) {
  console.warn(`SKIPPED Placement on MariaDB: ${mariadbProblem}`);
}

for (const kind of ['postgres', 'mariadb'] as const) {
  const suite = kind === 'mariadb' && mariadbProblem ? describe.skip : maybe;
  suite(`Placement 8.0 on ${kind} → berth import placement → identical GETs`, () => {
    let placement: RunningPlacement | undefined;
    let filled: Filled;
    let db: TestDb | undefined;
    let rest: RestClient | undefined;
    let close: (() => Promise<void>) | undefined;
    const dbName = `berth_pmig_${process.pid}_${kind}_a`;

    beforeAll(async () => {
      const started = await startPlacement(placementDb(kind, dbName));
      if ('skip' in started) {
        // Placement is installed (checked above): a missing database server is a failure here.
        throw new Error(`Placement on ${kind} did not start: ${started.skip}`);
      }
      placement = started;
      filled = await fillPlacement(placementCaller(placement.url));
      db = await createTestDb();
    });
    afterAll(async () => {
      await rest?.close();
      await close?.();
      await Promise.all([db?.drop(), placement?.stop()]);
      await dropPlacementDb(kind, dbName);
    });

    it('imports the Placement database and answers every GET as Placement does', async () => {
      if (!placement || !db) {
        throw new Error('Placement or the berth database did not start (see beforeAll)');
      }
      const imported = importPlacement(placementDb(kind, dbName).plain, db.schema);
      if (imported.status !== 0) {
        throw new Error(`berth import placement exited ${imported.status}:\n${imported.out}`);
      }
      const app = await createApp(
        loadConfig({
          NODE_ENV: 'test',
          BERTH_AUTH: 'off',
          BERTH_RATE_LIMIT: '0',
          BERTH_REST_AUTH: 'noauth2',
        }),
        createLogger('silent'),
        {
          dataSource: db.dataSource,
          cache: createTestCache(),
          changeChannel: `berth_changes_${db.schema}`,
          listenUrl: testDatabaseUrl(),
        },
      );
      close = () => app.close();
      rest = await restClient(app);
      const probes = migrationProbes(filled, { typedUsages: kind === 'mariadb' });
      const diffs = await compareProbes(
        placementCaller(placement.url),
        placementCaller(rest.base),
        probes,
      );
      if (diffs.length > 0) {
        throw new Error(
          `${diffs.length} of ${probes.length} GETs differ after the import:\n${describeDifferences(diffs, ['placement', 'berth'])}`,
        );
      }
    });
  });
}
