// Allocations as provider uuid -> class -> amount, and the arithmetic of moves on them: a claim
// adds the destination to what a consumer holds, confirm / revert subtract one side.
import type { ProviderAllocation } from './allocation-candidates/results';

/** Allocations as provider uuid -> class -> amount. */
export type AllocationMap = Map<string, Map<string, number>>;

/** Allocation rows (provider, class, amount; outer-join nulls skipped) as a map, amounts summed. */
export function fromRows(
  rows: readonly {
    provider_uuid: string | null;
    resource_class: string | null;
    used: number | null;
  }[],
): AllocationMap {
  const out: AllocationMap = new Map();
  for (const r of rows) {
    if (r.provider_uuid === null || r.resource_class === null || r.used === null) {
      continue;
    }
    const res = out.get(r.provider_uuid) ?? new Map<string, number>();
    res.set(r.resource_class, (res.get(r.resource_class) ?? 0) + r.used);
    out.set(r.provider_uuid, res);
  }
  return out;
}

/** `base` plus `added` (a new map). */
export function add(base: AllocationMap, added: readonly ProviderAllocation[]): AllocationMap {
  const out: AllocationMap = new Map([...base].map(([rp, res]) => [rp, new Map(res)]));
  for (const a of added) {
    const res = out.get(a.providerUuid) ?? new Map<string, number>();
    for (const [rc, n] of Object.entries(a.resources)) {
      res.set(rc, (res.get(rc) ?? 0) + n);
    }
    out.set(a.providerUuid, res);
  }
  return out;
}

/** `base` minus `side`, dropping zeros; null when `base` does not hold all of `side`. */
export function subtract(
  base: AllocationMap,
  side: readonly ProviderAllocation[],
): AllocationMap | null {
  const out: AllocationMap = new Map([...base].map(([rp, res]) => [rp, new Map(res)]));
  for (const a of side) {
    const res = out.get(a.providerUuid);
    for (const [rc, n] of Object.entries(a.resources)) {
      const have = res?.get(rc) ?? 0;
      if (!res || have < n) {
        return null;
      }
      if (have === n) {
        res.delete(rc);
      } else {
        res.set(rc, have - n);
      }
    }
    if (res && res.size === 0) {
      out.delete(a.providerUuid);
    }
  }
  return out;
}

/** The map as a list, providers and classes sorted (stable records). */
export function toList(m: AllocationMap): ProviderAllocation[] {
  return [...m]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([providerUuid, res]) => ({
      providerUuid,
      resources: Object.fromEntries([...res].sort(([a], [b]) => a.localeCompare(b))),
    }));
}
