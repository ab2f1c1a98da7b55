// Builds HostViews from batched query rows (one query per table for all candidate trees), so plugins
// never cause per-host queries (upstream: nova/scheduler/host_manager.py HostState population).
import type { HostRowSet, ProviderRow } from '../../placement/host-rows';
import { buildHostView, type InventoryInput, type ProviderInput } from '../helpers';
import type { AllocationRequestView, HostView } from '../plugin-api';

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
    return buildHostView({
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
