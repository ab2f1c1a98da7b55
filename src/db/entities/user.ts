// TypeORM entity for `users` (upstream: placement/db/sqlalchemy/models.py). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** Row of `users`. */
@Entity('users')
@Unique('UQ_users_external_id', ['externalId'])
export class User {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_users' })
  id: number;

  @Column({ name: 'external_id', type: 'varchar', length: 255 })
  externalId: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
