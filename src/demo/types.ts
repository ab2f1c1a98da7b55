// The demo cloud as plain data: what `berth demo` creates through the API, in creation order.
// No client code here: the CLI turns each record into the mutation a real client would send.

/** A host aggregate (Nova) / Placement aggregate, with its Nova metadata. */
export interface DemoAggregate {
  readonly uuid: string;
  readonly name: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** One inventory record (Placement's fields; max unit = total). */
export interface DemoInventory {
  readonly resourceClass: string;
  readonly total: number;
  readonly reserved: number;
  readonly allocationRatio: number;
}

/** A resource provider: a compute host, one of its NUMA cells or GPUs, or a storage pool. */
export interface DemoProvider {
  readonly uuid: string;
  readonly name: string;
  /** The parent's uuid (created before it), or undefined for a root. */
  readonly parentUuid?: string;
  readonly inventories: readonly DemoInventory[];
  readonly traits: readonly string[];
  /** Aggregate uuids. */
  readonly aggregates: readonly string[];
}

/** A Keystone project with its users and quota limits (resource class or INSTANCES). */
export interface DemoProject {
  readonly id: string;
  readonly users: readonly string[];
  readonly limits: Readonly<Record<string, number>>;
}

/** Server group policies, as the API names them. */
export type DemoPolicy = 'AFFINITY' | 'ANTI_AFFINITY' | 'SOFT_AFFINITY' | 'SOFT_ANTI_AFFINITY';

/** A Nova server group. */
export interface DemoServerGroup {
  readonly uuid: string;
  readonly name: string;
  readonly projectId: string;
  readonly userId: string;
  readonly policy: DemoPolicy;
  readonly maxServerPerHost?: number;
}

/** A Nova flavor: the amounts one instance needs, plus extra specs and required root traits. */
export interface DemoFlavor {
  readonly name: string;
  readonly resources: Readonly<Record<string, number>>;
  /** Read by AggregateInstanceExtraSpecsFilter against aggregate metadata. */
  readonly extraSpecs: Readonly<Record<string, string>>;
  /** Traits the host (tree root) must have. */
  readonly rootRequired: readonly string[];
  /**
   * The root disk from a sharing provider (a granular group requiring MISC_SHARES_VIA_AGGREGATE)
   * rather than wherever Placement finds DISK_GB.
   */
  readonly sharedDisk?: boolean;
}

/** One boot request (a multi-create): placed by one `schedule` call. */
export interface DemoBoot {
  readonly consumerUuids: readonly string[];
  readonly projectId: string;
  readonly userId: string;
  readonly flavor: DemoFlavor;
  readonly availabilityZone?: string;
  /** Server group uuid. */
  readonly group?: string;
}

/** The whole demo cloud. */
export interface DemoCloud {
  readonly seed: number;
  /** A provider name only the demo creates: the target already holds a demo cloud when it exists. */
  readonly marker: string;
  readonly customResourceClasses: readonly string[];
  readonly customTraits: readonly string[];
  readonly aggregates: readonly DemoAggregate[];
  /** Parents before children. */
  readonly providers: readonly DemoProvider[];
  /** Compute hosts (roots that run instances), for the summary. */
  readonly hostCount: number;
  /** Names of the disabled hosts (trait COMPUTE_STATUS_DISABLED). */
  readonly disabledHosts: readonly string[];
  readonly projects: readonly DemoProject[];
  readonly serverGroups: readonly DemoServerGroup[];
  readonly boots: readonly DemoBoot[];
}
