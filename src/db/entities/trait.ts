// TypeORM entity for `traits` (upstream: placement/db/sqlalchemy/models.py). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** Row of `traits`. */
@Entity('traits')
@Unique('UQ_traits_name', ['name'])
export class Trait {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_traits' })
  id: number;

  @Column({ name: 'name', type: 'varchar', length: 255 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
