// Capacity history (berth extension): one row per sampled bucket, scope (the whole cloud, or one
// aggregate by uuid) and resource class, written by every replica's sampler
// (src/placement/capacity-history.ts). The primary key makes the bucket the unit of work: two
// replicas sampling the same bucket write it once (INSERT … ON CONFLICT DO NOTHING). No foreign
// keys: history outlives deleted aggregates and resource classes. Hand-written SQL.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CapacitySamples1764700000000 implements MigrationInterface {
  name = 'CapacitySamples1764700000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE capacity_samples (
        bucket timestamptz NOT NULL,
        scope varchar(36) NOT NULL,
        resource_class varchar(255) NOT NULL,
        capacity bigint NOT NULL,
        used bigint NOT NULL,
        total bigint NOT NULL,
        reserved bigint NOT NULL,
        CONSTRAINT "PK_capacity_samples" PRIMARY KEY (bucket, scope, resource_class)
      )`);
    // The query reads one scope over a time range.
    await q.query(
      'CREATE INDEX "IDX_capacity_samples_scope_bucket" ON capacity_samples (scope, bucket)',
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE capacity_samples');
  }
}
