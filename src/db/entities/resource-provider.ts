// TypeORM entity for `resource_providers` (upstream: models.py ResourceProvider). Persistence only.
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

/** Row of `resource_providers`: a node of a provider tree. */
@Entity('resource_providers')
@Unique('UQ_resource_providers_uuid', ['uuid'])
@Unique('UQ_resource_providers_name', ['name'])
@Index('IDX_resource_providers_root', ['rootProviderId'])
@Index('IDX_resource_providers_parent', ['parentProviderId'])
export class ResourceProvider {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_resource_providers' })
  id: number;

  @Column({ type: 'uuid' })
  uuid: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'integer', default: 0 })
  generation: number;

  @Column({ name: 'root_provider_id', type: 'integer' })
  rootProviderId: number;

  @ManyToOne(() => ResourceProvider, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'root_provider_id', foreignKeyConstraintName: 'FK_resource_providers_root' })
  root: Relation<ResourceProvider>;

  @Column({ name: 'parent_provider_id', type: 'integer', nullable: true })
  parentProviderId: number | null;

  @ManyToOne(() => ResourceProvider, { onDelete: 'NO ACTION', nullable: true })
  @JoinColumn({
    name: 'parent_provider_id',
    foreignKeyConstraintName: 'FK_resource_providers_parent',
  })
  parent: Relation<ResourceProvider> | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
