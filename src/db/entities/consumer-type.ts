// TypeORM entity for `consumer_types` (upstream: placement/db/sqlalchemy/models.py). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** Row of `consumer_types`. */
@Entity('consumer_types')
@Unique('UQ_consumer_types_name', ['name'])
export class ConsumerType {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_consumer_types' })
  id: number;

  @Column({ name: 'name', type: 'varchar', length: 255 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
