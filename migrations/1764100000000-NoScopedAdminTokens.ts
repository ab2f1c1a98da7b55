// Admin tokens are cloud-wide: an admin token scoped to a project would claim a boundary that
// admin operations (providers, inventories, quota limits, reshape) cannot honour. Revokes any
// such token created by an earlier version and forbids active ones from now on.
// Hand-written SQL, unqualified names (schema-per-worker tests set search_path).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class NoScopedAdminTokens1764100000000 implements MigrationInterface {
  name = 'NoScopedAdminTokens1764100000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE api_tokens SET revoked_at = now()
       WHERE role = 'admin' AND project IS NOT NULL AND revoked_at IS NULL`,
    );
    await q.query(`
      ALTER TABLE api_tokens ADD CONSTRAINT "CHK_api_tokens_admin_unscoped"
        CHECK ("role" <> 'admin' OR "project" IS NULL OR "revoked_at" IS NOT NULL)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_tokens DROP CONSTRAINT "CHK_api_tokens_admin_unscoped"');
  }
}
