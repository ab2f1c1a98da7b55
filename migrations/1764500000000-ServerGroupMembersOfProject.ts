// A server group's members are consumers of the group's own project. Memberships that broke this
// (a consumer another project's token added before it existed, then created by its real
// project) are dropped: the consumer was never the group's to hold. Members whose consumer no
// longer exists are kept (a member without allocations runs nowhere and does not count).
// Hand-written SQL, unqualified names (schema-per-worker tests set search_path).
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ServerGroupMembersOfProject1764500000000 implements MigrationInterface {
  name = 'ServerGroupMembersOfProject1764500000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM server_group_members m
      USING server_groups g, consumers c, projects p
      WHERE g.id = m.group_id AND c.uuid = m.consumer_uuid AND p.id = c.project_id
        AND p.external_id <> g.project_id`);
  }

  public async down(): Promise<void> {
    // Nothing to restore: the dropped memberships were invalid.
  }
}
