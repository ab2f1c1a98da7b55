// Builds HostViews from batched query rows (one query per table for all candidate trees), so plugins
// never cause per-host queries (upstream: nova/scheduler/host_manager.py HostState population).
import type { HostRowSet, ProviderRow } from '../../placement/host-rows';
import type {
  AggregateView,
  AllocationRequestView,
  HostView,
  InventoryView,
  ProviderView,
} from '../plugin-api';

/** One inventory as given to `assembleHostView`; unset fields take Placement's defaults. */
export interface InventoryInput {
  readonly total: number;
  readonly reserved?: number;
  readonly minUnit?: number;
  readonly maxUnit?: number;
  readonly stepSize?: number;
  readonly allocationRatio?: number;
  readonly used?: number;
}

/** One provider as given to `assembleHostView`; an inventory may be just its total. */
export interface ProviderInput {
  readonly uuid: string;
  readonly name?: string;
  readonly parentUuid?: string | null;
  readonly generation?: number;
  readonly inventories?: Readonly<Record<string, number | InventoryInput>>;
  /** Usage per resource class (alternative to `InventoryInput.used`). */
  readonly used?: Readonly<Record<string, number>>;
  readonly traits?: readonly string[];
  /** Defaults, for the root, to the uuids of the host's `aggregates`. */
  readonly aggregateUuids?: readonly string[];
}

/** Input of `assembleHostView`: the tree (root first) and the host's aggregates. */
export interface HostViewInput {
  readonly providers: readonly ProviderInput[];
  readonly aggregates?: readonly {
    readonly uuid: string;
    readonly name?: string | null;
    readonly metadata?: Readonly<Record<string, string>>;
  }[];
  readonly allocationRequests?: readonly AllocationRequestView[];
  /** `HostView.numInstances` (default 0). */
  readonly numInstances?: number;
  /** `HostView.numIoOps` (default 0). */
  readonly numIoOps?: number;
  /** `HostView.numMovesIn` (default 0). */
  readonly numMovesIn?: number;
  /** `HostView.failedBuilds` (default 0). */
  readonly failedBuilds?: number;
}

function buildInventory(
  rc: string,
  input: number | InventoryInput,
  used: number | undefined,
): InventoryView {
  const inv: InventoryInput = typeof input === 'number' ? { total: input } : input;
  const reserved = inv.reserved ?? 0;
  const allocationRatio = inv.allocationRatio ?? 1;
  return {
    resourceClass: rc,
    total: inv.total,
    reserved,
    minUnit: inv.minUnit ?? 1,
    maxUnit: inv.maxUnit ?? inv.total,
    stepSize: inv.stepSize ?? 1,
    allocationRatio,
    used: used ?? inv.used ?? 0,
    capacity: (inv.total - reserved) * allocationRatio,
  };
}

/**
 * A `HostView` from plain data, filling Placement's inventory defaults and computing capacity (the
 * views the pipeline sees, and the plugin test kit's `buildHostView`).
 * @throws Error when the first provider is not a root.
 */
export function assembleHostView(input: HostViewInput): HostView {
  const aggregates: AggregateView[] = (input.aggregates ?? []).map((a) => ({
    uuid: a.uuid,
    name: a.name ?? null,
    metadata: { ...(a.metadata ?? {}) },
  }));
  const providers: ProviderView[] = input.providers.map((p, i) => ({
    uuid: p.uuid,
    name: p.name ?? p.uuid,
    parentUuid: p.parentUuid ?? null,
    generation: p.generation ?? 0,
    inventories: Object.fromEntries(
      Object.entries(p.inventories ?? {}).map(([rc, inv]) => [
        rc,
        buildInventory(rc, inv, p.used?.[rc]),
      ]),
    ),
    traits: [...(p.traits ?? [])],
    aggregateUuids: [...(p.aggregateUuids ?? (i === 0 ? aggregates.map((a) => a.uuid) : []))],
  }));
  const root = providers[0];
  if (root === undefined || root.parentUuid !== null) {
    throw new Error('assembleHostView: the first provider must be the root (no parentUuid)');
  }
  return {
    uuid: root.uuid,
    name: root.name,
    root,
    providers,
    aggregates,
    allocationRequests: [...(input.allocationRequests ?? [])],
    numInstances: input.numInstances ?? 0,
    numIoOps: input.numIoOps ?? 0,
    numMovesIn: input.numMovesIn ?? 0,
    failedBuilds: input.failedBuilds ?? 0,
  };
}

/** Everything loaded for a batch of candidate trees, with each tree's allocation request. */
export interface HostRows extends HostRowSet {
  readonly allocationRequests?: readonly {
    readonly rootUuid: string;
    readonly request: AllocationRequestView;
  }[];
}

function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list === undefined) {
      groups.set(key(row), [row]);
    } else {
      list.push(row);
    }
  }
  return groups;
}

function treeOrder(rootUuid: string, providers: readonly ProviderRow[]): ProviderRow[] {
  const children = groupBy(
    providers.filter((p) => p.parentUuid !== null),
    (p) => p.parentUuid!,
  );
  const root = providers.find((p) => p.uuid === rootUuid && p.parentUuid === null);
  if (root === undefined) {
    throw new Error(`buildHostViews: no root provider row for tree ${rootUuid}`);
  }
  const ordered = [root];
  for (let i = 0; i < ordered.length; i += 1) {
    ordered.push(...(children.get(ordered[i]!.uuid) ?? []));
  }
  if (ordered.length !== providers.length) {
    throw new Error(
      `buildHostViews: tree ${rootUuid} has providers whose parent is not in the tree`,
    );
  }
  return ordered;
}

/**
 * Groups batched rows into one `HostView` per tree, root first and parents before children.
 * Hosts come out in `rootOrder` (default: first appearance of each root in `rows.providers`).
 * @throws Error when a tree has no root row or a provider's parent is missing.
 */
export function buildHostViews(rows: HostRows, rootOrder?: readonly string[]): HostView[] {
  const byRoot = groupBy(rows.providers, (p) => p.rootUuid);
  const inventories = groupBy(rows.inventories, (r) => r.providerUuid);
  const usages = groupBy(rows.usages, (r) => `${r.providerUuid}\u0000${r.resourceClass}`);
  const traits = groupBy(rows.traits, (r) => r.providerUuid);
  const memberships = groupBy(rows.memberships, (r) => r.providerUuid);
  const metadata = groupBy(rows.aggregateMetadata, (r) => r.aggregateUuid);
  const names = new Map((rows.aggregates ?? []).map((a) => [a.uuid, a.name]));
  const requests = groupBy(rows.allocationRequests ?? [], (r) => r.rootUuid);
  const counts = new Map((rows.hostCounts ?? []).map((c) => [c.rootUuid, c]));
  return (rootOrder ?? [...byRoot.keys()]).map((rootUuid) => {
    const providers: ProviderInput[] = treeOrder(rootUuid, byRoot.get(rootUuid) ?? []).map((p) => ({
      uuid: p.uuid,
      name: p.name,
      parentUuid: p.parentUuid,
      generation: p.generation ?? 0,
      inventories: Object.fromEntries(
        (inventories.get(p.uuid) ?? []).map((inv): [string, InventoryInput] => {
          const used = usages
            .get(`${p.uuid}\u0000${inv.resourceClass}`)
            ?.reduce((sum, u) => sum + u.used, 0);
          return [inv.resourceClass, { ...inv, used: used ?? 0 }];
        }),
      ),
      traits: (traits.get(p.uuid) ?? []).map((t) => t.trait),
      aggregateUuids: (memberships.get(p.uuid) ?? []).map((m) => m.aggregateUuid),
    }));
    const hostAggregates = providers[0]!.aggregateUuids!.map((uuid) => ({
      uuid,
      name: names.get(uuid) ?? null,
      metadata: Object.fromEntries((metadata.get(uuid) ?? []).map((m) => [m.key, m.value])),
    }));
    return assembleHostView({
      providers,
      aggregates: hostAggregates,
      allocationRequests: (requests.get(rootUuid) ?? []).map((r) => r.request),
      numInstances: counts.get(rootUuid)?.numInstances ?? 0,
      numIoOps: counts.get(rootUuid)?.numIoOps ?? 0,
      numMovesIn: counts.get(rootUuid)?.numMovesIn ?? 0,
      failedBuilds: counts.get(rootUuid)?.failedBuilds ?? 0,
    });
  });
}
