// Server groups (Nova's instance groups, berth extension): a named set of consumers with a
// placement policy that `schedule` enforces — `affinity` (one host), `anti-affinity` (at most
// `max_server_per_host` members per host, default 1), and their soft variants (weighers only).
// Members are consumer uuids, not consumer rows: Nova adds an instance to its group before it
// has allocations, and a member without allocations runs nowhere. Hand-written SQL.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ServerGroups1764200000000 implements MigrationInterface {
  name = 'ServerGroups1764200000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE server_groups (
        id SERIAL NOT NULL,
        uuid uuid NOT NULL,
        name character varying(255) NOT NULL,
        project_id character varying(255) NOT NULL,
        user_id character varying(255) NOT NULL,
        policy character varying(32) NOT NULL,
        max_server_per_host integer,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_server_groups" PRIMARY KEY (id),
        CONSTRAINT "UQ_server_groups_uuid" UNIQUE (uuid),
        CONSTRAINT "CHK_server_groups_policy" CHECK
          (policy IN ('affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity')),
        CONSTRAINT "CHK_server_groups_max" CHECK
          (max_server_per_host IS NULL OR (policy = 'anti-affinity' AND max_server_per_host >= 1))
      )`);
    await q.query('CREATE INDEX "IDX_server_groups_project" ON server_groups (project_id)');
    // A consumer belongs to at most one group (Nova: an instance is in at most one group).
    await q.query(`
      CREATE TABLE server_group_members (
        group_id integer NOT NULL,
        consumer_uuid uuid NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_server_group_members" PRIMARY KEY (consumer_uuid),
        CONSTRAINT "FK_server_group_members_group" FOREIGN KEY (group_id)
          REFERENCES server_groups(id) ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
    await q.query(
      'CREATE INDEX "IDX_server_group_members_group" ON server_group_members (group_id)',
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE server_group_members');
    await q.query('DROP TABLE server_groups');
  }
}
