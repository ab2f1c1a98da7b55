// Token roles as OpenStack means them. `service`: what Placement's default policy gives Keystone's
// `admin` and `service` roles (everything the Placement API allows), one credential shared by
// nova-compute and nova-scheduler; like admin it is cloud-wide, never scoped to a project.
// `member`: a project's own usages, quota and allocations only (Keystone's project member or
// reader); it is always scoped to a project.
// Hand-written SQL, unqualified names (schema-per-worker tests set search_path).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OpenStackRoles1764300000000 implements MigrationInterface {
  name = 'OpenStackRoles1764300000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS "CHK_api_tokens_role"');
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT "CHK_api_tokens_role"
      CHECK ("role" IN ('admin', 'service', 'scheduler', 'reader', 'member'))`);
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT "CHK_api_tokens_member_scoped"
      CHECK ("role" <> 'member' OR "project" IS NOT NULL)`);
    await q.query(
      'ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS "CHK_api_tokens_admin_unscoped"',
    );
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT "CHK_api_tokens_unscoped_roles"
      CHECK ("role" NOT IN ('admin', 'service') OR "project" IS NULL OR "revoked_at" IS NOT NULL)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    // Older versions know neither role: such tokens are revoked (as admin / reader rows).
    await q.query(`UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()),
      role = CASE role WHEN 'service' THEN 'admin' ELSE 'reader' END
      WHERE role IN ('service', 'member')`);
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT "CHK_api_tokens_member_scoped"');
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT "CHK_api_tokens_unscoped_roles"');
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT "CHK_api_tokens_admin_unscoped"
      CHECK ("role" <> 'admin' OR "project" IS NULL OR "revoked_at" IS NOT NULL)`);
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT IF EXISTS "CHK_api_tokens_role"');
    await q.query(`ALTER TABLE api_tokens ADD CONSTRAINT "CHK_api_tokens_role"
      CHECK ("role" IN ('admin', 'scheduler', 'reader'))`);
  }
}
