// Output records of the engine and their construction from assignments (upstream:
// allocation_candidate.py AllocationRequest / ProviderSummary, _consolidate_allocation_requests,
// _build_provider_summaries).
import type { CapacityIndex } from './capacity-index';
import type { SearchVar } from './group-options';
import type { CompiledRequest } from './search-context';

/** Resources one provider contributes to an allocation request. */
export interface ProviderAllocation {
  readonly providerUuid: string;
  /** Resource class -> amount (amounts of several groups on one provider are summed). */
  readonly resources: Readonly<Record<string, number>>;
}

/** One way to satisfy the whole request: a body for PUT /allocations plus group mappings. */
export interface AllocationRequest {
  readonly allocations: readonly ProviderAllocation[];
  /** Group suffix ('' = unsuffixed) -> uuids of the providers that satisfy it. */
  readonly mappings: Readonly<Record<string, readonly string[]>>;
}

/** Capacity and usage of one inventory in a provider summary. */
export interface ProviderSummaryResource {
  readonly resourceClass: string;
  /** floor((total - reserved) * allocation_ratio) */
  readonly capacity: number;
  readonly used: number;
}

/** One provider of a tree that appears in the result. */
export interface ProviderSummary {
  readonly providerUuid: string;
  readonly rootProviderUuid: string;
  readonly parentProviderUuid: string | null;
  readonly resources: readonly ProviderSummaryResource[];
  /** Trait names in trait id order ({@link traitNamesInIdOrder}). */
  readonly traits: readonly string[];
}

/**
 * The trait names of provider `slot` in `traits` table id order (standard traits in os-traits
 * order, then custom traits in creation order), as Placement's provider summaries list them
 * where the database reads `resource_provider_traits` by its index; traits without a known id
 * last, by name.
 */
export function traitNamesInIdOrder(index: CapacityIndex, slot: number): string[] {
  const ids = Array.from(index.traits[slot] ?? []);
  const rowId = (t: number) => index.traitRowIds[t] ?? Number.POSITIVE_INFINITY;
  ids.sort((a, b) => {
    const d = rowId(a) - rowId(b);
    if (d < 0 || d > 0) {
      return d;
    }
    const [x, y] = [index.traitTable.name(a), index.traitTable.name(b)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return ids.map((t) => index.traitTable.name(t));
}

/** The answer to GET /allocation_candidates. */
export interface AllocationCandidates {
  readonly allocationRequests: readonly AllocationRequest[];
  readonly providerSummaries: readonly ProviderSummary[];
}

/** An allocation request plus the slots it touches (for summaries and old-microversion filtering). */
export interface BuiltRequest {
  readonly request: AllocationRequest;
  /** Slots of providers that contribute resources, in first-use order. */
  readonly providers: readonly number[];
}

/** Turns the current assignment (provider slot per search variable) into an allocation request. */
export function buildRequest(
  index: CapacityIndex,
  req: CompiledRequest,
  vars: readonly SearchVar[],
  chosen: Int32Array,
): BuiltRequest {
  const providers: number[] = [];
  const allocations: { providerUuid: string; resources: Record<string, number> }[] = [];
  const mappings: Record<string, string[]> = {};
  for (let v = 0; v < vars.length; v++) {
    const sv = vars[v]!;
    const p = chosen[v]!;
    const uuid = index.uuid[p]!;
    const suffix = req.groups[sv.group]!.suffix;
    const mapped = mappings[suffix];
    if (!mapped) {
      mappings[suffix] = [uuid];
    } else if (!mapped.includes(uuid)) {
      mapped.push(uuid);
    }
    if (sv.classIds.length === 0) {
      continue;
    }
    let at = providers.indexOf(p);
    if (at < 0) {
      at = providers.length;
      providers.push(p);
      allocations.push({ providerUuid: uuid, resources: {} });
    }
    const resources = allocations[at]!.resources;
    for (let k = 0; k < sv.classIds.length; k++) {
      const rc = index.classes.name(sv.classIds[k]!);
      resources[rc] = (resources[rc] ?? 0) + sv.amounts[k]!;
    }
  }
  return { request: { allocations, mappings }, providers };
}

interface SummaryCache {
  stamps: Int32Array;
  summaries: (ProviderSummary | undefined)[];
}

const caches = new WeakMap<CapacityIndex, SummaryCache>();

/**
 * Summary of one provider, reused across requests until the provider changes (summaries are
 * shared, frozen objects: callers must not mutate them).
 */
export function cachedSummary(index: CapacityIndex, slot: number): ProviderSummary {
  let cache = caches.get(index);
  if (!cache || cache.stamps.length < index.stamp.length) {
    const stamps = new Int32Array(index.stamp.length);
    if (cache) {
      stamps.set(cache.stamps);
    }
    cache = { stamps, summaries: cache?.summaries ?? [] };
    caches.set(index, cache);
  }
  const stamp = index.stamp[slot]!;
  const hit = cache.summaries[slot];
  if (hit && cache.stamps[slot] === stamp) {
    return hit;
  }
  const fresh = Object.freeze(summarize(index, slot));
  cache.summaries[slot] = fresh;
  cache.stamps[slot] = stamp;
  return fresh;
}

/** Summary of one provider: all its inventories and traits. */
export function summarize(index: CapacityIndex, slot: number): ProviderSummary {
  const inv = index.inventories;
  const parent = index.parent[slot]!;
  return {
    providerUuid: index.uuid[slot]!,
    rootProviderUuid: index.uuid[index.root[slot]!]!,
    parentProviderUuid: parent >= 0 ? index.uuid[parent]! : null,
    resources: Array.from(index.inventorySlots(slot), (s) => ({
      resourceClass: index.classes.name(inv.resourceClass[s]!),
      capacity: inv.capacity[s]!,
      used: inv.used[s]!,
    })),
    traits: traitNamesInIdOrder(index, slot),
  };
}

/**
 * Summaries of every provider of every tree that contributes resources to `built` (Placement
 * returns whole trees), trees in first-use order, providers by id. With `onlyUsed` (microversions
 * before 1.29) only the contributing providers are summarised.
 */
export function buildSummaries(
  index: CapacityIndex,
  built: readonly BuiltRequest[],
  onlyUsed: boolean,
): ProviderSummary[] {
  const seen = new Set<number>();
  const out: ProviderSummary[] = [];
  for (const b of built) {
    for (const p of b.providers) {
      const slots = onlyUsed ? [p] : index.members[index.root[p]!]!;
      const key = onlyUsed ? p : index.root[p]!;
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      for (const s of slots) {
        out.push(cachedSummary(index, s));
      }
    }
  }
  return out;
}
