// The rows of a Placement 8.0 database exactly as read (src/import/placement/read-placement.ts),
// before any rule is applied: source ids as text, strings as stored (null when NULL), numbers as
// the driver gave them (NaN for NULL). validate-source.ts decides what of it berth may hold.
import type { InventoryAmounts } from '../../placement/types';

/** A row of a name table: resource_classes, traits, consumer_types (name), projects, users (external_id). */
export interface NameRow {
  readonly id: string;
  readonly name: string | null;
}

/** A placement_aggregates row. */
export interface AggregateRow {
  readonly id: string;
  readonly uuid: string | null;
}

/** A resource_providers row. */
export interface ProviderRow {
  readonly id: string;
  readonly uuid: string | null;
  readonly name: string | null;
  readonly generation: number;
  /** null: NULL in the source. */
  readonly rootId: string | null;
  readonly parentId: string | null;
}

/** An inventories row: its ids and the numbers the API checks (InventoryAmounts). */
export interface InventoryRow extends InventoryAmounts {
  readonly id: string;
  readonly providerId: string;
  readonly classId: string;
}

/** A resource_provider_traits or resource_provider_aggregates row. */
export interface LinkRow {
  readonly providerId: string;
  /** The trait or aggregate id. */
  readonly targetId: string;
}

/** A consumers row. */
export interface ConsumerRow {
  readonly id: string;
  readonly uuid: string | null;
  readonly projectId: string;
  readonly userId: string;
  readonly generation: number;
  readonly typeId: string | null;
}

/** An allocations row (its consumer is named by uuid, as Placement stores it). */
export interface AllocationRow {
  readonly id: string;
  readonly providerId: string;
  readonly consumerUuid: string | null;
  readonly classId: string;
  readonly used: number;
}

/** Every table the importer reads. */
export interface SourceRows {
  readonly resourceClasses: readonly NameRow[];
  readonly traits: readonly NameRow[];
  readonly aggregates: readonly AggregateRow[];
  readonly projects: readonly NameRow[];
  readonly users: readonly NameRow[];
  readonly consumerTypes: readonly NameRow[];
  readonly providers: readonly ProviderRow[];
  readonly inventories: readonly InventoryRow[];
  readonly providerTraits: readonly LinkRow[];
  readonly providerAggregates: readonly LinkRow[];
  readonly consumers: readonly ConsumerRow[];
  readonly allocations: readonly AllocationRow[];
}
