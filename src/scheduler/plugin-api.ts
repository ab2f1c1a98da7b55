// Scheduler plugin API, types only (upstream: nova/scheduler/filters/__init__.py, weights/__init__.py,
// request_filter.py; shape from the Kubernetes scheduler framework: PreFilter / Filter / Score).
import type { z } from 'zod';
import type { CandidateRequest } from '../placement/allocation-candidates/request';
import type { InventoryLimits } from '../placement/types';

/** One inventory of a provider, with its current usage. Amounts are in the resource class's unit. */
export interface InventoryView extends InventoryLimits {
  /** Sum of the allocations against this inventory. */
  readonly used: number;
  /** `(total - reserved) * allocationRatio`, Placement's capacity formula. */
  readonly capacity: number;
}

/** A provider aggregate and its metadata (a Nova host aggregate). */
export interface AggregateView {
  readonly uuid: string;
  readonly name: string | null;
  /** Raw metadata; a value may hold several comma-separated values (Nova convention). */
  readonly metadata: Readonly<Record<string, string>>;
}

/** One resource provider of a host's tree. */
export interface ProviderView {
  readonly uuid: string;
  readonly name: string;
  /** `null` for the root. */
  readonly parentUuid: string | null;
  readonly generation: number;
  /** Resource class name -> inventory. */
  readonly inventories: Readonly<Record<string, InventoryView>>;
  readonly traits: readonly string[];
  /** Uuids of the aggregates this provider itself is a member of. */
  readonly aggregateUuids: readonly string[];
}

/** One candidate allocation for a host (provider uuid -> resource class -> amount), as returned by the engine. */
export interface AllocationRequestView {
  readonly allocations: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** Request group suffix -> provider uuids satisfying it (Placement `mappings`). */
  readonly mappings?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Read-only snapshot of one host (a provider tree), loaded in batches by the pipeline's caller before
 * any plugin runs. Plain JSON data: plugins never query anything.
 */
export interface HostView {
  /** The root provider's uuid (the host's identity in explanations). */
  readonly uuid: string;
  /** The root provider's name (Nova's host name). */
  readonly name: string;
  readonly root: ProviderView;
  /** Every provider of the tree, root first, parents before children. */
  readonly providers: readonly ProviderView[];
  /**
   * The host's aggregates with metadata: those the root provider belongs to (Nova host aggregates;
   * in Placement the root's aggregates span the whole tree).
   */
  readonly aggregates: readonly AggregateView[];
  /** The candidate allocation requests the engine produced for this host. */
  readonly allocationRequests: readonly AllocationRequestView[];
  /**
   * The number of consumers (instances) with allocations on any provider of the tree, each
   * counted once (Nova `HostState.num_instances`).
   */
  readonly numInstances: number;
  /**
   * berth's analog of Nova `HostState.num_io_ops` (instances building, resizing, migrating):
   * the consumers counted in `numInstances` that have a move in progress (a `schedule` of a
   * consumer that already held allocations, not yet confirmed or reverted; see
   * docs/scheduling-moves.md). Counted on both the source and the destination tree.
   */
  readonly numIoOps: number;
  /**
   * Of `numIoOps`, the consumers that arrived by their move: the move's destination is this
   * tree and its recorded source allocations are elsewhere (a move within one tree is not one).
   * Nova counts a moving instance on its source host only: `numInstances - numMovesIn` and
   * `numIoOps - numMovesIn` are Nova's counts (plugins' `countMovesOn: "source"`).
   */
  readonly numMovesIn: number;
  /**
   * Nova `HostState.failed_builds`: consecutive failed builds on the host as its compute service
   * reported them (mutation `reportBuildFailure` adds one, `reportBuildSuccess` resets it to 0).
   */
  readonly failedBuilds: number;
}

/** What the caller asked for: the candidate request plus the flavor-like context filters look at. */
export interface RequestSpec {
  /** The allocation-candidate request (groups, traits, member_of, ...). */
  readonly candidateRequest: CandidateRequest;
  /** Flavor (and image) extra specs, key -> raw value. */
  readonly extraSpecs: Readonly<Record<string, string>>;
  readonly projectId: string;
  readonly userId?: string;
  /** Scheduler hints, Nova style: each hint has a list of values. */
  readonly hints: Readonly<Record<string, readonly string[]>>;
  /**
   * For every instance (consumer) uuid named by a `same_host` or `different_host` hint: the
   * uuids of the hosts (root providers) it has allocations on, read when the request is
   * evaluated. Instances without allocations are absent.
   */
  readonly instanceHosts: Readonly<Record<string, readonly string[]>>;
  /** The availability zone asked for (Nova's request_spec.availability_zone); undefined = any. */
  readonly availabilityZone?: string;
  /** The server group the consumers join (Nova's `group` hint), read when the request is evaluated. */
  readonly serverGroup?: ServerGroupView;
}

/** A server group as filters and weighers see it (Nova's request_spec.instance_group). */
export interface ServerGroupView {
  readonly uuid: string;
  readonly policy: 'affinity' | 'anti-affinity' | 'soft-affinity' | 'soft-anti-affinity';
  /** Most members per host under `anti-affinity` (Nova's `max_server_per_host` rule; default 1). */
  readonly maxServerPerHost: number;
  /**
   * Host (root provider) uuid -> how many members have allocations there; the consumers being
   * placed by this request are not counted. Hosts running no member are absent.
   */
  readonly hosts: Readonly<Record<string, number>>;
  /**
   * Host uuid -> how many of the consumers being placed by this request are members with
   * allocations there (a moving member's current host). Absent when the caller does not say
   * (read as none). Nova counts them (`host_state.instances`, `instance_group.hosts`); berth's
   * plugins do only when configured to (see docs/scheduler-plugins.md).
   */
  readonly placingHosts?: Readonly<Record<string, number>>;
}

/**
 * A filter's answer for one host. `reason` is human-readable and should name what was wanted and
 * found, without the host's name (the rejection already names its host). `code` is the stable,
 * lowercase dotted cause of the rejection (`^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$`, e.g.
 * `ram.insufficient`): explanations group rejections by it. Without one, the pipeline fills in
 * the plugin's default code, its NAME in snake case (`RamFilter` -> `ram_filter`; see
 * src/scheduler/runtime/reason-code.ts); a malformed one is an invalid result, isolated under
 * the plugin's `onError` policy.
 */
export type Verdict =
  | { readonly fits: true }
  | { readonly fits: false; readonly reason: string; readonly code?: string };

/** What the pipeline does with a filter that throws or overruns its budget: let every host through, or none. */
export type FailurePolicy = 'open' | 'closed';

/** The two kinds of plugin an operator can enable. */
export type PluginKind = 'filter' | 'weigher';

/** Everything a pre-candidate hook may read: aggregates that carry metadata (loaded once, read-only). */
export interface AmendContext {
  readonly aggregates: readonly AggregateView[];
}

/**
 * A change a pre-candidate hook asks for, applied by the pipeline before the candidate query runs.
 * `memberOf` and `forbiddenAggregates` go to the unsuffixed group (they span the whole tree);
 * the trait lists are request-wide root constraints.
 */
export interface RequestAmendment {
  /** AND of any-of aggregate uuid sets (member_of=in:a,b). */
  readonly memberOf?: readonly (readonly string[])[];
  /** Aggregates no provider of the tree may belong to (member_of=!in:a,b). */
  readonly forbiddenAggregates?: readonly string[];
  readonly rootRequiredTraits?: readonly (readonly string[])[];
  readonly rootForbiddenTraits?: readonly string[];
  /** Set when no host can satisfy the request: the pipeline answers with no hosts and this reason. */
  readonly unsatisfiable?: string;
  /** Free text for the explanation. */
  readonly note?: string;
}

/** Per-plugin services handed to factories. */
export interface PluginHandle {
  /** The plugin's `NAME`. */
  readonly name: string;
  /** The operator's configuration for this plugin (`plugins.<NAME>` in the scheduler config). */
  readonly config: Readonly<Record<string, unknown>>;
  /** Structured log line tagged with the plugin name. */
  readonly log: (msg: string, fields?: Readonly<Record<string, unknown>>) => void;
}

/** Fields shared by both plugin kinds. */
interface PluginBase {
  /** Must equal the module's `NAME` (Nova-compatible class name, e.g. `'RamFilter'`). */
  readonly name: string;
  /** Total wall time (ms) this plugin may spend per request across all its calls; pipeline default if unset. */
  readonly timeBudgetMs?: number;
}

/** Fields shared by everything enabled in the filter list. */
interface FilterStageBase extends PluginBase {
  readonly kind: 'filter';
  /** What happens when this plugin throws or overruns its budget. */
  readonly onError: FailurePolicy;
}

/**
 * A pre-candidate hook alone (Kubernetes PreFilter, Nova request filter): it narrows the
 * candidate query before it runs, and judges no host. Enabled in the filter list.
 */
export interface AmendPlugin extends FilterStageBase {
  amendRequest(
    req: RequestSpec,
    ctx: AmendContext,
  ): RequestAmendment | null | Promise<RequestAmendment | null>;
}

/**
 * A host filter: whether each host fits. It may also narrow the candidate query first
 * (`amendRequest`, as an {@link AmendPlugin} does) and prepare per-request state once.
 * Hooks may be async; the pipeline races async hooks against the remaining time budget.
 */
export interface FilterPlugin<S = void> extends FilterStageBase {
  /** Optional pre-candidate hook, as {@link AmendPlugin.amendRequest}. */
  amendRequest?(
    req: RequestSpec,
    ctx: AmendContext,
  ): RequestAmendment | null | Promise<RequestAmendment | null>;
  /** Once per request, before the first host (Kubernetes CycleState). */
  prepare?(req: RequestSpec): S | Promise<S>;
  /** Whether one host fits. Must not throw for "does not fit": return a reason instead. */
  filter(host: HostView, req: RequestSpec, state: S): Verdict | Promise<Verdict>;
}

/** What the filter list (`enabledFilters`) holds: host filters and pre-candidate hooks. */
export type FilterStage = FilterPlugin<unknown> | AmendPlugin;

/**
 * A weigher: a raw weight per host. The pipeline min-max normalises the raw weights (or uses
 * `minval`/`maxval` when set), multiplies by the per-host multiplier, and sums across weighers.
 * A weigher that throws or overruns its budget is dropped for that request (weighers cannot reject).
 */
export interface WeigherPlugin<S = void> extends PluginBase {
  readonly kind: 'weigher';
  /** Configured multiplier; positive prefers high raw weights, negative prefers low ones. */
  readonly multiplier: number;
  /** Aggregate metadata key overriding `multiplier` per host (lowest value wins), e.g. `ram_weight_multiplier`. */
  readonly multiplierMetadataKey?: string;
  /**
   * Nova weighers whose `weight_multiplier` returns minus the configured value
   * (BuildFailureWeigher): the host's multiplier, `multiplier` or the lowest aggregate value of
   * `multiplierMetadataKey`, is negated once resolved (`build_failure_weight_multiplier` 500 and
   * 1000 in two aggregates: -500).
   */
  readonly negateMultiplier?: boolean;
  /**
   * Nova `BaseWeigher.minval`: raw weights below it count as it, and normalisation starts there
   * instead of at the lowest raw weight (Nova's RAM, Disk, CPU and IoOps weighers declare 0).
   */
  readonly minval?: number;
  /** Nova `BaseWeigher.maxval`: raw weights above it count as it; normalisation ends there. */
  readonly maxval?: number;
  prepare?(req: RequestSpec): S | Promise<S>;
  weigh(host: HostView, req: RequestSpec, state: S): number | Promise<number>;
}

/** Any plugin instance. */
export type SchedulerPlugin = FilterStage | WeigherPlugin<unknown>;

/**
 * Builds a plugin from its operator configuration; throws (at start-up) on invalid configuration.
 * `P` is what it builds: annotate `create` with {@link FilterFactory}, {@link AmendFactory} or
 * {@link WeigherFactory} (type-only imports: a compiled plugin needs nothing from berth at run time)
 * and callers and tests get the plugin's own type, without casts.
 */
export type PluginFactory<
  P extends SchedulerPlugin = SchedulerPlugin,
  C = Readonly<Record<string, unknown>>,
> = (config: C, handle: PluginHandle) => P;

/**
 * A host filter's factory (`export const create: FilterFactory = (config, handle) => ({ ... })`).
 * `C`: the configuration `create` is given, `ConfigOf<typeof configSchema>` with a schema.
 */
export type FilterFactory<S = void, C = Readonly<Record<string, unknown>>> = PluginFactory<
  FilterPlugin<S>,
  C
>;

/** A pre-candidate hook's factory. */
export type AmendFactory<C = Readonly<Record<string, unknown>>> = PluginFactory<AmendPlugin, C>;

/** A weigher's factory. */
export type WeigherFactory<S = void, C = Readonly<Record<string, unknown>>> = PluginFactory<
  WeigherPlugin<S>,
  C
>;

/**
 * A plugin's configuration schema, built with the zod berth hands it (so the compiled plugin needs
 * no zod of its own): `export const configSchema: ConfigSchema = (z) => z.object({ ... })`. The
 * registry takes its keys as the plugin's configuration keys, and checks the configuration against
 * it (defaults filled in) before `create` is called with the result.
 */
export type ConfigSchema = (zod: typeof z) => z.ZodObject<z.ZodRawShape>;

/** The configuration `create` is given for a schema (`FilterFactory<void, ConfigOf<typeof configSchema>>`). */
export type ConfigOf<S extends ConfigSchema> = z.output<ReturnType<S>>;

/** The shape of a plugin module (built-in folder or operator `.js` file). */
export interface PluginModule {
  readonly NAME: string;
  readonly kind: PluginKind;
  readonly create: PluginFactory;
  /**
   * The configuration keys the plugin reads. When exported, a key not listed here stops start-up
   * (a typo such as `multipler` is an error, not a silently ignored setting); `[]` = takes none.
   * Unset: any keys are passed through unchecked.
   */
  readonly CONFIG_KEYS?: readonly string[];
  /** The configuration schema (its keys are the configuration keys); see {@link ConfigSchema}. */
  readonly configSchema?: ConfigSchema;
}
