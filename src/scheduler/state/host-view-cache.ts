// Host views without their allocation requests, kept between scheduling requests. Building a
// view (inventories with capacity, traits, aggregates with metadata) for every candidate host of
// every request was the largest part of a request's CPU; between two requests few hosts change.
// An entry is reused while the capacity index stamps of every provider of its tree, the tree's
// membership and the aggregate metadata list are unchanged. Cached parts are deeply frozen:
// plugins see read-only views, as the plugin API promises, and cannot corrupt the next request.
import type { CapacityIndex } from '../../placement/allocation-candidates/capacity-index';
import { type AggregateWithMetadata, hostRowsFromIndex } from '../../placement/host-rows';
import type { AllocationRequestView, HostView } from '../plugin-api';
import { deepFreeze } from './deep-freeze';
import { buildHostViews } from './host-view';

/** A host view minus its per-request allocation requests. */
export type HostBase = Omit<HostView, 'allocationRequests'>;

interface Entry {
  readonly slots: readonly number[];
  readonly stamps: readonly number[];
  readonly base: HostBase;
}

/** Most trees kept; beyond it the cache starts over (a full scan of a huge cloud). */
const MAX_ENTRIES = 50_000;

/** Per-replica cache of host bases, valid for one index and one aggregate metadata list. */
export class HostViewCache {
  private index: CapacityIndex | undefined;
  private aggregates: readonly AggregateWithMetadata[] | undefined;
  private readonly entries = new Map<string, Entry>();
  /** Bases served from the cache / built (metrics, bench). */
  readonly stats = { hits: 0, builds: 0 };

  /**
   * Views of the trees whose roots key `requests`, in its order, each with its allocation
   * requests (roots the index no longer knows are left out).
   */
  views(
    index: CapacityIndex,
    aggregates: readonly AggregateWithMetadata[],
    requests: ReadonlyMap<string, readonly AllocationRequestView[]>,
  ): HostView[] {
    if (index !== this.index || aggregates !== this.aggregates) {
      this.entries.clear();
      this.index = index;
      this.aggregates = aggregates;
    }
    const bases = new Map<string, HostBase>();
    const missing: string[] = [];
    for (const root of requests.keys()) {
      const base = this.lookup(index, root);
      if (base) {
        bases.set(root, base);
      } else {
        missing.push(root);
      }
    }
    this.stats.hits += bases.size;
    this.stats.builds += missing.length;
    for (const [root, base] of this.build(index, aggregates, missing)) {
      bases.set(root, base);
    }
    return [...requests].flatMap(([root, allocationRequests]) => {
      const base = bases.get(root);
      return base ? [{ ...base, allocationRequests }] : [];
    });
  }

  /**
   * A new cache for `overlay`, an overlay of the index this cache serves (src/placement/
   * allocation-candidates/index-overlay.ts), starting with this cache's entries: they stay valid
   * for every provider the overlay has not changed (its stamps start as the live index's).
   */
  forkFor(
    live: CapacityIndex,
    overlay: CapacityIndex,
    aggregates: readonly AggregateWithMetadata[],
  ): HostViewCache {
    const fork = new HostViewCache();
    fork.index = overlay;
    fork.aggregates = aggregates;
    if (this.index === live && this.aggregates === aggregates) {
      for (const [root, entry] of this.entries) {
        fork.entries.set(root, entry);
      }
    }
    return fork;
  }

  private lookup(index: CapacityIndex, root: string): HostBase | undefined {
    const entry = this.entries.get(root);
    if (!entry) {
      return undefined;
    }
    const rootSlot = index.slotOfUuid(root);
    const slots = rootSlot < 0 ? undefined : (index.members[rootSlot] ?? [rootSlot]);
    if (!slots || slots.length !== entry.slots.length) {
      return undefined;
    }
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (slot !== entry.slots[i] || index.stamp[slot] !== entry.stamps[i]) {
        return undefined;
      }
    }
    return entry.base;
  }

  private build(
    index: CapacityIndex,
    aggregates: readonly AggregateWithMetadata[],
    roots: readonly string[],
  ): Map<string, HostBase> {
    const out = new Map<string, HostBase>();
    if (roots.length === 0) {
      return out;
    }
    const rows = hostRowsFromIndex(index, roots);
    const wanted = new Set(rows.memberships.map((m) => m.aggregateUuid));
    const known = aggregates.filter((a) => wanted.has(a.uuid));
    const views = buildHostViews(
      {
        ...rows,
        aggregates: known.map((a) => ({ uuid: a.uuid, name: a.name })),
        aggregateMetadata: known.flatMap((a) =>
          Object.entries(a.metadata).map(([key, value]) => ({ aggregateUuid: a.uuid, key, value })),
        ),
      },
      rows.roots,
    );
    if (this.entries.size + views.length > MAX_ENTRIES) {
      this.entries.clear();
    }
    for (const view of views) {
      const { allocationRequests: _none, ...rest } = view;
      const base = deepFreeze(rest);
      const rootSlot = index.slotOfUuid(view.uuid);
      const slots = [...(index.members[rootSlot] ?? [rootSlot])];
      this.entries.set(view.uuid, {
        slots,
        stamps: slots.map((s) => index.stamp[s]!),
        base,
      });
      out.set(view.uuid, base);
    }
    return out;
  }
}
