// The reshaper: atomically replace inventories of several providers and allocations of several
// consumers, e.g. moving VCPU from a root to its NUMA children (upstream: objects/reshaper.py,
// handlers/reshaper.py).
import type { DataSource } from 'typeorm';
import type { AllocationService } from './allocation';
import {
  type AllocationWriteOptions,
  type ConsumerAllocationsInput,
  normalizeInputsOrThrow,
} from './allocation-write';
import { type ChangeBus, writeTransaction } from './change-bus';
import { BadRequestError, ConcurrentUpdateError, ErrorCode } from './errors';
import { incrementGenerationsById, type LockedProvider } from './generation';
import type { InventoryService } from './inventory';
import type { InventoryInput, InventoryWriteOptions } from './inventory-rules';
import { normalizeUuidOrThrow } from './uuid';

/** The reshaper request. */
export interface ReshapeInput {
  readonly inventories: readonly {
    readonly providerUuid: string;
    readonly generation: number;
    readonly inventories: readonly InventoryInput[];
  }[];
  readonly allocations: readonly ConsumerAllocationsInput[];
}

/** Reshaper operation. */
export class ReshaperService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
    private readonly inventories: InventoryService,
    private readonly allocations: AllocationService,
  ) {}

  /**
   * Applies every inventory and allocation change in one transaction, or none, in Placement's
   * order (objects/reshaper.py): an interim "union" inventory per provider (the new inventories
   * plus the old ones they drop, capacity below usage allowed; skipped for an empty list), then
   * the allocations, then the final inventories. Each step bumps the generations it touches, so a
   * provider in both inventories and allocations ends 3 generations later, and an over-capacity
   * allocation fails as "Unable to allocate inventory" before any inventory-in-use check.
   * Every provider involved is locked first, in id order.
   * @throws BadRequestError; NotFoundError-as-BadRequest for unknown providers;
   *   ConcurrentUpdateError (provider or consumer generations); ConflictError; InventoryInUseError.
   */
  async reshape(
    input: ReshapeInput,
    opts: AllocationWriteOptions & InventoryWriteOptions = {},
  ): Promise<void> {
    const invs = input.inventories.map((i) => ({
      ...i,
      providerUuid: normalizeUuidOrThrow(i.providerUuid, 'resource provider uuid'),
    }));
    if (new Set(invs.map((i) => i.providerUuid)).size !== invs.length) {
      throw new BadRequestError(
        'A resource provider appears more than once in the reshaper inventories.',
        ErrorCode.INVALID_INPUT,
      );
    }
    const allocs = normalizeInputsOrThrow(input.allocations);
    await writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rows: { id: number; uuid: string }[] = await em.query(
        'SELECT id, uuid FROM resource_providers WHERE uuid = ANY($1::uuid[])',
        [invs.map((i) => i.providerUuid)],
      );
      const idOf = new Map(rows.map((r) => [r.uuid, r.id]));
      const missing = invs.filter((i) => !idOf.has(i.providerUuid)).map((i) => i.providerUuid);
      if (missing.length > 0) {
        throw new BadRequestError(
          `Resource provider(s) not found: ${missing.join(', ')}`,
          ErrorCode.UNKNOWN_PROVIDER,
        );
      }
      const locked = (inv: (typeof invs)[number]): LockedProvider => ({
        id: idOf.get(inv.providerUuid)!,
        uuid: inv.providerUuid,
        generation: inv.generation,
        rootProviderId: 0,
      });
      // Step 2 (the allocations) is setIn itself; step 1 runs in its beforeInsert hook, once
      // every provider involved is locked and the old allocations are gone.
      await this.allocations.setIn(
        em,
        allocs,
        opts,
        (ids, projects) => changes.providers(ids, projects),
        [...idOf.values()],
        async (generations) => {
          for (const inv of invs) {
            const now = generations.get(idOf.get(inv.providerUuid)!);
            if (now !== inv.generation) {
              throw new ConcurrentUpdateError(
                `resource provider generation conflict: ${inv.providerUuid} is at generation ${now ?? 'unknown'}, not ${inv.generation}.`,
              );
            }
          }
          // Step 1: the interim inventory (an empty new list would replace nothing: skipped).
          const interim = invs.filter((inv) => inv.inventories.length > 0);
          for (const inv of interim) {
            await this.inventories.writeIn(em, locked(inv), inv.inventories, 'merge', {
              ...opts,
              allowCapacityBelowUsage: true,
            });
          }
          await incrementGenerationsById(
            em,
            interim.map((inv) => idOf.get(inv.providerUuid)!),
          );
        },
      );
      // Step 3: the final inventories, checked against the allocations just written.
      for (const inv of invs) {
        await this.inventories.writeIn(em, locked(inv), inv.inventories, 'all', opts);
      }
      await incrementGenerationsById(em, [...idOf.values()]);
    });
  }
}
