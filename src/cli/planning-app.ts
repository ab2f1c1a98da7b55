// The in-process app the planning commands (`berth headroom`, `simulate`, `drain-plan`) run on:
// berth's database (migrated), the capacity index and the scheduler as `berth serve` builds
// them, without listening. A refused input prints `berth: <message>` and exits 1.
import type { App } from '../app/app';
import { migrateDatabase } from '../db/migrate';
import { escapeForTerminal } from '../lib/text-table';
import { createLogger } from '../observability/logger';
import { isPlacementError } from '../placement/errors';
import { type CliDatabase, openDatabase } from './database';
import { configOrExit, exitWithStartupError } from './errors';

/**
 * Runs `fn` on the app; its result (if a number) is the exit status. Placement errors and those
 * `userError` accepts are the caller's (exit 1); anything else is thrown.
 */
export async function withPlanningApp(
  fn: (app: App) => Promise<unknown>,
  userError: (err: unknown) => boolean = () => false,
): Promise<void> {
  const config = configOrExit();
  let db: CliDatabase;
  let app: App;
  try {
    db = await openDatabase(config);
    await migrateDatabase(db.dataSource);
    // Loaded here, not at start-up: `berth serve` must load GraphQL after tracing patches it.
    const { createApp }: typeof import('../app/app') = require('../app/app');
    app = await createApp(config, createLogger('silent'), {
      dataSource: db.dataSource,
      migrate: false,
    });
  } catch (err) {
    exitWithStartupError(err);
  }
  try {
    const status = await fn(app);
    if (typeof status === 'number') {
      process.exitCode = status;
    }
  } catch (err) {
    if (!isPlacementError(err) && !userError(err)) {
      throw err;
    }
    process.stderr.write(`berth: ${escapeForTerminal((err as Error).message)}\n`);
    process.exitCode = 1;
  } finally {
    await app.close();
    await db.close();
  }
}
