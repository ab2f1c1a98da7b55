// Allocations: replace a consumer's allocations atomically (one or many consumers), read them by
// consumer or provider, delete them (upstream: objects/allocation.py, handlers/allocation.py).
import type { DataSource, EntityManager } from 'typeorm';
import { ensureOwnersOf, finishConsumers, lockConsumers } from './allocation-consumers';
import {
  type AllocationWriteOptions,
  type ConsumerAllocationsInput,
  deleteAllocationsOf,
  insertAllocations,
  lockProviders,
  normalizeInputsOrThrow,
} from './allocation-write';
import { noteAudit, noteAuditInputs } from './audit';
import { type ChangeBus, writeTransaction } from './change-bus';
import { consumersById, consumersByUuid } from './consumer';
import { ErrorCode, NotFoundError } from './errors';
import { GroupCommit, type GroupCommitStats } from './group-commit';
import type { ResourceProviderService } from './resource-provider';
import type { AllocationRecord, ConsumerRecord, ResourceProviderRecord } from './types';
import { isUuid, normalizeUuidOrThrow } from './uuid';

/** Hook run inside the write transaction after allocations are written (quota enforcement). */
export type AllocationGuard = (
  em: EntityManager,
  inputs: readonly ConsumerAllocationsInput[],
) => Promise<void>;

/**
 * Hook run first in every allocation write transaction, before any consumer or provider row is
 * read or locked (quota: take the project locks, then read usage before the write). The guard it
 * may return ({@link AllocationGuard}) runs after the write, in the same transaction.
 */
export type AllocationPreGuard = (
  em: EntityManager,
  inputs: readonly ConsumerAllocationsInput[],
) => Promise<AllocationGuard | undefined>;

const ALLOC_SELECT = `
  SELECT a.resource_provider_id, rp.uuid AS provider_uuid, rp.generation AS provider_generation,
         a.consumer_id, c.uuid AS consumer_uuid, p.external_id AS project_id,
         rc.name AS resource_class, a.used
  FROM allocations a
  JOIN resource_providers rp ON rp.id = a.resource_provider_id
  JOIN consumers c ON c.id = a.consumer_id
  JOIN projects p ON p.id = c.project_id
  JOIN resource_classes rc ON rc.id = a.resource_class_id`;

interface AllocRow {
  resource_provider_id: number;
  provider_uuid: string;
  provider_generation: number;
  consumer_id: number;
  consumer_uuid: string;
  project_id: string;
  resource_class: string;
  used: number;
}

const toRecord = (r: AllocRow): AllocationRecord => ({
  resourceProviderId: r.resource_provider_id,
  resourceProviderUuid: r.provider_uuid,
  resourceProviderGeneration: r.provider_generation,
  consumerId: r.consumer_id,
  consumerUuid: r.consumer_uuid,
  projectId: r.project_id,
  resourceClass: r.resource_class,
  used: r.used,
});

/** Allocation operations. */
export class AllocationService {
  private readonly preGuards: AllocationPreGuard[] = [];

  /** Group committers of single-consumer writes, one per option set (see setOne). */
  private readonly committers = new Map<
    boolean,
    GroupCommit<ConsumerAllocationsInput, ConsumerRecord | undefined>
  >();

  /**
   * `groupCommit`: most single-consumer writes (PUT /allocations/{consumer}) written in one
   * transaction when they arrive together; 1 writes each alone.
   */
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
    private readonly providers: ResourceProviderService,
    private readonly groupCommit = 1,
  ) {}

  /** Adds a hook run at the start of every allocation write transaction (quota locks). */
  addPreGuard(preGuard: AllocationPreGuard): void {
    this.preGuards.push(preGuard);
  }

  /**
   * Atomically replaces the allocations of every consumer in `inputs` (POST /allocations,
   * PUT /allocations/{consumer}). An empty list removes a consumer's allocations and the consumer.
   * @throws BadRequestError (shape, unknown provider or class); ConcurrentUpdateError (consumer
   *   generation); ConflictError (inventory missing, unit constraints, capacity).
   */
  async set(
    inputs: readonly ConsumerAllocationsInput[],
    opts: AllocationWriteOptions = {},
  ): Promise<ConsumerRecord[]> {
    const each = await this.setEach(inputs, opts);
    return each.flatMap((rec) => (rec ? [rec] : []));
  }

  /**
   * One consumer's allocations (PUT /allocations/{consumer}), as set([input]) would write them,
   * but written in one transaction with the single-consumer writes that arrive at the same time
   * (group commit: src/placement/group-commit.ts). A batch that cannot be written whole is retried
   * write by write, so the answer (and any error) is the one a lone write gives.
   * @returns the consumer as written, or undefined when its allocations were emptied (deleted).
   */
  setOne(
    input: ConsumerAllocationsInput,
    opts: AllocationWriteOptions = {},
  ): Promise<ConsumerRecord | undefined> {
    const check = opts.checkConsumerGeneration ?? true;
    let committer = this.committers.get(check);
    if (!committer) {
      const o = { checkConsumerGeneration: check };
      committer = new GroupCommit(
        {
          one: async (i) => (await this.setEach([i], o))[0],
          all: (all) => this.setEach(all, o),
          key: (i) => i.consumerUuid.toLowerCase().replace(/-/g, ''),
        },
        this.groupCommit,
      );
      this.committers.set(check, committer);
    }
    return committer.write(input);
  }

  /** Batch counters of setOne's group commit (metrics, bench). */
  groupCommitStats(): GroupCommitStats {
    const out: GroupCommitStats = { batches: 0, batchedWrites: 0, splitBatches: 0 };
    for (const c of this.committers.values()) {
      out.batches += c.stats.batches;
      out.batchedWrites += c.stats.batchedWrites;
      out.splitBatches += c.stats.splitBatches;
    }
    return out;
  }

  /** set(), answering each input (undefined for a consumer whose allocations were emptied). */
  private async setEach(
    inputs: readonly ConsumerAllocationsInput[],
    opts: AllocationWriteOptions,
  ): Promise<(ConsumerRecord | undefined)[]> {
    const normalized = normalizeInputsOrThrow(inputs);
    if (normalized.length === 0) {
      return [];
    }
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      await this.setIn(em, normalized, opts, changes.providers.bind(changes));
      const byUuid = await consumersByUuid(
        em,
        normalized.map((c) => c.consumerUuid),
      );
      return normalized.map((c) => byUuid.get(c.consumerUuid));
    });
  }

  /**
   * The allocation write inside a caller's transaction (reshaper). `extraProviderIds` are locked
   * too (in the same id-ordered pass) but not bumped; `beforeInsert` runs after the old
   * allocations are deleted and the providers locked, with their generations before this write.
   * Bumps the providers named in the new allocations and those of consumers set to empty, once.
   */
  async setIn(
    em: EntityManager,
    normalized: readonly ConsumerAllocationsInput[],
    opts: AllocationWriteOptions,
    touched: (ids: number[], projects: string[]) => void,
    extraProviderIds: readonly number[] = [],
    beforeInsert?: (generations: ReadonlyMap<number, number>) => Promise<void>,
  ): Promise<void> {
    const guards: AllocationGuard[] = [];
    for (const preGuard of this.preGuards) {
      const guard = await preGuard(em, normalized);
      if (guard) {
        guards.push(guard);
      }
    }
    const owners = await ensureOwnersOf(em, normalized);
    const consumers = await lockConsumers(em, normalized, opts, owners);
    const existingIds = [...consumers.values()].filter((c) => !c.isNew).map((c) => c.id);
    const { byUuid, bumpIds, generations } = await lockProviders(
      em,
      normalized,
      consumers,
      extraProviderIds,
    );
    const freed = existingIds.length > 0 ? await deleteAllocationsOf(em, existingIds) : [];
    await beforeInsert?.(generations);
    await insertAllocations(em, normalized, consumers, byUuid, bumpIds);
    await finishConsumers(em, normalized, consumers, owners);
    for (const guard of guards) {
      await guard(em, normalized);
    }
    noteAuditInputs(normalized);
    // Usage changed on every provider allocations left, bumped or not: the index must hear it.
    touched(
      [...bumpIds, ...freed, ...extraProviderIds],
      [...new Set(normalized.flatMap((c) => (c.projectId ? [c.projectId] : [])))],
    );
  }

  /** A consumer and its allocations (empty when unknown). */
  async forConsumer(
    uuid: string,
  ): Promise<{ consumer: ConsumerRecord | null; allocations: AllocationRecord[] }> {
    const id = normalizeUuidOrThrow(uuid, 'consumer uuid');
    const consumer = (await consumersByUuid(this.ds.manager, [id])).get(id) ?? null;
    if (!consumer) {
      return { consumer: null, allocations: [] };
    }
    return { consumer, allocations: await this.byConsumerIds([consumer.id]) };
  }

  /** A provider and the allocations against it. @throws NotFoundError. */
  async forProvider(
    uuid: string,
  ): Promise<{ provider: ResourceProviderRecord; allocations: AllocationRecord[] }> {
    const provider = await this.providers.get(uuid);
    return { provider, allocations: await this.byProviderIds([provider.id]) };
  }

  /** Allocations of many consumers (DataLoader batch), ordered by consumer, provider, class. */
  async byConsumerIds(ids: readonly number[]): Promise<AllocationRecord[]> {
    const rows: AllocRow[] = await this.ds.query(
      `${ALLOC_SELECT} WHERE a.consumer_id = ANY($1::int[]) ORDER BY a.consumer_id, a.resource_provider_id, a.resource_class_id`,
      [ids],
    );
    return rows.map(toRecord);
  }

  /** Allocations against many providers (DataLoader batch). */
  async byProviderIds(ids: readonly number[]): Promise<AllocationRecord[]> {
    const rows: AllocRow[] = await this.ds.query(
      `${ALLOC_SELECT} WHERE a.resource_provider_id = ANY($1::int[]) ORDER BY a.resource_provider_id, a.consumer_id, a.resource_class_id`,
      [ids],
    );
    return rows.map(toRecord);
  }

  /** Consumers by internal id, in order (DataLoader batch). */
  consumersByIds(ids: readonly number[]): Promise<(ConsumerRecord | null)[]> {
    return consumersById(this.ds.manager, ids);
  }

  /** The consumer with `uuid`, or null. */
  async findConsumer(uuid: string): Promise<ConsumerRecord | null> {
    if (!isUuid(uuid)) {
      return null;
    }
    const id = normalizeUuidOrThrow(uuid);
    return (await consumersByUuid(this.ds.manager, [id])).get(id) ?? null;
  }

  /**
   * Deletes every allocation of the consumer, and the consumer (DELETE /allocations/{uuid}).
   * Bumps no provider generation (Placement's delete_all only deletes rows): freeing capacity
   * cannot let a concurrent writer over-commit, and writers that add allocations lock the
   * providers before they read usage.
   * @throws NotFoundError when the consumer has no allocations.
   */
  async deleteForConsumer(uuid: string): Promise<void> {
    const id = normalizeUuidOrThrow(uuid, 'consumer uuid');
    await writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rows: { id: number; project: string }[] = await em.query(
        `SELECT c.id, p.external_id AS project FROM consumers c
         JOIN projects p ON p.id = c.project_id WHERE c.uuid = $1 FOR UPDATE OF c`,
        [id],
      );
      const consumer = rows[0];
      const freed = consumer ? await deleteAllocationsOf(em, [consumer.id]) : [];
      if (!consumer || freed.length === 0) {
        throw new NotFoundError(
          `No allocations for consumer '${id}'`,
          ErrorCode.CONSUMER_NOT_FOUND,
        );
      }
      await em.query('DELETE FROM consumers WHERE id = $1', [consumer.id]);
      noteAudit({ consumers: [id] });
      changes.providers(freed, [consumer.project]);
    });
  }
}
