// TypeORM entity for `consumers` (upstream: models.py Consumer). Persistence only.
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
import { ConsumerType } from './consumer-type';
import { Project } from './project';
import { User } from './user';

/** Row of `consumers`: the thing (instance, migration, ...) that holds allocations. */
@Entity('consumers')
@Unique('UQ_consumers_uuid', ['uuid'])
@Index('IDX_consumers_project_user', ['projectId', 'userId'])
export class Consumer {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_consumers' })
  id: number;

  @Column({ type: 'uuid' })
  uuid: string;

  @Column({ name: 'project_id', type: 'integer' })
  projectId: number;

  @ManyToOne(() => Project, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'project_id', foreignKeyConstraintName: 'FK_consumers_project' })
  project: Relation<Project>;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @ManyToOne(() => User, { onDelete: 'NO ACTION' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_consumers_user' })
  user: Relation<User>;

  @Column({ name: 'consumer_type_id', type: 'integer', nullable: true })
  consumerTypeId: number | null;

  @ManyToOne(() => ConsumerType, { onDelete: 'NO ACTION', nullable: true })
  @JoinColumn({ name: 'consumer_type_id', foreignKeyConstraintName: 'FK_consumers_type' })
  consumerType: Relation<ConsumerType> | null;

  @Column({ type: 'integer', default: 0 })
  generation: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
