// TypeORM entity for `inventories` (upstream: models.py Inventory). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { ResourceClass } from './resource-class';
import { ResourceProvider } from './resource-provider';

/** Row of `inventories`: what one provider has of one resource class. */
@Entity('inventories')
@Unique('UQ_inventories_provider_class', ['resourceProviderId', 'resourceClassId'])
@Index('IDX_inventories_class_provider', ['resourceClassId', 'resourceProviderId'])
export class Inventory {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_inventories' })
  id: number;

  @Column({ name: 'resource_provider_id', type: 'integer' })
  resourceProviderId: number;

  @ManyToOne(() => ResourceProvider, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_provider_id', foreignKeyConstraintName: 'FK_inventories_provider' })
  resourceProvider: Relation<ResourceProvider>;

  @Column({ name: 'resource_class_id', type: 'integer' })
  resourceClassId: number;

  @ManyToOne(() => ResourceClass, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'resource_class_id', foreignKeyConstraintName: 'FK_inventories_class' })
  resourceClass: Relation<ResourceClass>;

  @Column({ type: 'integer' })
  total: number;

  @Column({ type: 'integer', default: 0 })
  reserved: number;

  @Column({ name: 'min_unit', type: 'integer', default: 1 })
  minUnit: number;

  @Column({ name: 'max_unit', type: 'integer' })
  maxUnit: number;

  @Column({ name: 'step_size', type: 'integer', default: 1 })
  stepSize: number;

  @Column({ name: 'allocation_ratio', type: 'double precision', default: 1 })
  allocationRatio: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
