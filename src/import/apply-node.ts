// Writes one compute node plan to berth in one transaction: provider (created or renamed), any
// custom class it needs, and its imported inventories, only when something differs, so a re-run
// leaves generations untouched (seed 001: "_migrate_inventory() uses a single DB transaction").
import type { DataSource, EntityManager } from 'typeorm';
import { noteAuditDetails } from '../placement/audit';
import { type ChangeBus, type ChangeSet, writeTransaction } from '../placement/change-bus';
import { ConflictError, ErrorCode } from '../placement/errors';
import { bumpProviderGeneration } from '../placement/generation';
import { type InventoryService, inventoriesOf } from '../placement/inventory';
import { isCustomName } from '../placement/names';
import {
  createMissingClasses,
  insertProvider,
  lockProviderByUuid,
  otherProviderNamed,
  renameProvider,
} from '../placement/provider-writes';
import type { InventoryRecord } from '../placement/types';
import {
  type ComputeNodePlan,
  IMPORTED_CLASSES,
  type PlannedInventory,
} from './legacy-compute-node';

/** What applying a plan did (or, in a dry run, would do). */
export interface AppliedNode {
  readonly action: 'created' | 'updated' | 'unchanged';
  /** Human-readable changes: `+CLASS ...`, `~CLASS field a→b`, `-CLASS`, `name a→b`. */
  readonly changes: readonly string[];
}

const FIELDS = ['total', 'reserved', 'minUnit', 'maxUnit', 'stepSize', 'allocationRatio'] as const;
const LABEL: Record<(typeof FIELDS)[number], string> = {
  total: 'total',
  reserved: 'reserved',
  minUnit: 'min_unit',
  maxUnit: 'max_unit',
  stepSize: 'step_size',
  allocationRatio: 'ratio',
};

/** Differences between the provider's imported classes and the plan, as change lines. */
export function diffInventories(
  current: readonly InventoryRecord[],
  planned: readonly PlannedInventory[],
): string[] {
  const now = new Map(
    current
      .filter((c) => IMPORTED_CLASSES.includes(c.resourceClass))
      .map((c) => [c.resourceClass, c]),
  );
  const out: string[] = [];
  for (const p of planned) {
    const c = now.get(p.resourceClass);
    now.delete(p.resourceClass);
    if (!c) {
      out.push(`+${p.resourceClass} ${FIELDS.map((f) => `${LABEL[f]}=${p[f]}`).join(' ')}`);
      continue;
    }
    const changed = FIELDS.filter((f) => c[f] !== p[f]).map((f) => `${LABEL[f]} ${c[f]}→${p[f]}`);
    if (changed.length > 0) {
      out.push(`~${p.resourceClass} ${changed.join(', ')}`);
    }
  }
  for (const gone of now.keys()) {
    out.push(`-${gone}`);
  }
  return out;
}

/** Thrown to roll a dry run back after it has computed its outcome. */
class DryRunRollback extends Error {}

async function nameOwner(em: EntityManager, name: string, uuid: string): Promise<void> {
  const owner = await otherProviderNamed(em, name, uuid);
  if (owner) {
    throw new ConflictError(
      `provider name '${name}' is already used by provider ${owner}`,
      ErrorCode.DUPLICATE_NAME,
    );
  }
}

async function ensureCustomClasses(
  em: EntityManager,
  planned: readonly PlannedInventory[],
  changes: ChangeSet,
): Promise<string[]> {
  const custom = planned.map((p) => p.resourceClass).filter(isCustomName);
  if (custom.length === 0) {
    return [];
  }
  const created = await createMissingClasses(em, custom);
  if (created.length > 0) {
    changes.catalogChanged();
  }
  return created.map((name) => `created resource class ${name}`);
}

async function applyIn(
  em: EntityManager,
  changes: ChangeSet,
  inventories: InventoryService,
  plan: ComputeNodePlan & { readonly uuid: string },
): Promise<AppliedNode> {
  const existing = await lockProviderByUuid(em, plan.uuid);
  const lines: string[] = [];
  if (!existing || existing.name !== plan.name) {
    await nameOwner(em, plan.name, plan.uuid);
  }
  let id: number;
  if (existing) {
    id = existing.id;
    if (existing.name !== plan.name) {
      await renameProvider(em, id, plan.name);
      lines.push(`name ${existing.name}→${plan.name}`);
    }
  } else {
    id = await insertProvider(em, { uuid: plan.uuid, name: plan.name });
  }
  const current = existing ? await inventoriesOf(em, [id]) : [];
  const diff = diffInventories(current, plan.inventories);
  if (diff.length > 0) {
    lines.push(...(await ensureCustomClasses(em, plan.inventories, changes)));
    const locked = await bumpProviderGeneration(em, plan.uuid);
    // Classes the importer does not own (added in berth by an operator) are kept as they are.
    const kept = current.filter((c) => !IMPORTED_CLASSES.includes(c.resourceClass));
    await inventories.writeIn(em, locked, [...kept, ...plan.inventories], 'all');
    lines.push(...diff);
  }
  if (lines.length > 0 || !existing) {
    changes.providers([id]);
  }
  const action = !existing ? 'created' : lines.length > 0 ? 'updated' : 'unchanged';
  noteAuditDetails({
    import: { providers: { [action]: 1 }, inventories: { [action]: plan.inventories.length } },
  });
  return { action, changes: lines };
}

/**
 * Applies `plan` in one transaction; with `dryRun` the same transaction runs (so conflicts and
 * in-use inventories are found) and is rolled back.
 * @throws ConflictError (name taken), InventoryInUseError (an imported class would shrink below
 *   or lose its allocations), BadRequestError (invalid inventory).
 */
export async function applyComputeNodePlan(
  ds: DataSource,
  bus: ChangeBus,
  inventories: InventoryService,
  plan: ComputeNodePlan & { readonly uuid: string },
  dryRun: boolean,
): Promise<AppliedNode> {
  if (!dryRun) {
    return writeTransaction(ds, bus, (em, changes) => applyIn(em, changes, inventories, plan));
  }
  let outcome: AppliedNode | undefined;
  try {
    await writeTransaction(ds, bus, async (em, changes) => {
      outcome = await applyIn(em, changes, inventories, plan);
      throw new DryRunRollback();
    });
  } catch (err) {
    if (!(err instanceof DryRunRollback)) {
      throw err;
    }
  }
  return outcome!;
}
