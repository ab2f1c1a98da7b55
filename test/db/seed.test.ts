// db reset empties everything and leaves exactly the standard classes and traits.
import { resetDatabase, STANDARD_RESOURCE_CLASSES, STANDARD_TRAITS } from '../../src/db/seed';
import { createTestDb, type TestDb } from '../support/db';

describe('db reset', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('seeds the 21 standard resource classes in os-resource-classes order', async () => {
    await db.dataSource.query(`INSERT INTO resource_classes (name) VALUES ('CUSTOM_GONE')`);
    await db.dataSource.transaction((em) => resetDatabase(em));
    const rows: { id: number; name: string }[] = await db.dataSource.query(
      'SELECT id, name FROM resource_classes ORDER BY id',
    );
    expect(STANDARD_RESOURCE_CLASSES).toHaveLength(21);
    expect(rows.map((r) => r.name)).toEqual(STANDARD_RESOURCE_CLASSES);
    expect(rows[0]).toEqual({ id: 1, name: 'VCPU' });
  });

  it('seeds every standard os-traits trait and no custom one', async () => {
    await db.dataSource.query(`INSERT INTO traits (name) VALUES ('CUSTOM_GONE')`);
    await db.dataSource.transaction((em) => resetDatabase(em));
    const rows: { name: string }[] = await db.dataSource.query(
      'SELECT name FROM traits ORDER BY name',
    );
    expect(STANDARD_TRAITS.length).toBe(345);
    expect(rows.map((r) => r.name)).toEqual([...STANDARD_TRAITS].sort());
    expect(rows.map((r) => r.name)).toContain('MISC_SHARES_VIA_AGGREGATE');
    expect(rows.map((r) => r.name)).toContain('COMPUTE_STATUS_DISABLED');
  });

  it('empties providers, consumers and aggregates', async () => {
    await db.dataSource.query(
      `INSERT INTO placement_aggregates (uuid) VALUES ('5ee1d1ad-0000-4000-8000-000000000001')`,
    );
    await db.dataSource.transaction((em) => resetDatabase(em));
    const [{ n }] = await db.dataSource.query('SELECT count(*) AS n FROM placement_aggregates');
    expect(n).toBe(0);
  });
});
