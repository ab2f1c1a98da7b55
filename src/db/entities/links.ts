// TypeORM entities for the link tables: provider<->aggregate, provider<->trait, and aggregate
// metadata (upstream: models.py ResourceProviderAggregate, ResourceProviderTrait; Nova
// aggregate_metadata). Persistence only.
import {
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { PlacementAggregate } from './aggregate';
import { ResourceProvider } from './resource-provider';
import { Trait } from './trait';

/** Membership of a provider in an aggregate. */
@Entity('resource_provider_aggregates')
@Index('IDX_rpa_aggregate_provider', ['aggregateId', 'resourceProviderId'])
export class ResourceProviderAggregate {
  @PrimaryColumn({
    name: 'resource_provider_id',
    type: 'integer',
    primaryKeyConstraintName: 'PK_resource_provider_aggregates',
  })
  resourceProviderId: number;

  @PrimaryColumn({
    name: 'aggregate_id',
    type: 'integer',
    primaryKeyConstraintName: 'PK_resource_provider_aggregates',
  })
  aggregateId: number;

  @ManyToOne(() => ResourceProvider, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_provider_id', foreignKeyConstraintName: 'FK_rpa_provider' })
  resourceProvider: Relation<ResourceProvider>;

  @ManyToOne(() => PlacementAggregate, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'aggregate_id', foreignKeyConstraintName: 'FK_rpa_aggregate' })
  aggregate: Relation<PlacementAggregate>;
}

/** A trait on a provider. */
@Entity('resource_provider_traits')
@Index('IDX_rpt_trait_provider', ['traitId', 'resourceProviderId'])
export class ResourceProviderTrait {
  @PrimaryColumn({
    name: 'resource_provider_id',
    type: 'integer',
    primaryKeyConstraintName: 'PK_resource_provider_traits',
  })
  resourceProviderId: number;

  @PrimaryColumn({
    name: 'trait_id',
    type: 'integer',
    primaryKeyConstraintName: 'PK_resource_provider_traits',
  })
  traitId: number;

  @ManyToOne(() => ResourceProvider, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'resource_provider_id', foreignKeyConstraintName: 'FK_rpt_provider' })
  resourceProvider: Relation<ResourceProvider>;

  @ManyToOne(() => Trait, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'trait_id', foreignKeyConstraintName: 'FK_rpt_trait' })
  trait: Relation<Trait>;
}

/** One key/value of a (Nova host) aggregate's metadata, read by scheduler filters. */
@Entity('aggregate_metadata')
export class AggregateMetadata {
  @PrimaryColumn({
    name: 'aggregate_id',
    type: 'integer',
    primaryKeyConstraintName: 'PK_aggregate_metadata',
  })
  aggregateId: number;

  @PrimaryColumn({
    type: 'varchar',
    length: 255,
    primaryKeyConstraintName: 'PK_aggregate_metadata',
  })
  key: string;

  @Column({ type: 'text' })
  value: string;

  @ManyToOne(() => PlacementAggregate, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'aggregate_id', foreignKeyConstraintName: 'FK_aggregate_metadata_aggregate' })
  aggregate: Relation<PlacementAggregate>;
}
