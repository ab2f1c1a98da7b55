// TypeORM entity for `resource_classes` (upstream: placement/db/sqlalchemy/models.py). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** Row of `resource_classes`. */
@Entity('resource_classes')
@Unique('UQ_resource_classes_name', ['name'])
export class ResourceClass {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_resource_classes' })
  id: number;

  @Column({ name: 'name', type: 'varchar', length: 255 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
