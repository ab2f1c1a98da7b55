// Per-request DataLoaders over the domain services, so GraphQL field resolvers never cause N+1
// queries: every batch function makes one service call for all keys and returns one entry per key,
// in key order (an empty list or null for unknown keys, never a throw for one bad key).
import DataLoader from 'dataloader';
import type { Services } from '../../app/services';
import { inventoriesOf } from '../../placement/inventory';
import type {
  AggregateRecord,
  AllocationRecord,
  ConsumerRecord,
  InventoryRecord,
  ResourceProviderRecord,
  UsageRecord,
} from '../../placement/types';
import { groupByKeys, pickInKeyOrder, presentOrThrow } from './group';

/** The DataLoaders of one GraphQL request. Keys are internal ids unless the name says uuid. */
export interface Loaders {
  readonly providerById: DataLoader<number, ResourceProviderRecord | null>;
  /** Provider by uuid (any accepted uuid form). */
  readonly providerByUuid: DataLoader<string, ResourceProviderRecord | null>;
  /** Direct children of a provider, by id. Keyed by the record (its tree bounds the search). */
  readonly childrenByProviderId: DataLoader<
    ResourceProviderRecord,
    ResourceProviderRecord[],
    number
  >;
  /** Inventories with capacity and used. */
  readonly inventoriesByProviderId: DataLoader<number, InventoryRecord[]>;
  readonly usagesByProviderId: DataLoader<number, UsageRecord[]>;
  /** Trait names, sorted. */
  readonly traitsByProviderId: DataLoader<number, string[]>;
  /** Aggregates the provider is a member of, sorted by uuid. */
  readonly aggregatesByProviderId: DataLoader<number, AggregateRecord[]>;
  /** Aggregate by canonical uuid. */
  readonly aggregateByUuid: DataLoader<string, AggregateRecord | null>;
  /** Member providers of an aggregate (canonical uuid), by id. */
  readonly providersByAggregateUuid: DataLoader<string, ResourceProviderRecord[]>;
  readonly allocationsByProviderId: DataLoader<number, AllocationRecord[]>;
  readonly allocationsByConsumerId: DataLoader<number, AllocationRecord[]>;
  readonly consumerById: DataLoader<number, ConsumerRecord | null>;
  /** Remembers providers a resolver already has, so their parent/root lookups cost nothing. */
  primeProviders(providers: readonly ResourceProviderRecord[]): void;
  /** Forgets every cached value; mutations call it after writing, before resolving their payload. */
  clearAll(): void;
}

/** Direct children of `parents`, in one query per batch. */
async function childrenOf(
  services: Services,
  parents: readonly ResourceProviderRecord[],
): Promise<ResourceProviderRecord[][]> {
  const ids = parents.map((p) => p.id);
  return pickInKeyOrder(ids, await services.providers.byParentIds(ids), []);
}

/** Creates fresh, empty DataLoaders for one request over `services`. */
export function createLoaders(services: Services): Loaders {
  const providerById = new DataLoader<number, ResourceProviderRecord | null>((ids) =>
    services.providers.byIds(ids),
  );
  const aggregateByUuid = new DataLoader<string, AggregateRecord | null>(async (uuids) => {
    const found = await services.aggregates.byUuids(uuids);
    return pickInKeyOrder(uuids, new Map(found.map((a) => [a.uuid, a])), null);
  });
  const primeProviders = (providers: readonly ResourceProviderRecord[]): void => {
    for (const rp of providers) {
      providerById.prime(rp.id, rp);
    }
  };
  const providerByUuid = new DataLoader<string, ResourceProviderRecord | null>(async (uuids) => {
    const found = await services.providers.byUuids(uuids);
    primeProviders(found.filter((p): p is ResourceProviderRecord => p !== null));
    return found;
  });
  const loaders: Loaders = {
    providerById,
    providerByUuid,
    aggregateByUuid,
    primeProviders,
    childrenByProviderId: new DataLoader(
      async (parents) => {
        const children = await childrenOf(services, parents);
        primeProviders(children.flat());
        return children;
      },
      { cacheKeyFn: (rp) => rp.id },
    ),
    inventoriesByProviderId: new DataLoader(async (ids) =>
      groupByKeys(
        ids,
        await inventoriesOf(services.dataSource.manager, ids),
        (i) => i.resourceProviderId,
      ),
    ),
    usagesByProviderId: new DataLoader(async (ids) =>
      pickInKeyOrder(ids, await services.usages.byProviderIds(ids), []),
    ),
    traitsByProviderId: new DataLoader(async (ids) =>
      pickInKeyOrder(ids, await services.providerTraits.byProviderIds(ids), []),
    ),
    aggregatesByProviderId: new DataLoader(async (ids) => {
      const uuids = pickInKeyOrder(ids, await services.aggregates.uuidsByProviderIds(ids), []);
      const records = presentOrThrow(await aggregateByUuid.loadMany([...new Set(uuids.flat())]));
      const byUuid = new Map(records.map((a) => [a.uuid, a]));
      return uuids.map((list) => presentOrThrow(list.map((u) => byUuid.get(u) ?? null)));
    }),
    providersByAggregateUuid: new DataLoader(async (uuids) => {
      const ids = pickInKeyOrder(
        uuids,
        await services.aggregates.providerIdsByAggregateUuids(uuids),
        [],
      );
      const providers = presentOrThrow(await providerById.loadMany([...new Set(ids.flat())]));
      const byId = new Map(providers.map((rp) => [rp.id, rp]));
      return ids.map((list) => presentOrThrow(list.map((id) => byId.get(id) ?? null)));
    }),
    allocationsByProviderId: new DataLoader(async (ids) =>
      groupByKeys(ids, await services.allocations.byProviderIds(ids), (a) => a.resourceProviderId),
    ),
    allocationsByConsumerId: new DataLoader(async (ids) =>
      groupByKeys(ids, await services.allocations.byConsumerIds(ids), (a) => a.consumerId),
    ),
    consumerById: new DataLoader((ids) => services.allocations.consumersByIds(ids)),
    clearAll() {
      for (const loader of Object.values(loaders)) {
        if (loader instanceof DataLoader) {
          loader.clearAll();
        }
      }
    },
  };
  return loaders;
}
