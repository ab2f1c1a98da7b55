// Provider generations: the compare-and-swap that serialises every write to a provider
// (upstream: resource_provider.py increment_generation / _increment_provider_generation).
import type { EntityManager } from 'typeorm';
import { rowsOf } from '../db/rows';
import { ConcurrentUpdateError, ErrorCode, NotFoundError } from './errors';
import { normalizeUuidOrThrow } from './uuid';

/** A provider row locked by the current transaction. */
export interface LockedProvider {
  readonly id: number;
  readonly uuid: string;
  /** The generation after this transaction's increment. */
  readonly generation: number;
  readonly rootProviderId: number;
}

/**
 * Increments the provider's generation, guarded by `expected` when given, and thereby takes its
 * row lock until commit: concurrent writers of the same provider queue here, and a stale
 * generation fails at once instead of after work.
 * @throws NotFoundError (no such provider); ConcurrentUpdateError (stale generation).
 */
export async function bumpProviderGeneration(
  em: EntityManager,
  uuid: string,
  expected?: number | null,
): Promise<LockedProvider> {
  const id = normalizeUuidOrThrow(uuid, 'resource provider uuid');
  const rows = rowsOf<{ id: number; generation: number; root_provider_id: number }>(
    await em.query(
      `UPDATE resource_providers SET generation = generation + 1, updated_at = now()
     WHERE uuid = $1 AND ($2::int IS NULL OR generation = $2::int)
     RETURNING id, generation, root_provider_id`,
      [id, expected ?? null],
    ),
  );
  if (rows[0]) {
    return {
      id: rows[0].id,
      uuid: id,
      generation: rows[0].generation,
      rootProviderId: rows[0].root_provider_id,
    };
  }
  const exists: unknown[] = await em.query('SELECT 1 FROM resource_providers WHERE uuid = $1', [
    id,
  ]);
  if (exists.length === 0) {
    throw new NotFoundError(
      `No resource provider with uuid ${id} found`,
      ErrorCode.RESOURCE_PROVIDER_NOT_FOUND,
    );
  }
  throw new ConcurrentUpdateError(
    `resource provider generation conflict: provider ${id} has changed since generation ${expected}; re-read it and retry.`,
  );
}

/**
 * Increments the generations of providers this transaction has already locked: one step of a
 * multi-step write, as Placement's increment_generation.
 * @returns id -> new generation.
 */
export async function incrementGenerationsById(
  em: EntityManager,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) {
    return new Map();
  }
  const rows = rowsOf<{ id: number; generation: number }>(
    await em.query(
      `UPDATE resource_providers SET generation = generation + 1, updated_at = now()
       WHERE id = ANY($1::int[]) RETURNING id, generation`,
      [unique],
    ),
  );
  return new Map(rows.map((r) => [r.id, r.generation]));
}
