// The consumer side of an allocation write, set-based so that writing many consumers (POST
// /allocations, a batch of scheduler claims) costs the same few statements as writing one:
// owners ensured once, consumers locked or created in uuid order, then updated or dropped.
import type { EntityManager } from 'typeorm';
import type { AllocationWriteOptions, ConsumerAllocationsInput } from './allocation-write';
import { ensureOwners, INCOMPLETE_CONSUMER_ID, type OwnerIds } from './consumer';
import { ConcurrentUpdateError, withPlacementMessage } from './errors';

/** A consumer locked for this transaction. */
export interface LockedConsumer {
  readonly id: number;
  readonly uuid: string;
  /**
   * Created by this write: inserted with its final owner, type and generation 1 (the generation
   * a new consumer has after its first write), so {@link finishConsumers} leaves it alone.
   */
  readonly isNew: boolean;
}

const projectOf = (c: ConsumerAllocationsInput) => c.projectId ?? INCOMPLETE_CONSUMER_ID;
const userOf = (c: ConsumerAllocationsInput) => c.userId ?? INCOMPLETE_CONSUMER_ID;

/** Ensures the projects, users and consumer types the write names (one round trip). */
export function ensureOwnersOf(
  em: EntityManager,
  inputs: readonly ConsumerAllocationsInput[],
): Promise<OwnerIds> {
  return ensureOwners(
    em,
    inputs.map(projectOf),
    inputs.map(userOf),
    inputs.flatMap((c) => (c.consumerType ? [c.consumerType] : [])),
  );
}

/** The generation conflict; Placement's words print a missing generation as Python's `None`. */
const conflict = (expected: number | null, got: number | null | undefined) =>
  withPlacementMessage(
    new ConcurrentUpdateError(
      `consumer generation conflict - expected ${expected} but got ${got ?? null}`,
    ),
    `consumer generation conflict - expected ${expected} but got ${got ?? 'None'}`,
  );

/**
 * Locks the existing consumers of the request in uuid order, checking their generations, and
 * creates the new ones in one statement. A consumer the caller says is new (generation null) is
 * inserted directly; if it exists after all, the write fails with the generation it has.
 * @throws ConcurrentUpdateError on a generation mismatch or a consumer created concurrently.
 */
export async function lockConsumers(
  em: EntityManager,
  inputs: readonly ConsumerAllocationsInput[],
  opts: AllocationWriteOptions,
  owners: OwnerIds,
): Promise<Map<string, LockedConsumer>> {
  const check = opts.checkConsumerGeneration ?? true;
  const sorted = [...inputs].sort((a, b) => a.consumerUuid.localeCompare(b.consumerUuid));
  const expectNew = (c: ConsumerAllocationsInput) => check && c.consumerGeneration === null;
  const out = new Map<string, LockedConsumer>();
  const toCreate = sorted.filter(expectNew);
  const maybeExisting = sorted.filter((c) => !expectNew(c));
  if (maybeExisting.length > 0) {
    const rows: { id: number; uuid: string; generation: number }[] = await em.query(
      'SELECT id, uuid, generation FROM consumers WHERE uuid = ANY($1::uuid[]) ORDER BY uuid FOR UPDATE',
      [maybeExisting.map((c) => c.consumerUuid)],
    );
    const found = new Map(rows.map((r) => [r.uuid, r]));
    for (const c of maybeExisting) {
      const existing = found.get(c.consumerUuid);
      if (existing) {
        if (check && c.consumerGeneration !== existing.generation) {
          throw conflict(existing.generation, c.consumerGeneration);
        }
        out.set(c.consumerUuid, { id: existing.id, uuid: c.consumerUuid, isNew: false });
      } else if (check && c.consumerGeneration !== undefined) {
        throw conflict(null, c.consumerGeneration);
      } else {
        toCreate.push(c);
      }
    }
  }
  if (toCreate.length === 0) {
    return out;
  }
  toCreate.sort((a, b) => a.consumerUuid.localeCompare(b.consumerUuid));
  const inserted: { id: number; uuid: string }[] = await em.query(
    `INSERT INTO consumers (uuid, project_id, user_id, consumer_type_id, generation)
     SELECT u, p, us, t, 1 FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[]) AS v(u, p, us, t)
     ON CONFLICT (uuid) DO NOTHING RETURNING id, uuid`,
    [
      toCreate.map((c) => c.consumerUuid),
      toCreate.map((c) => owners.projects.get(projectOf(c))),
      toCreate.map((c) => owners.users.get(userOf(c))),
      toCreate.map((c) => (c.consumerType ? owners.types.get(c.consumerType) : null)),
    ],
  );
  const created = new Map(inserted.map((r) => [r.uuid, r.id]));
  const lost = toCreate.find((c) => !created.has(c.consumerUuid));
  if (lost) {
    // Error path only: say which generation the consumer has, as a lock-first write would.
    const rows: { generation: number }[] = await em.query(
      'SELECT generation FROM consumers WHERE uuid = $1',
      [lost.consumerUuid],
    );
    throw rows[0] && expectNew(lost)
      ? conflict(rows[0].generation, lost.consumerGeneration)
      : new ConcurrentUpdateError(
          `consumer generation conflict - consumer ${lost.consumerUuid} was created concurrently; expected null`,
        );
  }
  for (const c of toCreate) {
    out.set(c.consumerUuid, {
      id: created.get(c.consumerUuid)!,
      uuid: c.consumerUuid,
      isNew: true,
    });
  }
  return out;
}

/**
 * Deletes consumers left without allocations (Placement deletes empty consumers); for the
 * existing ones that keep allocations, increments the generation and sets project/user/type.
 * New consumers were inserted final. At most two statements, whatever the number of consumers.
 */
export async function finishConsumers(
  em: EntityManager,
  inputs: readonly ConsumerAllocationsInput[],
  consumers: ReadonlyMap<string, LockedConsumer>,
  owners: OwnerIds,
): Promise<void> {
  const emptied = inputs.filter((c) => c.allocations.length === 0);
  if (emptied.length > 0) {
    await em.query('DELETE FROM consumers WHERE id = ANY($1::int[])', [
      emptied.map((c) => consumers.get(c.consumerUuid)!.id),
    ]);
  }
  const kept = inputs.filter(
    (c) => c.allocations.length > 0 && !consumers.get(c.consumerUuid)!.isNew,
  );
  if (kept.length === 0) {
    return;
  }
  // Before 1.8 an existing consumer keeps its project/user when none is given.
  await em.query(
    `UPDATE consumers c SET generation = c.generation + 1, updated_at = now(),
       project_id = CASE WHEN v.keep THEN c.project_id ELSE v.p END,
       user_id = CASE WHEN v.keep THEN c.user_id ELSE v.us END,
       consumer_type_id = CASE WHEN v.settype THEN v.t ELSE c.consumer_type_id END
     FROM unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::bool[], $6::bool[])
       AS v(id, p, us, t, keep, settype)
     WHERE c.id = v.id`,
    [
      kept.map((c) => consumers.get(c.consumerUuid)!.id),
      kept.map((c) => owners.projects.get(projectOf(c))),
      kept.map((c) => owners.users.get(userOf(c))),
      kept.map((c) => (c.consumerType ? owners.types.get(c.consumerType) : null)),
      kept.map((c) => c.projectId === undefined || c.projectId === null),
      kept.map((c) => c.consumerType !== undefined),
    ],
  );
}
