// Row shapes the database loader hands to the candidate index (upstream: the columns that
// research_context.py reads from resource_providers, inventories, allocations, traits, aggregates).
import type { InventoryLimits } from '../types';

/** One resource provider. `rootId` equals `id` for a root; the index derives roots from parents. */
export interface ProviderRow {
  readonly id: number;
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly parentId: number | null;
  readonly rootId: number;
}
/** One inventory with its current usage (`used` = SUM(allocations.used) for provider and class). */
export interface IndexInventoryRow extends InventoryLimits {
  readonly providerId: number;
  readonly used: number;
}
/** One provider-trait association. */
export interface IndexTraitRow {
  readonly providerId: number;
  readonly trait: string;
  /**
   * The trait's id in the `traits` table: provider summaries list a provider's traits in this
   * order, as Placement does where its database reads them by index. Absent: after those with one,
   * by name.
   */
  readonly traitId?: number;
}
/** One provider-aggregate association. */
export interface AggregateRow {
  readonly providerId: number;
  readonly aggregateUuid: string;
}
/**
 * The consumers with allocations on one provider (consumers.id), and those of them with a move
 * in progress (a consumer_moves record). Providers without allocations have no row.
 */
export interface IndexConsumerRow {
  readonly providerId: number;
  readonly consumerIds: readonly number[];
  readonly movingIds: readonly number[];
  /**
   * Of `movingIds`, those whose move started here: the record's source allocations name this
   * provider (a move within one tree too). The others arrived by the move. Absent: all of them.
   */
  readonly movingFromIds?: readonly number[];
}
/**
 * A host's consecutive failed builds as its compute service reported them (table
 * build_failures, keyed by the root provider; Nova `HostState.failed_builds`). Hosts without
 * failures have no row.
 */
export interface IndexBuildFailureRow {
  readonly providerId: number;
  readonly failedBuilds: number;
}
/**
 * Everything the index needs. The optional catalogues list every resource class / trait that
 * exists (tables resource_classes / traits); when given, requests naming anything else are
 * rejected with Placement's 400 messages. When omitted, unknown names simply match nothing.
 */
export interface IndexRows {
  readonly providers: readonly ProviderRow[];
  readonly inventories: readonly IndexInventoryRow[];
  readonly traits: readonly IndexTraitRow[];
  readonly aggregates: readonly AggregateRow[];
  /** Consumers per provider (scheduler host counts); absent = none known. */
  readonly consumers?: readonly IndexConsumerRow[];
  /** Failed builds per root provider (scheduler host state); absent = none known. */
  readonly buildFailures?: readonly IndexBuildFailureRow[];
  /** All defined resource class names (standard + CUSTOM_*), optional. */
  readonly resourceClassNames?: readonly string[];
  /** All defined trait names (standard + CUSTOM_*), optional. */
  readonly traitNames?: readonly string[];
}
