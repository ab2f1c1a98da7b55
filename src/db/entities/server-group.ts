// TypeORM entities for `server_groups` and `server_group_members` (berth extension: Nova's
// instance groups, enforced by `schedule`). Persistence only.
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
  Unique,
} from 'typeorm';

/** Row of `server_groups`: a named set of consumers with a placement policy. */
@Entity('server_groups')
@Unique('UQ_server_groups_uuid', ['uuid'])
@Index('IDX_server_groups_project', ['projectId'])
@Check(
  'CHK_server_groups_policy',
  `policy IN ('affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity')`,
)
@Check(
  'CHK_server_groups_max',
  `max_server_per_host IS NULL OR (policy = 'anti-affinity' AND max_server_per_host >= 1)`,
)
export class ServerGroup {
  @PrimaryGeneratedColumn({ primaryKeyConstraintName: 'PK_server_groups' })
  id: number;

  @Column({ type: 'uuid' })
  uuid: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'project_id', type: 'varchar', length: 255 })
  projectId: string;

  @Column({ name: 'user_id', type: 'varchar', length: 255 })
  userId: string;

  /** affinity | anti-affinity | soft-affinity | soft-anti-affinity. */
  @Column({ type: 'varchar', length: 32 })
  policy: string;

  /** Nova's `max_server_per_host` rule (anti-affinity only); null = 1. */
  @Column({ name: 'max_server_per_host', type: 'integer', nullable: true })
  maxServerPerHost: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** Row of `server_group_members`: one consumer's membership (at most one group each). */
@Entity('server_group_members')
@Index('IDX_server_group_members_group', ['groupId'])
export class ServerGroupMember {
  @PrimaryColumn({
    name: 'consumer_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_server_group_members',
  })
  consumerUuid: string;

  @Column({ name: 'group_id', type: 'integer' })
  groupId: number;

  @ManyToOne(() => ServerGroup, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id', foreignKeyConstraintName: 'FK_server_group_members_group' })
  group: Relation<ServerGroup>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
