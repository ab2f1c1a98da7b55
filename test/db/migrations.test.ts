// Migrations apply to an empty schema, revert and re-apply cleanly, and match the entities exactly.
import { createDataSource } from '../../src/db/data-source';
import { migrateDatabase } from '../../src/db/migrate';
import { createTestDb, realPostgresIt, type TestDb, testDatabaseUrl } from '../support/db';

describe('migrations', () => {
  let db: TestDb;

  beforeAll(async () => {
    db = await createTestDb({ migrate: false });
  });
  afterAll(async () => {
    await db.drop();
  });

  it('apply to an empty schema', async () => {
    const applied = await db.dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map((m) => m.name)).toEqual(db.dataSource.migrations.map((m) => m.name));
    const tables: { table_name: string }[] = await db.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1`,
      [db.schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['resource_providers', 'inventories', 'allocations', 'consumers']),
    );
  });

  it('leave no drift between entities and the database', async () => {
    const sql = await db.dataSource.driver.createSchemaBuilder().log();
    expect(sql.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('revert every migration and re-apply', async () => {
    for (let i = 0; i < db.dataSource.migrations.length; i++) {
      await db.dataSource.undoLastMigration({ transaction: 'each' });
    }
    const left: unknown[] = await db.dataSource.query(
      `SELECT table_name FROM information_schema.tables
       WHERE table_schema = $1 AND table_name <> 'berth_migrations'`,
      [db.schema],
    );
    expect(left).toEqual([]);
    await db.dataSource.runMigrations({ transaction: 'each' });
    expect(await db.dataSource.showMigrations()).toBe(false);
    const sql = await db.dataSource.driver.createSchemaBuilder().log();
    expect(sql.upQueries).toEqual([]);
  });

  realPostgresIt('apply once when four replicas start together on a fresh schema', async () => {
    const fresh = await createTestDb({ migrate: false });
    const replicas = Array.from({ length: 4 }, () =>
      createDataSource({ url: testDatabaseUrl(), schema: fresh.schema, poolSize: 2 }),
    );
    try {
      await Promise.all(replicas.map((r) => r.initialize()));
      const applied = await Promise.all(replicas.map((r) => migrateDatabase(r)));
      const names = applied.flat().map((m) => m.name);
      expect(names.sort()).toEqual(fresh.dataSource.migrations.map((m) => m.name).sort());
      expect(await fresh.dataSource.showMigrations()).toBe(false);
    } finally {
      await Promise.all(replicas.map((r) => (r.isInitialized ? r.destroy() : undefined)));
      await fresh.drop();
    }
  });
});
