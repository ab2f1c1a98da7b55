// The audit trail: one row per committed write, inserted in the write's own transaction
// (src/placement/audit.ts). Targets are arrays so one row names every provider, consumer and
// project a write touched; `details` says what an admin write changed (NULL when nothing to
// add, e.g. claims); GIN indexes serve `berth audit log --consumer/--provider`, the
// created_at index the listing and the retention prune.
// Hand-written SQL, unqualified names (schema-per-worker tests set search_path).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditEvents1764400000000 implements MigrationInterface {
  name = 'AuditEvents1764400000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id bigserial NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        request_id varchar(255),
        actor_kind varchar(16) NOT NULL,
        actor_id varchar(255),
        actor_name varchar(255),
        user_id varchar(255),
        project_id varchar(255),
        role varchar(16),
        operation varchar(255) NOT NULL,
        consumers text[] NOT NULL DEFAULT '{}',
        providers text[] NOT NULL DEFAULT '{}',
        projects text[] NOT NULL DEFAULT '{}',
        details jsonb,
        CONSTRAINT "PK_audit_events" PRIMARY KEY (id)
      )`);
    await q.query('CREATE INDEX "IDX_audit_events_created_at" ON audit_events (created_at)');
    await q.query(
      'CREATE INDEX "IDX_audit_events_consumers" ON audit_events USING gin (consumers)',
    );
    await q.query(
      'CREATE INDEX "IDX_audit_events_providers" ON audit_events USING gin (providers)',
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE audit_events');
  }
}
