// Inventories of a provider: list, replace all, add, update or delete one
// (upstream: objects/inventory.py and the inventory half of objects/resource_provider.py).
import type { DataSource, EntityManager } from 'typeorm';
import { noteAuditDetails } from './audit';
import { type ChangeBus, writeTransaction } from './change-bus';
import {
  BadRequestError,
  ConflictError,
  ErrorCode,
  InventoryInUseError,
  NotFoundError,
} from './errors';
import { bumpProviderGeneration, type LockedProvider } from './generation';
import {
  type InventoryInput,
  type InventoryWriteOptions,
  type NormalizedInventory,
  normalizeInventory,
} from './inventory-rules';
import type { ResourceProviderService } from './resource-provider';
import {
  capacityOf,
  type InventoryColumns,
  type InventoryRecord,
  type ResourceProviderRecord,
} from './types';

interface InvRow extends InventoryColumns {
  readonly resource_class: string;
  readonly used: number;
  readonly updated_at: Date;
}

/** Inventories (with usage) of providers, by provider id then class id. */
export async function inventoriesOf(
  em: EntityManager,
  providerIds: readonly number[],
): Promise<InventoryRecord[]> {
  const rows: InvRow[] = await em.query(
    `SELECT i.resource_provider_id, c.name AS resource_class, i.total, i.reserved, i.min_unit, i.max_unit,
            i.step_size, i.allocation_ratio, i.updated_at,
            COALESCE((SELECT sum(a.used) FROM allocations a
                      WHERE a.resource_provider_id = i.resource_provider_id
                        AND a.resource_class_id = i.resource_class_id), 0) AS used
     FROM inventories i JOIN resource_classes c ON c.id = i.resource_class_id
     WHERE i.resource_provider_id = ANY($1::int[])
     ORDER BY i.resource_provider_id, i.resource_class_id`,
    [providerIds],
  );
  return rows.map((r) => ({
    resourceProviderId: r.resource_provider_id,
    resourceClass: r.resource_class,
    total: r.total,
    reserved: r.reserved,
    minUnit: r.min_unit,
    maxUnit: r.max_unit,
    stepSize: r.step_size,
    allocationRatio: r.allocation_ratio,
    capacity: capacityOf({
      total: r.total,
      reserved: r.reserved,
      allocationRatio: r.allocation_ratio,
    }),
    used: r.used,
    updatedAt: r.updated_at,
  }));
}

/**
 * Resolves class names to ids, locking them against deletion (FOR KEY SHARE).
 * @throws BadRequestError "No such resource class X." for the first unknown class in `names`
 *   order (Placement's ResourceClassNotFound from rc_cache.id_from_string).
 */
export async function classIdsOrThrow(
  em: EntityManager,
  names: readonly string[],
): Promise<Map<string, number>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) {
    return new Map();
  }
  const rows: { id: number; name: string }[] = await em.query(
    'SELECT id, name FROM resource_classes WHERE name = ANY($1::text[]) FOR KEY SHARE',
    [unique],
  );
  const map = new Map(rows.map((r) => [r.name, r.id]));
  const missing = unique.find((n) => !map.has(n));
  if (missing !== undefined) {
    throw new BadRequestError(
      `No such resource class ${missing}.`,
      ErrorCode.RESOURCE_CLASS_NOT_FOUND,
    );
  }
  return map;
}

/** What an inventory write wrote (for its audit event). */
interface Written {
  readonly set: readonly NormalizedInventory[];
  readonly removed: readonly string[];
}

/** A provider with its inventories. */
export interface ProviderInventories {
  readonly provider: ResourceProviderRecord;
  readonly inventories: InventoryRecord[];
}

/** Inventory operations. */
export class InventoryService {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: ChangeBus,
    private readonly providers: ResourceProviderService,
  ) {}

  /** The provider's inventories with usage. @throws NotFoundError. */
  async list(uuid: string, em: EntityManager = this.ds.manager): Promise<ProviderInventories> {
    const provider = await this.providers.get(uuid, em);
    return { provider, inventories: await inventoriesOf(em, [provider.id]) };
  }

  /**
   * Replaces all inventories (PUT /resource_providers/{uuid}/inventories).
   * @throws NotFoundError; ConcurrentUpdateError; BadRequestError; InventoryInUseError.
   */
  async setAll(
    uuid: string,
    generation: number,
    inventories: readonly InventoryInput[],
    opts: InventoryWriteOptions = {},
  ): Promise<ProviderInventories> {
    const normalized = inventories.map((i) => normalizeInventory(i, opts));
    const seen = new Set<string>();
    for (const inv of normalized) {
      if (seen.has(inv.resourceClass)) {
        throw new BadRequestError(
          `Duplicate resource class ${inv.resourceClass} in inventories.`,
          ErrorCode.INVALID_INPUT,
        );
      }
      seen.add(inv.resourceClass);
    }
    return this.write(uuid, generation, async (em, rp) => ({
      set: normalized,
      removed: await this.replace(em, rp, normalized, 'all', opts),
    }));
  }

  /**
   * Writes inventories of a provider the caller has locked, in the caller's transaction, without
   * touching its generation: 'all' replaces every inventory (reshaper final step, legacy import),
   * 'merge' adds or updates the listed ones and keeps the others (the reshaper's interim "union").
   * @throws BadRequestError; InventoryInUseError.
   */
  async writeIn(
    em: EntityManager,
    rp: LockedProvider,
    inventories: readonly InventoryInput[],
    mode: 'all' | 'merge',
    opts: InventoryWriteOptions = {},
  ): Promise<void> {
    await this.replace(
      em,
      rp,
      inventories.map((i) => normalizeInventory(i, opts)),
      mode,
      opts,
    );
  }

  /**
   * Adds one inventory of a class the provider does not have yet (POST .../inventories).
   * @throws ConflictError when it exists already; NotFoundError; BadRequestError.
   */
  async add(
    uuid: string,
    inv: InventoryInput,
    opts: InventoryWriteOptions = {},
  ): Promise<ProviderInventories> {
    const n = normalizeInventory(inv, opts);
    return this.write(uuid, null, async (em, rp) => {
      const ids = await classIdsOrThrow(em, [n.resourceClass]);
      const exists: unknown[] = await em.query(
        'SELECT 1 FROM inventories WHERE resource_provider_id = $1 AND resource_class_id = $2',
        [rp.id, ids.get(n.resourceClass)],
      );
      if (exists.length > 0) {
        throw new ConflictError(
          `Unable to create inventory for resource provider ${rp.uuid}: Inventory for ${n.resourceClass} already exists.`,
          ErrorCode.INVENTORY_EXISTS,
        );
      }
      await this.replace(em, rp, [n], 'merge', opts);
      return { set: [n], removed: [] };
    });
  }

  /**
   * Updates one existing inventory (PUT .../inventories/{class}).
   * @throws NotFoundError (provider or inventory); ConcurrentUpdateError; InventoryInUseError.
   */
  async update(
    uuid: string,
    generation: number,
    inv: InventoryInput,
    opts: InventoryWriteOptions = {},
  ): Promise<ProviderInventories> {
    const n = normalizeInventory(inv, opts);
    return this.write(uuid, generation, async (em, rp) => {
      const ids = await classIdsOrThrow(em, [n.resourceClass]);
      const exists: unknown[] = await em.query(
        'SELECT 1 FROM inventories WHERE resource_provider_id = $1 AND resource_class_id = $2',
        [rp.id, ids.get(n.resourceClass)],
      );
      if (exists.length === 0) {
        throw new BadRequestError(
          `No inventory record with resource class ${n.resourceClass} for resource provider ${rp.uuid}.`,
          ErrorCode.INVENTORY_NOT_FOUND,
        );
      }
      await this.replace(em, rp, [n], 'merge', opts);
      return { set: [n], removed: [] };
    });
  }

  /**
   * Deletes one inventory; `generation` guards it when given.
   * @throws NotFoundError; ConcurrentUpdateError; InventoryInUseError.
   */
  async delete(
    uuid: string,
    resourceClass: string,
    generation?: number | null,
  ): Promise<ProviderInventories> {
    return this.write(uuid, generation ?? null, async (em, rp) => {
      const rows: { id: number }[] = await em.query(
        `SELECT i.id FROM inventories i JOIN resource_classes c ON c.id = i.resource_class_id
         WHERE i.resource_provider_id = $1 AND c.name = $2`,
        [rp.id, resourceClass],
      );
      if (rows.length === 0) {
        throw new NotFoundError(
          `No inventory of class ${resourceClass} found for delete`,
          ErrorCode.INVENTORY_NOT_FOUND,
        );
      }
      await this.assertUnused(em, rp, [resourceClass]);
      await em.query('DELETE FROM inventories WHERE id = $1', [rows[0]!.id]);
      return { set: [], removed: [resourceClass] };
    });
  }

  /**
   * Deletes every inventory of the provider (DELETE .../inventories, 1.5).
   * @throws NotFoundError; ConcurrentUpdateError; InventoryInUseError.
   */
  async deleteAll(uuid: string, generation?: number | null): Promise<ProviderInventories> {
    return this.write(uuid, generation ?? null, async (em, rp) => ({
      set: [],
      removed: await this.replace(em, rp, [], 'all', {}),
    }));
  }

  private async write(
    uuid: string,
    generation: number | null,
    fn: (em: EntityManager, rp: LockedProvider) => Promise<Written>,
  ): Promise<ProviderInventories> {
    return writeTransaction(this.ds, this.bus, async (em, changes) => {
      const rp = await bumpProviderGeneration(em, uuid, generation);
      const { set, removed } = await fn(em, rp);
      // The audit event says what was written (an inventory set to 0 shows as total 0).
      noteAuditDetails({
        inventories: {
          provider: rp.uuid,
          set: Object.fromEntries(
            set.map((i) => [
              i.resourceClass,
              { total: i.total, reserved: i.reserved, allocation_ratio: i.allocationRatio },
            ]),
          ),
          ...(removed.length > 0 ? { removed } : {}),
        },
      });
      changes.providers([rp.id]);
      const provider = await this.providers.get(rp.uuid, em);
      return { provider, inventories: await inventoriesOf(em, [rp.id]) };
    });
  }

  private async assertUnused(
    em: EntityManager,
    rp: LockedProvider,
    classes: readonly string[],
  ): Promise<void> {
    const rows: { name: string }[] = await em.query(
      `SELECT c.name FROM allocations a JOIN resource_classes c ON c.id = a.resource_class_id
       WHERE a.resource_provider_id = $1 AND c.name = ANY($2::text[])
       GROUP BY c.id, c.name ORDER BY c.id`,
      [rp.id, classes],
    );
    if (rows.length > 0) {
      throw new InventoryInUseError(
        `Inventory for '${rows.map((r) => r.name).join(', ')}' on resource provider '${rp.uuid}' in use.`,
      );
    }
  }

  /**
   * Writes `invs` to the (locked) provider. 'all' removes classes not listed; 'merge' keeps them.
   * Refuses to remove a class with allocations, and to shrink capacity below current usage unless
   * `opts.allowCapacityBelowUsage`. Returns the classes it removed.
   */
  private async replace(
    em: EntityManager,
    rp: LockedProvider,
    invs: readonly NormalizedInventory[],
    mode: 'all' | 'merge',
    opts: InventoryWriteOptions,
  ): Promise<string[]> {
    const ids = await classIdsOrThrow(
      em,
      invs.map((i) => i.resourceClass),
    );
    const current: { resource_class_id: number; name: string; used: number }[] = await em.query(
      `SELECT i.resource_class_id, c.name,
              COALESCE((SELECT sum(a.used) FROM allocations a WHERE a.resource_provider_id = i.resource_provider_id
                        AND a.resource_class_id = i.resource_class_id), 0) AS used
       FROM inventories i JOIN resource_classes c ON c.id = i.resource_class_id
       WHERE i.resource_provider_id = $1`,
      [rp.id],
    );
    const removed = mode === 'all' ? current.filter((c) => !ids.has(c.name)) : [];
    if (removed.length > 0) {
      await this.assertUnused(
        em,
        rp,
        removed.map((r) => r.name),
      );
      await em.query(
        'DELETE FROM inventories WHERE resource_provider_id = $1 AND resource_class_id = ANY($2::int[])',
        [rp.id, removed.map((r) => r.resource_class_id)],
      );
    }
    const usedBy = new Map(current.map((c) => [c.name, c.used]));
    for (const inv of opts.allowCapacityBelowUsage ? [] : invs) {
      const used = usedBy.get(inv.resourceClass) ?? 0;
      if (used > capacityOf(inv)) {
        throw new InventoryInUseError(
          `Inventory for '${inv.resourceClass}' on resource provider '${rp.uuid}' in use: ${used} allocated exceeds the new capacity ${capacityOf(inv)}.`,
        );
      }
    }
    if (invs.length === 0) {
      return removed.map((r) => r.name);
    }
    await em.query(
      `INSERT INTO inventories (resource_provider_id, resource_class_id, total, reserved, min_unit, max_unit, step_size, allocation_ratio)
       SELECT $1::int, * FROM unnest($2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::int[], $8::float8[])
       ON CONFLICT (resource_provider_id, resource_class_id) DO UPDATE SET
         total = EXCLUDED.total, reserved = EXCLUDED.reserved, min_unit = EXCLUDED.min_unit,
         max_unit = EXCLUDED.max_unit, step_size = EXCLUDED.step_size,
         allocation_ratio = EXCLUDED.allocation_ratio, updated_at = now()`,
      [
        rp.id,
        invs.map((i) => ids.get(i.resourceClass)),
        invs.map((i) => i.total),
        invs.map((i) => i.reserved),
        invs.map((i) => i.minUnit),
        invs.map((i) => i.maxUnit),
        invs.map((i) => i.stepSize),
        invs.map((i) => i.allocationRatio),
      ],
    );
    return removed.map((r) => r.name);
  }
}
