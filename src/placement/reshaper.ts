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
import { BadRequestError, ConcurrentUpdateError } from './errors';
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
   * Applies every inventory and allocation change in one transaction, or none.
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
        throw new BadRequestError(`Resource provider(s) not found: ${missing.join(', ')}`);
      }
      await this.allocations.setIn(
        em,
        allocs,
        opts,
        (ids) => changes.providers(ids),
        [...idOf.values()],
        async (generations) => {
          for (const inv of invs) {
            const id = idOf.get(inv.providerUuid)!;
            const now = generations.get(id);
            if (now !== inv.generation + 1) {
              throw new ConcurrentUpdateError(
                `resource provider generation conflict: ${inv.providerUuid} is at generation ${(now ?? 0) - 1}, not ${inv.generation}.`,
              );
            }
            await this.inventories.setAllIn(
              em,
              { id, uuid: inv.providerUuid, generation: now, rootProviderId: 0 },
              inv.inventories,
              opts,
            );
          }
        },
      );
    });
  }
}
