// TypeORM entity for `projects` (upstream: placement/db/sqlalchemy/models.py). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** Row of `projects`. */
@Entity('projects')
@Unique('UQ_projects_external_id', ['externalId'])
export class Project {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_projects' })
  id: number;

  @Column({ name: 'external_id', type: 'varchar', length: 255 })
  externalId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
