// The soak dataset: bench/seed.ts's flat hosts, shrunk so that 64 clients holding up to 16
// consumers each want more than the cloud has (claims contend for the last units).
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../src/db/data-source';
import { seedStandard } from '../../src/db/seed';
import { seedDataset } from '../seed';

/** Per-host inventory of the soak (allocation ratio 1, nothing reserved). */
export const HOST_INVENTORY = { VCPU: 8, MEMORY_MB: 16384, DISK_GB: 400 } as const;

/** Seeds `hosts` compute hosts into a migrated, empty database; returns their uuids. */
export async function seedSoak(ds: DataSource, hosts: number): Promise<string[]> {
  await seedDataset(ds, { hosts, shape: 'flat' }, 'soak');
  for (const [rc, total] of Object.entries(HOST_INVENTORY)) {
    await ds.query(
      `UPDATE inventories SET total = $2, reserved = 0, max_unit = $2, allocation_ratio = 1
        WHERE resource_class_id = (SELECT id FROM resource_classes WHERE name = $1)`,
      [rc, total],
    );
  }
  const rows: { uuid: string }[] = await ds.query(
    'SELECT uuid FROM resource_providers WHERE parent_provider_id IS NULL ORDER BY id',
  );
  return rows.map((r) => r.uuid);
}

/**
 * Opens the empty database at `url`, migrates it, seeds the standard classes and traits and
 * `hosts` soak hosts, then runs `more` (tokens, ...) before closing it.
 */
export async function withSeededDatabase<T>(
  url: string,
  hosts: number,
  more: (ds: DataSource, hosts: string[]) => Promise<T>,
): Promise<T> {
  const ds = createDataSource({ url, poolSize: 2 });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
    await seedStandard(ds.manager);
    return await more(ds, await seedSoak(ds, hosts));
  } finally {
    await ds.destroy();
  }
}
