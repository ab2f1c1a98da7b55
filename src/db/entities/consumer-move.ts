// TypeORM entity for `consumer_moves` (berth extension: a move scheduled by doubling a consumer's
// allocations, waiting for confirmMove / revertMove). Persistence only.
import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { Consumer } from './consumer';

/** The amounts of one side of a move, per provider. */
export interface MoveSideRow {
  providerUuid: string;
  resources: Record<string, number>;
}

/** Row of `consumer_moves`: which of a consumer's allocations are the source, which the destination. */
@Entity('consumer_moves')
export class ConsumerMove {
  @PrimaryColumn({
    name: 'consumer_id',
    type: 'integer',
    primaryKeyConstraintName: 'PK_consumer_moves',
  })
  consumerId: number;

  @ManyToOne(() => Consumer, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'consumer_id', foreignKeyConstraintName: 'FK_consumer_moves_consumer' })
  consumer: Relation<Consumer>;

  @Column({ name: 'destination_root_uuid', type: 'uuid' })
  destinationRootUuid: string;

  @Column({ name: 'source_allocations', type: 'jsonb' })
  sourceAllocations: MoveSideRow[];

  @Column({ name: 'destination_allocations', type: 'jsonb' })
  destinationAllocations: MoveSideRow[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
