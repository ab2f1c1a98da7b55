// Moves in progress (berth extension). Nova moves an instance by giving the migration record the
// source allocations; berth's `schedule` instead doubles the allocations on the one consumer
// (source + destination), so it records which amounts were there before and which it added, for
// confirmMove / revertMove to drop one side atomically. Hand-written SQL, unqualified names.
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ConsumerMoves1764000000000 implements MigrationInterface {
  name = 'ConsumerMoves1764000000000';

  public async up(q: QueryRunner): Promise<void> {
    // One move per consumer; it disappears with the consumer (deleting every allocation).
    // *_allocations: [{"providerUuid": ..., "resources": {"VCPU": 2, ...}}, ...]
    await q.query(`
      CREATE TABLE consumer_moves (
        consumer_id integer NOT NULL,
        destination_root_uuid uuid NOT NULL,
        source_allocations jsonb NOT NULL,
        destination_allocations jsonb NOT NULL,
        created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_consumer_moves" PRIMARY KEY (consumer_id),
        CONSTRAINT "FK_consumer_moves_consumer" FOREIGN KEY (consumer_id)
          REFERENCES consumers(id) ON DELETE CASCADE ON UPDATE NO ACTION
      )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE consumer_moves');
  }
}
