// Whether the server the pool reaches takes writes: behind a failover-aware proxy (HAProxy over
// Patroni) it can briefly be a standby, or a crashed primary restarting read-only.

import type { DataSource } from 'typeorm';

/** True when new transactions on `ds` are read-only (a standby, or read-only by setting). */
export async function isReadOnly(ds: DataSource): Promise<boolean> {
  const rows: { ro: string }[] = await ds.query(
    "SELECT current_setting('transaction_read_only') AS ro",
  );
  return rows[0]?.ro === 'on';
}
