// The `berth` command line: serve, migrate, db reset, token, import, demo, version.
// First: `berth serve` starts opening the embedded database while the rest loads.
import './serve-early';
import { migrateDatabase } from '../db/migrate';
import 'reflect-metadata';
import { Command } from 'commander';
import { resetDatabase, seedStandard } from '../db/seed';
import { BERTH_VERSION, MAX_MICROVERSION } from '../lib/version';
import { registerAuditCommand } from './audit-command';
import { registerCheckCommand } from './check-command';
import { openDatabase } from './database';
import { registerDemoCommand } from './demo-command';
import { registerDrainPlanCommand } from './drain-plan-command';
import { configOrExit, exitWithStartupError } from './errors';
import { registerExportCommand } from './export-placement-command';
import { registerHeadroomCommand } from './headroom-command';
import { registerImportCommand } from './import-command';
import { registerServeCommand } from './serve-command';
import { registerSimulateCommand } from './simulate-command';
import { registerTokenCommand } from './token-command';

const program = new Command('berth')
  .description('Resource placement service (OpenStack Placement semantics, GraphQL + REST).')
  .version(BERTH_VERSION, '-V, --version');

registerServeCommand(program);

program
  .command('migrate')
  .description('apply pending database migrations and seed standard classes and traits')
  .action(async () => {
    const cfg = configOrExit();
    let db: Awaited<ReturnType<typeof openDatabase>>;
    try {
      db = await openDatabase(cfg);
    } catch (err) {
      exitWithStartupError(err);
    }
    const applied = await migrateDatabase(db.dataSource);
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
      exitWithStartupError(new Error('db reset deletes all data; re-run with --yes to confirm'));
    }
    const cfg = configOrExit();
    let db: Awaited<ReturnType<typeof openDatabase>>;
    try {
      db = await openDatabase(cfg);
    } catch (err) {
      exitWithStartupError(err);
    }
    await migrateDatabase(db.dataSource);
    await db.dataSource.transaction((em) => resetDatabase(em));
    await db.close();
    process.stdout.write('database reset: standard resource classes and traits seeded\n');
  });

registerImportCommand(program);
registerExportCommand(program);
registerTokenCommand(program);
registerCheckCommand(program);
registerAuditCommand(program);
registerDemoCommand(program);
registerHeadroomCommand(program);
registerSimulateCommand(program);
registerDrainPlanCommand(program);

program
  .command('version')
  .description('print berth and Placement microversion')
  .action(() => {
    process.stdout.write(`berth ${BERTH_VERSION} (Placement microversion ${MAX_MICROVERSION})\n`);
  });

program.parseAsync(process.argv).catch(exitWithStartupError);
