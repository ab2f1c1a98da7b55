// Planting anomalies with raw SQL for the consistency-check tests, and undoing them: rows deleted
// and re-inserted as they were; foreign keys skipped for one transaction only
// (`SET LOCAL session_replication_role = replica`), no constraint dropped.
import type { DataSource, EntityManager } from 'typeorm';

/** Runs `fn` with foreign-key triggers skipped (this transaction only). */
export function withoutForeignKeys(
  ds: DataSource,
  fn: (em: EntityManager) => Promise<unknown>,
): Promise<void> {
  return ds.transaction(async (em) => {
    await em.query('SET LOCAL session_replication_role = replica');
    await fn(em);
  });
}

/**
 * Deletes rows of `table` matching `where` (at least one must match); the returned undo re-inserts
 * them as they were. `bypass`: with foreign keys skipped.
 */
export async function deleteRowsUndoably(
  ds: DataSource,
  table: string,
  where: string,
  params: unknown[],
  opts: { bypass?: boolean } = {},
): Promise<() => Promise<void>> {
  let saved: unknown[] = [];
  const run = async (em: Pick<EntityManager, 'query'>) => {
    // TypeORM answers a DELETE … RETURNING with [rows, affected].
    const [rows]: [{ r: unknown }[], number] = await em.query(
      `DELETE FROM ${table} t WHERE ${where} RETURNING to_jsonb(t.*) AS r`,
      params,
    );
    saved = rows.map((x) => x.r);
    expect(saved.length).toBeGreaterThan(0);
  };
  await (opts.bypass ? withoutForeignKeys(ds, run) : run(ds));
  return async () => {
    await ds.query(
      `INSERT INTO ${table} SELECT * FROM jsonb_populate_recordset(NULL::${table}, $1)`,
      [JSON.stringify(saved)],
    );
  };
}
