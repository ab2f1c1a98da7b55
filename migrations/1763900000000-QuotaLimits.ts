// Quota limits enforced inside allocation claims (berth extension; seed 004 counts usage from
// Placement, and the limits mirror Nova's `quotas` / `project_user_quotas` hard_limit rows).
// Hand-written SQL, unqualified names (schema-per-worker tests set search_path).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class QuotaLimits1763900000000 implements MigrationInterface {
  name = 'QuotaLimits1763900000000';

  public async up(q: QueryRunner): Promise<void> {
    // user_external_id NULL = a project-wide limit. NULLS NOT DISTINCT makes (project, NULL,
    // resource) unique too, so project limits can be upserted with ON CONFLICT like user limits.
    // resource: a resource class name, or INSTANCES (consumers of type INSTANCE).
    await q.query(`
      CREATE TABLE quota_limits (
        id SERIAL NOT NULL,
        project_external_id character varying(255) NOT NULL,
        user_external_id character varying(255),
        resource character varying(255) NOT NULL,
        hard_limit integer NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        updated_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_quota_limits" PRIMARY KEY (id),
        CONSTRAINT "UQ_quota_limits_scope"
          UNIQUE NULLS NOT DISTINCT (project_external_id, user_external_id, resource),
        CONSTRAINT "CHK_quota_limits_hard_limit" CHECK (hard_limit >= 0)
      )`);
    // No further index: the unique constraint's index leads with project_external_id, which is
    // what every read filters on (the claim guard's "limits of these projects" and quota()).
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE quota_limits');
  }
}
