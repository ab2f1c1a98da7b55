// The full load of the capacity index (at start, and when a change could not be applied
// provider by provider): one consistent snapshot, read a range of provider ids at a time so that
// a million providers never hold a million rows' objects at once. On PostgreSQL two connections
// share the snapshot (pg_export_snapshot): the database reads the next range while this process
// indexes the current one. Where a snapshot cannot be shared (embedded PGlite), one connection
// reads every range in turn.
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { type IdRange, loadCatalogs, rowsIn } from './candidate-rows';
import { CapacityIndex } from './capacity-index';
import type { IndexRows } from './index-rows';

/** How many providers the full load reads and indexes at a time. */
const LOAD_CHUNK = 20_000;
const MAX_ID = 2147483647;

/** Transactions reading one REPEATABLE READ snapshot: the first exported it to the others. */
async function snapshotReaders(ds: DataSource, want: number): Promise<QueryRunner[]> {
  const readers: QueryRunner[] = [];
  const open = async () => {
    const qr = ds.createQueryRunner();
    readers.push(qr);
    await qr.connect();
    await qr.startTransaction('REPEATABLE READ');
    return qr;
  };
  const first = await open();
  if (want < 2) {
    return readers;
  }
  // PGlite is one session however many connections it accepts: a second transaction would wait
  // for the first to end.
  const [{ v }] = (await first.query('SELECT version() AS v')) as { v: string }[];
  if (v.includes('PGlite')) {
    return readers;
  }
  try {
    const [{ s }] = (await first.query('SELECT pg_export_snapshot() AS s')) as { s: string }[];
    for (let i = 1; i < want; i++) {
      const qr = await open();
      await qr.query(`SET TRANSACTION SNAPSHOT '${s.replace(/'/g, "''")}'`);
    }
  } catch {
    // No shared snapshots here: read with the first transaction alone.
    for (const qr of readers.splice(1)) {
      await closeReader(qr);
    }
  }
  return readers;
}

async function closeReader(qr: QueryRunner): Promise<void> {
  try {
    if (qr.isTransactionActive) {
      await qr.rollbackTransaction();
    }
  } finally {
    await qr.release();
  }
}

/** Ranges of about `chunk` provider ids covering every provider (the last one open-ended). */
async function chunkRanges(em: EntityManager, chunk: number): Promise<IdRange[]> {
  const ends: { id: number }[] = await em.query(
    `SELECT id FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM resource_providers) x
     WHERE n % $1 = 0 ORDER BY id`,
    [chunk],
  );
  const ranges: IdRange[] = [];
  let from = 0;
  for (const { id } of ends) {
    ranges.push({ from, to: id });
    from = id + 1;
  }
  ranges.push({ from, to: MAX_ID });
  return ranges;
}

/**
 * The whole capacity index from one snapshot. A provider whose parent has a higher id
 * (re-parented after creation) is indexed as a root first and moved under its parent at the end.
 */
export async function loadCapacityIndex(
  ds: DataSource,
  chunk = LOAD_CHUNK,
): Promise<CapacityIndex> {
  const pool = (ds.options as { extra?: { max?: number } }).extra?.max ?? 10;
  const readers = await snapshotReaders(ds, pool >= 3 ? 2 : 1);
  try {
    const first = readers[0]!.manager;
    const index = CapacityIndex.withCatalogs(await loadCatalogs(first));
    const ranges = await chunkRanges(first, chunk);
    const reads: Promise<IndexRows>[] = [];
    const read = (i: number) => {
      const p = rowsIn(readers[i % readers.length]!.manager, ranges[i]);
      p.catch(() => undefined); // awaited below, in order; never an unhandled rejection
      reads[i] = p;
    };
    for (let i = 0; i < Math.min(readers.length, ranges.length); i++) {
      read(i);
    }
    const later: { id: number; parentId: number }[] = [];
    for (let i = 0; i < ranges.length; i++) {
      const rows = await reads[i]!;
      delete reads[i];
      if (i + readers.length < ranges.length) {
        read(i + readers.length);
      }
      const chunkIds = new Set(rows.providers.map((p) => p.id));
      const providers = rows.providers.map((p) => {
        if (p.parentId === null || chunkIds.has(p.parentId) || index.slotOfId(p.parentId) >= 0) {
          return p;
        }
        later.push({ id: p.id, parentId: p.parentId });
        return { ...p, parentId: null };
      });
      index.addRows({ ...rows, providers });
    }
    for (const { id, parentId } of later) {
      index.reparentProvider(id, parentId);
    }
    // Chunk by chunk the columns grew with room to spare; size them to what was loaded.
    index.inventories.compact();
    return index;
  } finally {
    for (const qr of readers) {
      await closeReader(qr);
    }
  }
}
