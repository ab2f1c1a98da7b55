// Where the legacy-import tests find MariaDB, and whether it answers (probed once by the jest
// global setup, which cannot load test-only modules).
import mysql from 'mysql2/promise';

export const MARIADB_URL = process.env.LEGACY_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** Probes MariaDB at MARIADB_URL: undefined when it answers, else why not. */
export async function probeMariadb(): Promise<string | undefined> {
  try {
    const c = await mysql.createConnection({ uri: MARIADB_URL, connectTimeout: 3000 });
    await c.end();
    return undefined;
  } catch (err) {
    return `MariaDB not reachable at ${MARIADB_URL} (${(err as Error).message}); set LEGACY_MYSQL_URL`;
  }
}
