// Commit markers: every domain write transaction inserts one row with a marker chosen before it
// starts, in the same statement as its audit event (src/placement/audit.ts). When the connection
// is lost while COMMIT is in flight (a failover, a killed backend), the writer asks a new
// connection to insert the same marker: a conflict proves the write committed; a successful insert
// proves it did not, and fences it (a transaction still in flight with that marker can no longer
// commit). src/db/commit-outcome.ts. Rows are only needed for seconds: they are pruned after
// minutes (BRIN on `at`: appended in time order, cheap to keep). Hand-written SQL.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CommitMarkers1764800000000 implements MigrationInterface {
  name = 'CommitMarkers1764800000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE commit_markers (
        marker uuid NOT NULL,
        at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_commit_markers" PRIMARY KEY (marker)
      )`);
    await q.query('CREATE INDEX "IDX_commit_markers_at" ON commit_markers USING brin (at)');
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE commit_markers');
  }
}
