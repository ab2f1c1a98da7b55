// Compares a source provider or consumer with what berth holds under the same uuid (or name) and
// decides: create, unchanged, replace (content differs and --replace), or conflict. Pure.
import type { BerthConsumer, BerthProvider } from './berth-state';
import type { SourceAllocation, SourceConsumer, SourceInventory, SourceProvider } from './snapshot';

/** What the import does with one provider or consumer. */
export type PlanAction = 'create' | 'unchanged' | 'replace' | 'conflict';

/** The decision for one source object. */
export interface Decision<S, B> {
  readonly action: PlanAction;
  readonly source: S;
  /** Berth's row with the same uuid, if any. */
  readonly current: B | undefined;
  /** Another berth provider holding the source name (same name, different uuid). */
  readonly nameHolder?: BerthProvider;
  /**
   * A berth provider holding the source name that the source itself renames (in a later batch):
   * it is parked under a temporary name first, not deleted.
   */
  readonly parked?: BerthProvider;
  /** What differs, one phrase each (empty when create or unchanged). */
  readonly differences: string[];
}

export type ProviderDecision = Decision<SourceProvider, BerthProvider>;
export type ConsumerDecision = Decision<SourceConsumer, BerthConsumer>;

const invKey = (i: SourceInventory) =>
  `${i.resourceClass}:${i.total}/${i.reserved}/${i.minUnit}/${i.maxUnit}/${i.stepSize}/${i.allocationRatio}`;
const allocKey = (a: SourceAllocation) => `${a.providerUuid}:${a.resourceClass}=${a.used}`;

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) {
    return false;
  }
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

function field<T>(out: string[], label: string, berth: T, source: T): void {
  if (berth !== source) {
    out.push(`${label} ${String(berth)}→${String(source)}`);
  }
}

function setField(out: string[], label: string, berth: string[], source: string[]): void {
  if (!sameSet(berth, source)) {
    const b = new Set(berth);
    const s = new Set(source);
    const added = source.filter((v) => !b.has(v));
    const removed = berth.filter((v) => !s.has(v));
    const parts = [...added.map((v) => `+${v}`), ...removed.map((v) => `-${v}`)];
    out.push(`${label} differ${parts.length > 0 ? ` (${parts.slice(0, 4).join(' ')})` : ''}`);
  }
}

/** How a berth provider differs from the source one (empty: identical). */
export function providerDifferences(b: BerthProvider, s: SourceProvider): string[] {
  const out: string[] = [];
  field(out, 'name', b.name, s.name);
  field(out, 'generation', b.generation, s.generation);
  field(out, 'parent', b.parentUuid, s.parentUuid);
  field(out, 'root', b.rootUuid, s.rootUuid);
  setField(out, 'inventories', b.inventories.map(invKey), s.inventories.map(invKey));
  setField(out, 'traits', b.traits, s.traits);
  setField(out, 'aggregates', b.aggregates, s.aggregates);
  return out;
}

/** How a berth consumer differs from the source one (empty: identical). */
export function consumerDifferences(b: BerthConsumer, s: SourceConsumer): string[] {
  const out: string[] = [];
  field(out, 'project', b.project, s.project);
  field(out, 'user', b.user, s.user);
  field(out, 'generation', b.generation, s.generation);
  field(out, 'consumer type', b.consumerType, s.consumerType);
  setField(out, 'allocations', b.allocations.map(allocKey), s.allocations.map(allocKey));
  return out;
}

/** Decides every provider of a batch against berth's rows (by uuid, and by name). */
export function planProviders(
  batch: readonly SourceProvider[],
  berth: readonly BerthProvider[],
  replace: boolean,
  allSourceUuids: ReadonlySet<string> = new Set(),
): ProviderDecision[] {
  const byUuid = new Map(berth.map((b) => [b.uuid, b]));
  const byName = new Map(berth.map((b) => [b.name, b]));
  const sourceUuids = new Set(batch.map((s) => s.uuid));
  return batch.map((s) => {
    const current = byUuid.get(s.uuid);
    const holder = byName.get(s.name);
    const other = holder && holder.uuid !== s.uuid ? holder : undefined;
    // A berth provider of that name that the source has under its own uuid gets another name
    // from the source: renamed in this batch, or parked now and renamed by its own later batch.
    const renamed =
      other !== undefined && (allSourceUuids.has(other.uuid) || sourceUuids.has(other.uuid));
    const nameHolder = renamed ? undefined : other;
    const parked = renamed && !sourceUuids.has(other.uuid) ? other : undefined;
    const differences = current ? providerDifferences(current, s) : [];
    if (nameHolder) {
      differences.unshift(`name '${s.name}' is held by berth provider ${nameHolder.uuid}`);
    }
    const action: PlanAction =
      differences.length === 0
        ? current
          ? 'unchanged'
          : 'create'
        : replace
          ? current
            ? 'replace'
            : 'create'
          : 'conflict';
    return {
      action,
      source: s,
      current,
      nameHolder,
      parked,
      differences,
    };
  });
}

/** Decides every consumer of a batch against berth's rows. */
export function planConsumers(
  batch: readonly SourceConsumer[],
  berth: readonly BerthConsumer[],
  replace: boolean,
): ConsumerDecision[] {
  const byUuid = new Map(berth.map((b) => [b.uuid, b]));
  return batch.map((s) => {
    const current = byUuid.get(s.uuid);
    if (!current) {
      return { action: 'create', source: s, current, differences: [] };
    }
    const differences = consumerDifferences(current, s);
    const action: PlanAction =
      differences.length === 0 ? 'unchanged' : replace ? 'replace' : 'conflict';
    return { action, source: s, current, differences };
  });
}

/** One inventory whose allocations exceed its capacity in the source. */
export interface OverCommit {
  readonly providerUuid: string;
  readonly providerName: string;
  readonly resourceClass: string;
  readonly used: number;
  /** (total - reserved) * allocation_ratio; 0 when the provider has no such inventory. */
  readonly capacity: number;
}

/** Inventories (or classes without one) the source allocations over-commit. */
export function overCommitted(
  providers: readonly SourceProvider[],
  consumers: readonly { readonly allocations: readonly SourceAllocation[] }[],
): OverCommit[] {
  const used = new Map<string, number>();
  for (const c of consumers) {
    for (const a of c.allocations) {
      const k = `${a.providerUuid} ${a.resourceClass}`;
      used.set(k, (used.get(k) ?? 0) + a.used);
    }
  }
  const out: OverCommit[] = [];
  const byUuid = new Map(providers.map((p) => [p.uuid, p]));
  for (const [k, n] of used) {
    const [uuid, rc] = k.split(' ') as [string, string];
    const p = byUuid.get(uuid);
    const inv = p?.inventories.find((i) => i.resourceClass === rc);
    const capacity = inv ? Math.floor((inv.total - inv.reserved) * inv.allocationRatio) : 0;
    if (n > capacity) {
      out.push({
        providerUuid: uuid,
        providerName: p?.name ?? '?',
        resourceClass: rc,
        used: n,
        capacity,
      });
    }
  }
  return out.sort(
    (a, b) =>
      a.providerName.localeCompare(b.providerName) ||
      a.resourceClass.localeCompare(b.resourceClass),
  );
}
