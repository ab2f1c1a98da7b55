// TypeORM entity for `quota_limits` (berth extension; mirrors Nova's quotas.hard_limit rows).
// Persistence only; the migration adds NULLS NOT DISTINCT to the unique constraint.
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** Row of `quota_limits`: the most a project (or one user in it) may hold of one resource. */
@Entity('quota_limits')
@Unique('UQ_quota_limits_scope', ['projectId', 'userId', 'resource'])
@Check('CHK_quota_limits_hard_limit', '"hard_limit" >= 0')
export class QuotaLimit {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_quota_limits' })
  id: number;

  @Column({ name: 'project_external_id', type: 'varchar', length: 255 })
  projectId: string;

  /** null: the limit applies to the whole project. */
  @Column({ name: 'user_external_id', type: 'varchar', length: 255, nullable: true })
  userId: string | null;

  /** A resource class name, or INSTANCES. */
  @Column({ type: 'varchar', length: 255 })
  resource: string;

  @Column({ name: 'hard_limit', type: 'integer' })
  hardLimit: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
