// Failed builds per host (berth extension; Nova keeps them in the compute node's stats,
// nova/compute/stats.py build_failed / build_succeeded, and the scheduler reads
// HostState.failed_builds, nova/scheduler/host_manager.py). One row per host's root provider
// while its count is above 0: a reported failure adds one, a reported success deletes the row
// (src/placement/build-results.ts). The row goes with its provider (ON DELETE CASCADE, and
// `berth db reset` truncates through the foreign key). Hand-written SQL, unqualified names.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class BuildFailures1764600000000 implements MigrationInterface {
  name = 'BuildFailures1764600000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE build_failures (
        resource_provider_id integer NOT NULL,
        failed_builds integer NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_build_failures" PRIMARY KEY (resource_provider_id),
        CONSTRAINT "CHK_build_failures_positive" CHECK (failed_builds > 0),
        CONSTRAINT "FK_build_failures_provider" FOREIGN KEY (resource_provider_id)
          REFERENCES resource_providers(id) ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE build_failures');
  }
}
