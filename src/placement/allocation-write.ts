// The provider side of an allocation write, shared by setAllocations, scheduler claims and the
// reshaper: request validation, providers resolved and locked in id order, old allocations
// deleted, new ones inserted with unit and capacity checks (upstream: objects/allocation.py
// replace_all, _check_capacity_exceeded). The consumer side is in allocation-consumers.ts.

import type { EntityManager } from 'typeorm';
import { rowsOf } from '../db/rows';
import type { LockedConsumer } from './allocation-consumers';
import { assertConsumerTypeOrThrow } from './consumer';
import { assertAllocationAmountOrThrow, assertExternalIdOrThrow } from './consumer-rules';
import { BadRequestError, ConflictError, ErrorCode, withPlacementMessage } from './errors';
import { incrementGenerationsById } from './generation';
import { classIdsOrThrow } from './inventory';
import { capacityOf, type InventoryColumns } from './types';
import { normalizeUuidOrThrow } from './uuid';

/** One consumer's complete new allocations. */
export interface ConsumerAllocationsInput {
  readonly consumerUuid: string;
  /** Placement < 1.8 allows omitting project/user: the "incomplete consumer" ids are used. */
  readonly projectId?: string | null;
  readonly userId?: string | null;
  /** undefined: keep the existing type (or none for a new consumer). */
  readonly consumerType?: string | null;
  /** null: the consumer must not exist yet; undefined: not checked (before 1.28). */
  readonly consumerGeneration?: number | null;
  readonly allocations: readonly {
    readonly providerUuid: string;
    readonly resources: Readonly<Record<string, number>>;
  }[];
}

/** Behaviour switches that follow microversions. */
export interface AllocationWriteOptions {
  /** Enforce consumer generations (1.28+). Default true. */
  readonly checkConsumerGeneration?: boolean;
}

/** Canonicalises and validates the request shape. @throws BadRequestError. */
export function normalizeInputsOrThrow(
  inputs: readonly ConsumerAllocationsInput[],
): ConsumerAllocationsInput[] {
  const seen = new Set<string>();
  return inputs.map((c) => {
    const consumerUuid = normalizeUuidOrThrow(c.consumerUuid, 'consumer uuid');
    if (seen.has(consumerUuid)) {
      throw new BadRequestError(
        `Consumer ${consumerUuid} appears more than once in the request.`,
        ErrorCode.ALLOCATION_INVALID,
      );
    }
    seen.add(consumerUuid);
    if (c.consumerType !== undefined && c.consumerType !== null) {
      assertConsumerTypeOrThrow(c.consumerType);
    }
    for (const id of [c.projectId, c.userId]) {
      if (id !== undefined && id !== null) {
        assertExternalIdOrThrow('project_id and user_id', id);
      }
    }
    const providers = new Set<string>();
    const allocations = c.allocations.map((a) => {
      const providerUuid = normalizeUuidOrThrow(a.providerUuid, 'resource provider uuid');
      if (providers.has(providerUuid)) {
        throw new BadRequestError(
          `Resource provider ${providerUuid} appears twice in the allocations of ${consumerUuid}.`,
          ErrorCode.ALLOCATION_INVALID,
        );
      }
      providers.add(providerUuid);
      const entries = Object.entries(a.resources);
      if (entries.length === 0) {
        throw new BadRequestError(
          `Allocation of ${consumerUuid} on ${providerUuid} has no resources.`,
          ErrorCode.ALLOCATION_INVALID,
        );
      }
      for (const [rc, amount] of entries) {
        assertAllocationAmountOrThrow(consumerUuid, rc, amount);
      }
      return { providerUuid, resources: a.resources };
    });
    return { ...c, consumerUuid, allocations };
  });
}

/** The providers an allocation write locks, and which of them it bumps. */
export interface LockedAllocationProviders {
  /** uuid -> id of every provider named in the new allocations. */
  readonly byUuid: Map<string, number>;
  /**
   * Providers whose generation the write increments (Placement's visited providers of
   * _set_allocations): those named in the new allocations, plus the current providers of
   * consumers set to empty (their allocations are re-sent with used=0 upstream).
   */
  readonly bumpIds: number[];
  /** id -> generation before this write, for every locked provider (bumped ones and extras). */
  readonly generations: Map<number, number>;
}

/**
 * Resolves provider uuids and locks, in id order and in one statement, the providers the write
 * will bump plus `extraIds` (the reshaper's inventory providers). Providers a consumer merely
 * moves away from are neither locked nor bumped, as in Placement: removing allocations only frees
 * capacity, so no concurrent writer can over-commit because of it, while every provider that
 * receives allocations is locked before its capacity is read.
 * @throws BadRequestError for unknown (or concurrently deleted) providers.
 */
export async function lockProviders(
  em: EntityManager,
  inputs: readonly ConsumerAllocationsInput[],
  consumers: ReadonlyMap<string, LockedConsumer>,
  extraIds: readonly number[] = [],
): Promise<LockedAllocationProviders> {
  const unique = [...new Set(inputs.flatMap((c) => c.allocations.map((a) => a.providerUuid)))];
  const emptied = inputs
    .filter((c) => c.allocations.length === 0 && !consumers.get(c.consumerUuid)!.isNew)
    .map((c) => consumers.get(c.consumerUuid)!.id);
  const freed: { resource_provider_id: number }[] =
    emptied.length === 0
      ? []
      : await em.query(
          'SELECT DISTINCT resource_provider_id FROM allocations WHERE consumer_id = ANY($1::int[])',
          [emptied],
        );
  const freedIds = freed.map((r) => r.resource_provider_id);
  const byIdOnly = [...new Set([...freedIds, ...extraIds])];
  const rows: { id: number; uuid: string; generation: number }[] =
    unique.length + byIdOnly.length === 0
      ? []
      : await em.query(
          `SELECT id, uuid, generation FROM resource_providers
           WHERE uuid = ANY($1::uuid[]) OR id = ANY($2::int[]) ORDER BY id FOR NO KEY UPDATE`,
          [unique, byIdOnly],
        );
  const byUuid = new Map<string, number>();
  const wanted = new Set(unique);
  for (const r of rows) {
    if (wanted.has(r.uuid)) {
      byUuid.set(r.uuid, r.id);
    }
  }
  const missing = unique.filter((u) => !byUuid.has(u));
  if (missing.length > 0) {
    throw new BadRequestError(
      `Allocation for resource provider '${missing.sort().join(', ')}' that does not exist.`,
      ErrorCode.UNKNOWN_PROVIDER,
    );
  }
  const generations = new Map(rows.map((r) => [r.id, r.generation]));
  const bumpIds = [...new Set([...byUuid.values(), ...freedIds])].filter((id) =>
    generations.has(id),
  );
  return { byUuid, bumpIds, generations };
}

/**
 * Deletes the current allocations of these consumers.
 * @returns the ids of the providers they were on (their usage changed).
 */
export async function deleteAllocationsOf(
  em: EntityManager,
  consumerIds: readonly number[],
): Promise<number[]> {
  const rows: { resource_provider_id: number }[] = rowsOf(
    await em.query(
      'DELETE FROM allocations WHERE consumer_id = ANY($1::int[]) RETURNING resource_provider_id',
      [consumerIds],
    ),
  );
  return [...new Set(rows.map((r) => r.resource_provider_id))];
}

/**
 * Inserts the new allocations after checking inventory presence, min/max/step and capacity
 * (usage counted after the consumers' previous allocations were deleted, amounts summed per
 * provider and class across the whole request), and bumps the generations of `bumpIds` in the
 * same statement. Providers must be locked.
 * @throws ConflictError (Placement's InvalidInventory family) naming class and provider.
 */
export async function insertAllocations(
  em: EntityManager,
  inputs: readonly ConsumerAllocationsInput[],
  consumers: ReadonlyMap<string, LockedConsumer>,
  providers: ReadonlyMap<string, number>,
  bumpIds: readonly number[],
): Promise<void> {
  const flat = inputs.flatMap((c) =>
    c.allocations.flatMap((a) =>
      Object.entries(a.resources).map(([rc, used]) => ({
        consumerId: consumers.get(c.consumerUuid)!.id,
        providerUuid: a.providerUuid,
        providerId: providers.get(a.providerUuid)!,
        rc,
        used,
      })),
    ),
  );
  if (flat.length === 0) {
    await incrementGenerationsById(em, bumpIds);
    return;
  }
  // Inventories with their class names and usage, in one statement; a class none of them has is
  // looked up only then, to tell an unknown class (400) from a missing inventory (409).
  const invRows: (InventoryColumns & {
    resource_class_id: number;
    resource_class: string;
    used: number;
  })[] = await em.query(
    `SELECT i.resource_provider_id, i.resource_class_id, rc.name AS resource_class, i.total,
            i.reserved, i.min_unit, i.max_unit, i.step_size, i.allocation_ratio,
            COALESCE((SELECT sum(a.used) FROM allocations a WHERE a.resource_provider_id = i.resource_provider_id
                      AND a.resource_class_id = i.resource_class_id), 0) AS used
     FROM inventories i JOIN resource_classes rc ON rc.id = i.resource_class_id
     WHERE i.resource_provider_id = ANY($1::int[]) AND rc.name = ANY($2::text[])`,
    [[...new Set(flat.map((f) => f.providerId))], [...new Set(flat.map((f) => f.rc))]],
  );
  const inv = new Map(invRows.map((r) => [`${r.resource_provider_id}:${r.resource_class}`, r]));
  if (flat.some((f) => !inv.has(`${f.providerId}:${f.rc}`))) {
    await classIdsOrThrow(
      em,
      flat.map((f) => f.rc),
    );
  }
  const requested = new Map<string, number>();
  for (const f of flat) {
    const key = `${f.providerId}:${f.rc}`;
    const row = inv.get(key);
    if (!row) {
      throw new ConflictError(
        `Unable to allocate inventory: Inventory for '${f.rc}' on resource provider '${f.providerUuid}' invalid.`,
        ErrorCode.ALLOCATION_NO_INVENTORY,
      );
    }
    if (f.used < row.min_unit || f.used > row.max_unit || f.used % row.step_size !== 0) {
      const base = `Unable to allocate inventory: Unable to create allocation for '${f.rc}' on resource provider '${f.providerUuid}'. The requested amount would violate inventory constraints`;
      throw withPlacementMessage(
        new ConflictError(
          `${base} (min_unit ${row.min_unit}, max_unit ${row.max_unit}, step_size ${row.step_size}; requested ${f.used}).`,
          ErrorCode.ALLOCATION_OUTSIDE_UNITS,
        ),
        `${base}.`,
      );
    }
    requested.set(key, (requested.get(key) ?? 0) + f.used);
  }
  for (const f of flat) {
    const key = `${f.providerId}:${f.rc}`;
    const row = inv.get(key)!;
    const cap = (row.total - row.reserved) * row.allocation_ratio;
    if (row.used + requested.get(key)! > cap) {
      const base = `Unable to allocate inventory: Unable to create allocation for '${f.rc}' on resource provider '${f.providerUuid}'. The requested amount would exceed the capacity`;
      throw withPlacementMessage(
        new ConflictError(
          `${base} (capacity ${capacityOf({ total: row.total, reserved: row.reserved, allocationRatio: row.allocation_ratio })}, used ${row.used}, requested ${requested.get(key)}).`,
          ErrorCode.ALLOCATION_EXCEEDS_CAPACITY,
        ),
        `${base}.`,
      );
    }
  }
  // One statement: a data-modifying CTE always runs, and the two touch different tables.
  await em.query(
    `WITH inserted AS (
       INSERT INTO allocations (resource_provider_id, consumer_id, resource_class_id, used)
       SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::int[]))
     UPDATE resource_providers SET generation = generation + 1, updated_at = now()
     WHERE id = ANY($5::int[])`,
    [
      flat.map((f) => f.providerId),
      flat.map((f) => f.consumerId),
      flat.map((f) => inv.get(`${f.providerId}:${f.rc}`)!.resource_class_id),
      flat.map((f) => f.used),
      [...new Set(bumpIds)],
    ],
  );
}
