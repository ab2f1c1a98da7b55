// Claims made by `schedule` (written here, in the domain; the scheduler's batcher calls in), and
// the moves they start. Nova gives a moving instance's source
// allocations to a migration consumer and the destination ones to the instance, then confirms
// (drop the migration's) or reverts (swap back). berth doubles the allocations on the one consumer
// instead, and records which amounts are the source and which the destination
// in `consumer_moves`, so confirmMove / revertMove can drop one side in one transaction (also
// right when both sides use the same sharing provider, whose amounts are summed on one row).
// Every write is a consumer-generation compare-and-swap inside the allocation write transaction.
import type { DataSource, EntityManager } from 'typeorm';
import type { AllocationService } from './allocation';
import type { ProviderAllocation } from './allocation-candidates/results';
import { type AllocationMap, add, fromRows, subtract, toList } from './allocation-map';
import { normalizeInputsOrThrow } from './allocation-write';
import { type ChangeBus, type ChangeSet, writeTransaction } from './change-bus';
import { consumersByUuid } from './consumer';
import { ConcurrentUpdateError, ConflictError, ErrorCode } from './errors';
import type { ResourceProviderService } from './resource-provider';
import { enforceServerGroups } from './server-group-guard';
import type { ConsumerRecord, ResourceProviderRecord } from './types';
import { normalizeUuidOrThrow } from './uuid';

/** What a claim needs to know. */
export interface ClaimInput {
  readonly consumerUuid: string;
  readonly projectId: string;
  readonly userId: string;
  /** Absent: a new consumer has no type, an existing one keeps its own. */
  readonly consumerType?: string;
  /** Root provider uuid of the chosen host. */
  readonly hostUuid: string;
  /** The allocation request to add. */
  readonly allocations: readonly ProviderAllocation[];
  /** The server group the consumer joins; its hard policy is checked in the claim's transaction. */
  readonly serverGroup?: string;
}

/** A successful claim, enough to undo it (multi-create rollback). */
export interface Claimed {
  readonly consumerUuid: string;
  /** The host's root provider as the claim left it (read in the claim's transaction). */
  readonly host: ResourceProviderRecord;
  /** The consumer generation right after the claim. */
  readonly generation: number;
  /** The consumer's allocations before the claim (empty for a new consumer). */
  readonly previous: readonly ProviderAllocation[];
  /** True when the claim started a move (the consumer already had allocations). */
  readonly moved: boolean;
  /** True when the claim made the consumer a member of its server group (undo removes it). */
  readonly joinedGroup?: boolean;
}

/** A move in progress. */
export interface MoveRecord {
  readonly consumerUuid: string;
  readonly destinationRootUuid: string;
  readonly source: readonly ProviderAllocation[];
  readonly destination: readonly ProviderAllocation[];
  readonly createdAt: Date;
}

/** Which side of a move to drop: confirm drops the source, revert the destination. */
export type MoveSide = 'source' | 'destination';

interface ConsumerRow {
  id: number;
  generation: number;
}

interface MoveRow {
  destination_root_uuid: string;
  source_allocations: ProviderAllocation[];
  destination_allocations: ProviderAllocation[];
  created_at: Date;
}

/** Claims, rollbacks of claims, and confirm / revert of moves. */
export class ClaimService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
    private readonly allocations: AllocationService,
    private readonly providers: ResourceProviderService,
  ) {}

  /** The claimed hosts' records, read after the write in its transaction (one statement). */
  private async hostsOf(
    em: EntityManager,
    inputs: readonly ClaimInput[],
  ): Promise<ResourceProviderRecord[]> {
    const uuids = [...new Set(inputs.map((i) => i.hostUuid))];
    const records = await this.providers.byUuids(uuids, em);
    const byUuid = new Map(uuids.map((u, i) => [u, records[i]]));
    return inputs.map((i) => {
      const host = byUuid.get(i.hostUuid);
      if (!host) {
        throw new ConflictError(
          `Host ${i.hostUuid} was deleted concurrently; retry.`,
          ErrorCode.CONCURRENT_DELETE,
        );
      }
      return host;
    });
  }

  /**
   * Adds `input.allocations` to the consumer's allocations in one transaction (setAllocations
   * semantics with the consumer generation read in it; a new consumer is created). When the
   * consumer already had allocations, the move is recorded.
   * @throws ConflictError (capacity, generation, MOVE_IN_PROGRESS) and the allocation write's errors.
   */
  claim(input: ClaimInput): Promise<Claimed> {
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const { consumer, current } = await readConsumerWithAllocations(em, input.consumerUuid);
      if (consumer && current.size > 0) {
        const move = await readMove(em, consumer.id);
        // A record whose amounts are no longer held is stale (the allocations were replaced
        // behind the move's back); it is overwritten.
        if (
          move &&
          subtract(current, move.source_allocations) &&
          subtract(current, move.destination_allocations)
        ) {
          throw new ConflictError(
            `Consumer ${input.consumerUuid} has a move in progress (to host ${move.destination_root_uuid}); confirm or revert it first.`,
            ErrorCode.MOVE_IN_PROGRESS,
          );
        }
      }
      const joined = await enforceServerGroups(em, [input]);
      const merged = add(current, input.allocations);
      await this.write(em, changes, [
        {
          consumerUuid: input.consumerUuid,
          generation: consumer?.generation ?? null,
          allocations: merged,
          owner: ownerOf(input),
        },
      ]);
      const previous = toList(current);
      if (consumer && current.size > 0) {
        await em.query(
          `INSERT INTO consumer_moves (consumer_id, destination_root_uuid, source_allocations, destination_allocations)
           VALUES ($1, $2, $3::jsonb, $4::jsonb)
           ON CONFLICT (consumer_id) DO UPDATE SET destination_root_uuid = EXCLUDED.destination_root_uuid,
             source_allocations = EXCLUDED.source_allocations,
             destination_allocations = EXCLUDED.destination_allocations, created_at = now()`,
          [
            consumer.id,
            input.hostUuid,
            JSON.stringify(previous),
            JSON.stringify(toList(add(new Map(), input.allocations))),
          ],
        );
      }
      // A new consumer is created at generation 1, an existing one is incremented; the row stays
      // locked until commit, so this is the generation the claim leaves.
      const generation = (consumer?.generation ?? 0) + 1;
      const [host] = await this.hostsOf(em, [input]);
      return {
        consumerUuid: input.consumerUuid,
        host: host!,
        generation,
        previous,
        moved: previous.length > 0,
        ...(joined.size > 0 ? { joinedGroup: true } : {}),
      };
    });
  }

  /**
   * Claims for consumers that must not exist yet, in one transaction: one allocation write for
   * all of them (consumer generation null each), all or nothing. A consumer that exists (a move)
   * fails the whole write with a generation conflict; the caller then claims one by one.
   * @throws the allocation write's errors.
   */
  claimNew(inputs: readonly ClaimInput[]): Promise<Claimed[]> {
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const joined = await enforceServerGroups(em, inputs);
      await this.write(
        em,
        changes,
        inputs.map((input) => ({
          consumerUuid: input.consumerUuid,
          generation: null,
          allocations: add(new Map(), input.allocations),
          owner: ownerOf(input),
        })),
      );
      const hosts = await this.hostsOf(em, inputs);
      return inputs.map((input, i) => ({
        consumerUuid: input.consumerUuid,
        host: hosts[i]!,
        generation: 1,
        previous: [],
        moved: false,
        ...(joined.has(input.consumerUuid) ? { joinedGroup: true } : {}),
      }));
    });
  }

  /**
   * Undoes a claim of this process: restores the previous allocations (deleting a new consumer)
   * if the consumer is still at the claim's generation, and forgets the move it started.
   * @throws ConcurrentUpdateError when the consumer changed since the claim.
   */
  undo(claimed: Claimed): Promise<void> {
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const consumer = await readConsumer(em, claimed.consumerUuid);
      await this.write(em, changes, [
        {
          consumerUuid: claimed.consumerUuid,
          generation: claimed.generation,
          allocations: add(new Map(), claimed.previous),
        },
      ]);
      if (consumer && claimed.previous.length > 0) {
        await em.query('DELETE FROM consumer_moves WHERE consumer_id = $1', [consumer.id]);
      }
      if (claimed.joinedGroup) {
        await em.query('DELETE FROM server_group_members WHERE consumer_uuid = $1', [
          claimed.consumerUuid,
        ]);
      }
    });
  }

  /** The move in progress for a consumer, or null. */
  async find(consumerUuid: string): Promise<MoveRecord | null> {
    const uuid = normalizeUuidOrThrow(consumerUuid, 'consumer uuid');
    const rows: (MoveRow & { uuid: string })[] = await this.ds.query(
      `SELECT c.uuid, m.destination_root_uuid, m.source_allocations, m.destination_allocations, m.created_at
       FROM consumer_moves m JOIN consumers c ON c.id = m.consumer_id WHERE c.uuid = $1`,
      [uuid],
    );
    const r = rows[0];
    return r
      ? {
          consumerUuid: uuid,
          destinationRootUuid: r.destination_root_uuid,
          source: r.source_allocations,
          destination: r.destination_allocations,
          createdAt: r.created_at,
        }
      : null;
  }

  /**
   * Ends a move by dropping one side of the consumer's allocations ('source' = confirm,
   * 'destination' = revert) and forgetting the move, atomically. With `consumerGeneration` the
   * caller's view is checked too; without it a concurrent change is retried a few times.
   * @throws ConflictError MOVE_NOT_IN_PROGRESS; ConcurrentUpdateError (generation, or the
   *   allocations no longer hold the recorded amounts).
   */
  async end(
    consumerUuid: string,
    drop: MoveSide,
    consumerGeneration?: number,
  ): Promise<ConsumerRecord | null> {
    const uuid = normalizeUuidOrThrow(consumerUuid, 'consumer uuid');
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.endOnce(uuid, drop, consumerGeneration);
      } catch (err) {
        const retry =
          err instanceof ConcurrentUpdateError && consumerGeneration === undefined && attempt < 3;
        if (!retry) {
          throw err;
        }
      }
    }
  }

  private endOnce(
    uuid: string,
    drop: MoveSide,
    consumerGeneration: number | undefined,
  ): Promise<ConsumerRecord | null> {
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const consumer = await readConsumer(em, uuid);
      const move = consumer ? await readMove(em, consumer.id) : null;
      if (!consumer || !move) {
        throw new ConflictError(
          `Consumer ${uuid} has no move in progress (nothing to ${drop === 'source' ? 'confirm' : 'revert'}).`,
          ErrorCode.MOVE_NOT_IN_PROGRESS,
        );
      }
      if (consumerGeneration !== undefined && consumerGeneration !== consumer.generation) {
        throw new ConcurrentUpdateError(
          `consumer generation conflict - expected ${consumer.generation} but got ${consumerGeneration}`,
        );
      }
      const current = await readAllocations(em, consumer.id);
      const side = drop === 'source' ? move.source_allocations : move.destination_allocations;
      const remaining = subtract(current, side);
      if (!remaining) {
        throw new ConcurrentUpdateError(
          `The allocations of consumer ${uuid} no longer hold the move's ${drop} amounts (they were replaced since the move was scheduled).`,
        );
      }
      await this.write(em, changes, [
        { consumerUuid: uuid, generation: consumer.generation, allocations: remaining },
      ]);
      await em.query('DELETE FROM consumer_moves WHERE consumer_id = $1', [consumer.id]);
      return (await consumersByUuid(em, [uuid])).get(uuid) ?? null;
    });
  }

  /** One allocation write (setAllocations semantics) of every consumer in `writes`. */
  private async write(
    em: EntityManager,
    changes: ChangeSet,
    writes: readonly ConsumerWrite[],
  ): Promise<void> {
    const inputs = normalizeInputsOrThrow(
      writes.map((w) => ({
        consumerUuid: w.consumerUuid,
        consumerGeneration: w.generation,
        allocations: toList(w.allocations),
        ...w.owner,
      })),
    );
    await this.allocations.setIn(em, inputs, {}, (ids, projects) =>
      changes.providers(ids, projects),
    );
  }
}

/** A consumer's allocations to write, at the generation the writer read. */
interface ConsumerWrite {
  readonly consumerUuid: string;
  readonly generation: number | null;
  readonly allocations: AllocationMap;
  readonly owner?: { projectId?: string; userId?: string; consumerType?: string };
}

const ownerOf = (input: ClaimInput) => ({
  projectId: input.projectId,
  userId: input.userId,
  consumerType: input.consumerType,
});

async function readConsumer(em: EntityManager, uuid: string): Promise<ConsumerRow | null> {
  const rows: ConsumerRow[] = await em.query(
    'SELECT id, generation FROM consumers WHERE uuid = $1',
    [uuid],
  );
  return rows[0] ?? null;
}

/** The consumer (or null) and its allocations, in one round trip. */
async function readConsumerWithAllocations(
  em: EntityManager,
  uuid: string,
): Promise<{ consumer: ConsumerRow | null; current: AllocationMap }> {
  const rows: {
    id: number;
    generation: number;
    provider_uuid: string | null;
    resource_class: string | null;
    used: number | null;
  }[] = await em.query(
    `SELECT c.id, c.generation, rp.uuid AS provider_uuid, rc.name AS resource_class, a.used
     FROM consumers c LEFT JOIN allocations a ON a.consumer_id = c.id
     LEFT JOIN resource_providers rp ON rp.id = a.resource_provider_id
     LEFT JOIN resource_classes rc ON rc.id = a.resource_class_id WHERE c.uuid = $1`,
    [uuid],
  );
  const first = rows[0];
  return {
    consumer: first ? { id: first.id, generation: first.generation } : null,
    current: fromRows(rows),
  };
}

async function readAllocations(em: EntityManager, consumerId: number): Promise<AllocationMap> {
  const rows: { provider_uuid: string; resource_class: string; used: number }[] = await em.query(
    `SELECT rp.uuid AS provider_uuid, rc.name AS resource_class, a.used
     FROM allocations a JOIN resource_providers rp ON rp.id = a.resource_provider_id
     JOIN resource_classes rc ON rc.id = a.resource_class_id WHERE a.consumer_id = $1`,
    [consumerId],
  );
  return fromRows(rows);
}

async function readMove(em: EntityManager, consumerId: number): Promise<MoveRow | null> {
  const rows: MoveRow[] = await em.query(
    `SELECT destination_root_uuid, source_allocations, destination_allocations, created_at
     FROM consumer_moves WHERE consumer_id = $1`,
    [consumerId],
  );
  return rows[0] ?? null;
}
