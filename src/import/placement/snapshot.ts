// A Placement 8.0 database as the importer reads it (src/import/placement/read-placement.ts):
// names and uuids only, never the source's ids.
import type { InventoryLimits } from '../../placement/types';

/** One inventory, as Placement stored it. */
export type SourceInventory = InventoryLimits;

/** One provider with everything hanging off it. */
export interface SourceProvider {
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly parentUuid: string | null;
  readonly rootUuid: string;
  readonly inventories: SourceInventory[];
  readonly traits: string[];
  readonly aggregates: string[];
}

/** One allocation of a consumer. */
export interface SourceAllocation {
  readonly providerUuid: string;
  readonly resourceClass: string;
  readonly used: number;
}

/** One consumer with its allocations. */
export interface SourceConsumer {
  readonly uuid: string;
  readonly project: string;
  readonly user: string;
  readonly generation: number;
  /** null: no type recorded (Placement reports 'unknown'). */
  readonly consumerType: string | null;
  readonly allocations: SourceAllocation[];
}

/** A whole Placement database. */
export interface PlacementSnapshot {
  /** Providers, parents before children. */
  readonly providers: SourceProvider[];
  readonly consumers: SourceConsumer[];
  /** Class, trait, aggregate, project, user and consumer type names in use or defined. */
  readonly resourceClasses: string[];
  readonly traits: string[];
  readonly aggregates: string[];
  readonly projects: string[];
  readonly users: string[];
  readonly consumerTypes: string[];
  /** Consumers created for allocations that had no consumers row (Placement's online migration). */
  readonly incompleteConsumers: number;
}
