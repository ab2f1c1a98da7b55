// The HA test's database: migrated, seeded with the soak's flat hosts, and a scheduler token for
// the claimers (SOAK_TOKEN, which the soak's client sends).
import { TokenStore } from '../../src/auth/token-store';
import { createDataSource } from '../../src/db/data-source';
import { seedStandard } from '../../src/db/seed';
import { seedSoak } from '../soak/dataset';

/** Migrates and seeds `hosts` hosts at `url`; sets SOAK_TOKEN; returns the host uuids. */
export async function seedHa(url: string, hosts: number): Promise<string[]> {
  const ds = createDataSource({ url, poolSize: 2 });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
    await seedStandard(ds.manager);
    const seeded = await seedSoak(ds, hosts);
    const { token } = await new TokenStore(ds).create({ role: 'scheduler', name: 'ha-test' });
    process.env.SOAK_TOKEN = token;
    return seeded;
  } finally {
    await ds.destroy();
  }
}
