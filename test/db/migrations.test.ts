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

  it('drop server-group memberships of consumers of another project (and keep the rest)', async () => {
    const fresh = await createTestDb({ migrate: false });
    const ds = fresh.dataSource;
    try {
      await ds.runMigrations({ transaction: 'each' });
      const at = ds.migrations.findIndex(
        (m) => m.name === 'ServerGroupMembersOfProject1764500000000',
      );
      for (let i = at; i < ds.migrations.length; i++) {
        await ds.undoLastMigration({ transaction: 'each' });
      }
      const [own, squatted, gone] = [
        '00000000-0000-4000-8000-000000000001',
        '00000000-0000-4000-8000-000000000002',
        '00000000-0000-4000-8000-000000000003',
      ];
      await ds.query(`INSERT INTO projects (external_id) VALUES ('proj-a'), ('proj-b')`);
      await ds.query(`INSERT INTO users (external_id) VALUES ('u')`);
      await ds.query(
        `INSERT INTO consumers (uuid, project_id, user_id)
         SELECT c.uuid::uuid, p.id, u.id FROM (VALUES ($1, 'proj-a'), ($2, 'proj-b')) AS c(uuid, project)
         JOIN projects p ON p.external_id = c.project CROSS JOIN users u`,
        [own, squatted],
      );
      await ds.query(`INSERT INTO server_groups (uuid, name, project_id, user_id, policy)
        VALUES ('00000000-0000-4000-8000-0000000000aa', 'g', 'proj-a', 'u', 'anti-affinity')`);
      await ds.query(
        `INSERT INTO server_group_members (group_id, consumer_uuid)
         SELECT g.id, m.uuid FROM server_groups g, unnest($1::uuid[]) AS m(uuid)`,
        [[own, squatted, gone]],
      );
      await ds.runMigrations({ transaction: 'each' });
      const left: { consumer_uuid: string }[] = await ds.query(
        'SELECT consumer_uuid FROM server_group_members ORDER BY consumer_uuid',
      );
      // Project B's consumer is dropped; A's own and a member without a consumer stay.
      expect(left.map((r) => r.consumer_uuid)).toEqual([own, gone]);
    } finally {
      await fresh.drop();
    }
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
