// TypeORM entity for `allocations` (upstream: models.py Allocation). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { Consumer } from './consumer';
import { ResourceClass } from './resource-class';
import { ResourceProvider } from './resource-provider';

/** Row of `allocations`: `used` units of one class on one provider, held by one consumer. */
@Entity('allocations')
@Index('IDX_allocations_provider_class', ['resourceProviderId', 'resourceClassId'])
@Index('IDX_allocations_class_provider', ['resourceClassId', 'resourceProviderId'])
@Index('IDX_allocations_consumer', ['consumerId'])
export class Allocation {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_allocations' })
  id: number;

  @Column({ name: 'resource_provider_id', type: 'integer' })
  resourceProviderId: number;

  @ManyToOne(() => ResourceProvider, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'resource_provider_id', foreignKeyConstraintName: 'FK_allocations_provider' })
  resourceProvider: Relation<ResourceProvider>;

  @Column({ name: 'consumer_id', type: 'integer' })
  consumerId: number;

  @ManyToOne(() => Consumer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'consumer_id', foreignKeyConstraintName: 'FK_allocations_consumer' })
  consumer: Relation<Consumer>;

  @Column({ name: 'resource_class_id', type: 'integer' })
  resourceClassId: number;

  @ManyToOne(() => ResourceClass, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'resource_class_id', foreignKeyConstraintName: 'FK_allocations_class' })
  resourceClass: Relation<ResourceClass>;

  @Column({ type: 'integer' })
  used: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
