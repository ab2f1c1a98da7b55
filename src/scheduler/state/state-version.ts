// The one version the scheduler's caches are keyed on: this replica's capacity-index revision
// (providers, inventories, usage, traits, aggregate membership) and the aggregate-metadata version.
// Two reads at the same StateVersion see the same hosts. (The host-view cache keeps finer,
// per-provider stamps of the same index; the shared Redis layer keys on a cross-replica epoch.)

/** What a cached scheduler result was computed from. */
export interface StateVersion {
  /** Capacity index revision (src/placement/allocation-candidates/candidate-service.ts `revision`). */
  readonly index: number;
  /** Aggregate-metadata version (src/placement/host-rows.ts `AggregateMetadataCache.changes`). */
  readonly aggregates: number;
}

/** True when `a` and `b` name the same state. */
export function sameState(a: StateVersion, b: StateVersion): boolean {
  return a.index === b.index && a.aggregates === b.aggregates;
}
