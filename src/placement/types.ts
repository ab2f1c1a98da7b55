// Plain readonly records returned by domain services (never TypeORM entity instances), so they
// can be cached as JSON and handed to GraphQL or REST adapters unchanged.

/** A resource class (standard or CUSTOM_*). */
export interface ResourceClassRecord {
  readonly id: number;
  readonly name: string;
  readonly custom: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A trait (standard or CUSTOM_*). */
export interface TraitRecord {
  readonly id: number;
  readonly name: string;
  readonly custom: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A resource provider (one node of a provider tree). */
export interface ResourceProviderRecord {
  readonly id: number;
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly rootProviderId: number;
  readonly parentProviderId: number | null;
  readonly rootProviderUuid: string;
  readonly parentProviderUuid: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * One inventory's class and limits (Placement's columns, camel-cased): the one shape every
 * inventory record, row and view in berth extends.
 */
export interface InventoryLimits extends InventoryAmounts {
  readonly resourceClass: string;
}

/** An inventory's numbers (Placement's columns, camel-cased). */
export interface InventoryAmounts {
  readonly total: number;
  readonly reserved: number;
  readonly minUnit: number;
  readonly maxUnit: number;
  readonly stepSize: number;
  readonly allocationRatio: number;
}

/** The columns of an `inventories` row as SQL returns them (snake_case). */
export interface InventoryColumns {
  readonly resource_provider_id: number;
  readonly total: number;
  readonly reserved: number;
  readonly min_unit: number;
  readonly max_unit: number;
  readonly step_size: number;
  readonly allocation_ratio: number;
}

/** One inventory of a provider, with the derived capacity and current usage. */
export interface InventoryRecord extends InventoryLimits {
  readonly resourceProviderId: number;
  /** floor((total - reserved) * allocationRatio) */
  readonly capacity: number;
  readonly used: number;
  readonly updatedAt: Date;
}

/** Usage of one class (on a provider, or summed for a project). */
export interface UsageRecord {
  readonly resourceClass: string;
  readonly used: number;
}

/** An aggregate with optional Nova host-aggregate name and metadata. */
export interface AggregateRecord {
  readonly id: number;
  readonly uuid: string;
  readonly name: string | null;
  readonly metadata: readonly { readonly key: string; readonly value: string }[];
}

/** A consumer of resources. */
export interface ConsumerRecord {
  readonly id: number;
  readonly uuid: string;
  readonly projectId: string;
  readonly userId: string;
  /** Consumer type name; 'unknown' when none was given. */
  readonly consumerType: string;
  readonly generation: number;
  readonly updatedAt: Date;
}

/** `used` units of one class on one provider, held by one consumer. */
export interface AllocationRecord {
  readonly resourceProviderId: number;
  readonly resourceProviderUuid: string;
  readonly resourceProviderGeneration: number;
  readonly consumerId: number;
  readonly consumerUuid: string;
  /** The consumer's project (who may see this allocation). */
  readonly projectId: string;
  readonly resourceClass: string;
  readonly used: number;
}

/** Capacity per Placement: floor((total - reserved) * allocation_ratio). */
export function capacityOf(inv: {
  readonly total: number;
  readonly reserved: number;
  readonly allocationRatio: number;
}): number {
  return Math.floor((inv.total - inv.reserved) * inv.allocationRatio);
}
