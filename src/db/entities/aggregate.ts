// TypeORM entity for `placement_aggregates` (upstream: models.py PlacementAggregate), plus an
// optional Nova host-aggregate name. Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';

/** Row of `placement_aggregates`. */
@Entity('placement_aggregates')
@Unique('UQ_placement_aggregates_uuid', ['uuid'])
export class PlacementAggregate {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_placement_aggregates' })
  id: number;

  @Column({ type: 'uuid' })
  uuid: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  name: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
