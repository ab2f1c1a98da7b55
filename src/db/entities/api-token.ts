// TypeORM entity for `api_tokens` (berth extension: bearer tokens; only the secret's hash is kept).
import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Row of `api_tokens`: one API token, identified by the public id embedded in the token. */
@Entity('api_tokens')
@Check('CHK_api_tokens_role', `"role" IN ('admin', 'service', 'scheduler', 'reader', 'member')`)
@Check('CHK_api_tokens_member_scoped', `"role" <> 'member' OR "project" IS NOT NULL`)
@Check(
  'CHK_api_tokens_unscoped_roles',
  `"role" NOT IN ('admin', 'service') OR "project" IS NULL OR "revoked_at" IS NOT NULL`,
)
export class ApiToken {
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_api_tokens' })
  id: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** admin | service | scheduler | reader | member. */
  @Column({ type: 'varchar', length: 16 })
  role: string;

  /** null: not project-scoped. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  project: string | null;

  /** Hex SHA-256 of the secret half of the token. */
  @Column({ name: 'secret_sha256', type: 'varchar', length: 64 })
  secretSha256: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
