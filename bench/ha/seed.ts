// The HA test's database: migrated, seeded with the soak's flat hosts, and a scheduler token for
// the claimers (SOAK_TOKEN, which the soak's client sends).
import { TokenStore } from '../../src/auth/token-store';
import { withSeededDatabase } from '../soak/dataset';

/** Migrates and seeds `hosts` hosts at `url`; sets SOAK_TOKEN; returns the host uuids. */
export function seedHa(url: string, hosts: number): Promise<string[]> {
  return withSeededDatabase(url, hosts, async (ds, seeded) => {
    const { token } = await new TokenStore(ds).create({ role: 'scheduler', name: 'ha-test' });
    process.env.SOAK_TOKEN = token;
    return seeded;
  });
}
