// API tokens for GraphQL/REST authentication (berth extension; Placement delegates this to
// Keystone). Only the SHA-256 of a token's secret is stored, never the secret itself.
// Hand-written SQL, unqualified names (schema-per-worker tests set search_path).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ApiTokens1764000000001 implements MigrationInterface {
  name = 'ApiTokens1764000000001';

  public async up(q: QueryRunner): Promise<void> {
    // id is the public half of `berth_<id>_<secret>`: lookups are by primary key, and the
    // secret's hash is then compared in constant time. project NULL = not project-scoped.
    await q.query(`
      CREATE TABLE api_tokens (
        id character varying(32) NOT NULL,
        name character varying(255) NOT NULL,
        role character varying(16) NOT NULL,
        project character varying(255),
        secret_sha256 character varying(64) NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        last_used_at TIMESTAMP WITH TIME ZONE,
        revoked_at TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_api_tokens" PRIMARY KEY (id),
        CONSTRAINT "CHK_api_tokens_role" CHECK (role IN ('admin', 'scheduler', 'reader'))
      )`);
    // No further index: authentication reads by primary key; `berth token list` reads all rows.
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE api_tokens');
  }
}
