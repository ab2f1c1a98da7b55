// When the connection is lost while COMMIT is in flight (the primary was killed or failed over,
// the backend was terminated, a load balancer cut the session), the client cannot tell whether
// the transaction committed. Every domain write transaction inserts a commit marker chosen before
// it started (migrations/1764800000000-CommitMarkers.ts); this module settles the outcome by
// inserting the same marker on a new connection:
// - the insert conflicts: the marker is there, so the transaction committed;
// - the insert succeeds: it did not commit, and never will (a transaction still in flight on a
//   live backend with that marker waits for ours, then fails on the key: it is fenced).
// With synchronous replication, what a promoted standby holds is what was acknowledged, so the
// answer asked of the new primary is the answer that lasts.
import type { DataSource } from 'typeorm';
import { isDatabaseUnavailableError } from './unavailable';

/** What became of a write whose COMMIT got no answer. */
export type CommitOutcome = 'committed' | 'not-committed' | 'unknown';

/** How long and how often to ask. */
export interface ResolveOptions {
  /** Give up after this long (the database still unreachable): the outcome stays unknown. */
  readonly timeoutMs: number;
  /** Wait between attempts. */
  readonly retryMs?: number;
  /** Bound of each attempt on the server (a stuck lock or a hung server). */
  readonly statementTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Settles whether the transaction that inserted `marker` committed: asks until the database
 * answers or `timeoutMs` passes. Errors other than "unreachable" are thrown.
 */
export async function resolveCommit(
  ds: DataSource,
  marker: string,
  o: ResolveOptions,
): Promise<CommitOutcome> {
  const deadline = Date.now() + o.timeoutMs;
  const statementTimeout = Math.max(100, Math.floor(o.statementTimeoutMs ?? 5000));
  for (;;) {
    try {
      const rows: unknown[] = await ds.transaction(async (em) => {
        await em.query(`SET LOCAL statement_timeout = ${statementTimeout}`);
        return em.query(
          `INSERT INTO commit_markers (marker) VALUES ($1::uuid)
           ON CONFLICT (marker) DO NOTHING RETURNING marker`,
          [marker],
        );
      });
      return rows.length === 0 ? 'committed' : 'not-committed';
    } catch (err) {
      // 57014: our own statement timeout (the old transaction still holds the key, or the
      // server hangs); 25006: a standby that is not promoted yet. Both: ask again.
      const code = sqlState(err);
      if (!isDatabaseUnavailableError(err) && code !== '57014' && code !== '25006') {
        throw err;
      }
    }
    if (Date.now() + (o.retryMs ?? 250) >= deadline) {
      return 'unknown';
    }
    await sleep(o.retryMs ?? 250);
  }
}

/** The SQLSTATE of a driver error, or of the one a TypeORM error wraps. */
function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return typeof code === 'string' ? code : undefined;
}

/** Rows older than this are pruned: a write is settled within the resolve timeout. */
const MARKER_RETENTION = '15 minutes';

/** Deletes old commit markers (any replica may; concurrent runs are harmless). */
export async function pruneCommitMarkers(ds: DataSource): Promise<number> {
  const rows: { n: number }[] = await ds.query(
    `WITH gone AS (
       DELETE FROM commit_markers WHERE at < now() - interval '${MARKER_RETENTION}' RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
  );
  return rows[0]?.n ?? 0;
}
