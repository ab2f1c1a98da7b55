// Opens a legacy source by URL scheme: postgres(ql):// -> PostgreSQL, mysql:// or mariadb:// ->
// MySQL/MariaDB (Nova's usual database).
import type { LegacySource, LegacyTableOptions } from './legacy-source';
import { openMysqlSource } from './source-mysql';
import { openPostgresSource } from './source-postgres';

/**
 * Connects to the legacy database at `url`.
 * @throws Error for other schemes, a missing table, or the driver's connection error.
 */
export function openLegacySource(
  url: string,
  opts: LegacyTableOptions = {},
): Promise<LegacySource> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    return openPostgresSource(url, opts);
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    return openMysqlSource(url, opts);
  }
  throw new Error('--from must be a postgres://, postgresql://, mysql:// or mariadb:// URL');
}
