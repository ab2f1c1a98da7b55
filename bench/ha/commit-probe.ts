// A second, finer witness of lost writes: one connection committing single-row inserts through
// HAProxy as fast as it can (a commit every few ms, far more often than a claim), keeping the ids
// PostgreSQL acknowledged. After the phase, every acknowledged id must be in the table: with
// synchronous replication none may be missing; with asynchronous replication the missing ones
// are what a failover lost.
import { Client } from 'pg';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A running probe; `stop()` ends it and counts what the database kept. */
export interface CommitProbe {
  stop(): Promise<{ readonly acknowledged: number; readonly lost: number }>;
}

/** Starts committing into `ha_commit_probe` at `url` (created when missing). */
export async function startCommitProbe(url: string): Promise<CommitProbe> {
  const setup = new Client({ connectionString: url });
  await setup.connect();
  await setup.query('CREATE TABLE IF NOT EXISTS ha_commit_probe (id bigint PRIMARY KEY)');
  const { rows } = await setup.query<{ n: string }>(
    'SELECT coalesce(max(id), 0) AS n FROM ha_commit_probe',
  );
  await setup.end();
  let next = Number(rows[0]?.n ?? 0) + 1;
  const acked: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const c = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      c.on('error', () => undefined);
      try {
        await c.connect();
        await c.query('SET statement_timeout = 2000');
        while (running) {
          const id = next++;
          await c.query('INSERT INTO ha_commit_probe (id) VALUES ($1)', [id]);
          acked.push(id);
        }
      } catch {
        await sleep(50);
      } finally {
        await c.end().catch(() => undefined);
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const check = new Client({ connectionString: url });
      await check.connect();
      try {
        const r = await check.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM ha_commit_probe WHERE id = ANY($1::bigint[])',
          [acked],
        );
        return { acknowledged: acked.length, lost: acked.length - (r.rows[0]?.n ?? 0) };
      } finally {
        await check.end();
      }
    },
  };
}
