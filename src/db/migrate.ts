// Applying migrations once, however many replicas start together. `berth serve` migrates on
// start, and replicas of one deployment usually start at the same moment: without a lock two of
// them can both find a migration pending and both run it (one then fails on "already exists").
// A session advisory lock, taken on the very connection that then runs the migrations, makes
// them queue: the first applies what is pending, the others find nothing left to do. The key is
// per schema (tests run one schema per worker in one database).
import { type DataSource, type Migration, MigrationExecutor } from 'typeorm';

/**
 * Applies pending migrations, each in its own transaction, under the migration lock.
 * @returns the migrations applied (empty when another replica already did).
 */
export async function migrateDatabase(ds: DataSource): Promise<Migration[]> {
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SELECT pg_advisory_lock(hashtext('berth:migrate:' || current_schema()))`);
    try {
      const executor = new MigrationExecutor(ds, runner);
      executor.transaction = 'each';
      return await executor.executePendingMigrations();
    } finally {
      await runner.query(
        `SELECT pg_advisory_unlock(hashtext('berth:migrate:' || current_schema()))`,
      );
    }
  } finally {
    await runner.release();
  }
}
