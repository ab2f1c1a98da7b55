// The plugin test kit: plain data in, the views a plugin sees out. Plugin table tests (built-in
// ones in filters/, operators' own, docs/writing-a-filter.md) build hosts with `buildHostView` and
// requests with `buildRequestSpec`, and plugins with `buildPlugin` as the registry does. Test code
// only: nothing in berth's running code imports it.
import { emptyRequestGroup, type RequestGroup } from '../placement/allocation-candidates/request';
import type {
  ConfigSchema,
  PluginFactory,
  RequestSpec,
  SchedulerPlugin,
  ServerGroupView,
} from './plugin-api';
import { parsePluginConfig, schemaOf } from './plugin-config';
import { assembleHostView, type HostViewInput } from './state/host-view';

/**
 * True when a reason code is well-formed, as the pipeline checks it (lowercase dotted words, at
 * most 100 characters): a table test can check its plugin's `CODE_*` constants with it.
 */
export { isReasonCode } from './runtime/verdict';
export type { HostViewInput, InventoryInput, ProviderInput } from './state/host-view';

/**
 * Builds a `HostView` from plain data, filling Placement's inventory defaults and computing
 * capacity, as the pipeline builds the views it hands to plugins.
 * @throws Error when the first provider is not a root.
 */
export function buildHostView(input: HostViewInput) {
  return assembleHostView(input);
}

/** Input of `buildRequestSpec`: either `resources` for one unsuffixed group, or full `groups`. */
export interface RequestSpecInput {
  readonly resources?: Readonly<Record<string, number>>;
  readonly groups?: readonly RequestGroup[];
  readonly extraSpecs?: Readonly<Record<string, string>>;
  readonly projectId?: string;
  readonly userId?: string;
  readonly hints?: Readonly<Record<string, readonly string[]>>;
  readonly instanceHosts?: Readonly<Record<string, readonly string[]>>;
  readonly availabilityZone?: string;
  readonly serverGroup?: ServerGroupView;
}

/** Builds a `RequestSpec` from plain data (project defaults to `'project'`). */
export function buildRequestSpec(input: RequestSpecInput = {}): RequestSpec {
  const groups = input.groups ?? [
    { ...emptyRequestGroup(''), resources: { ...(input.resources ?? {}) } },
  ];
  return {
    candidateRequest: { groups },
    extraSpecs: { ...(input.extraSpecs ?? {}) },
    projectId: input.projectId ?? 'project',
    ...(input.userId === undefined ? {} : { userId: input.userId }),
    hints: { ...(input.hints ?? {}) },
    instanceHosts: { ...(input.instanceHosts ?? {}) },
    ...(input.availabilityZone === undefined ? {} : { availabilityZone: input.availabilityZone }),
    ...(input.serverGroup === undefined ? {} : { serverGroup: input.serverGroup }),
  };
}

/**
 * A plugin module's `create` called as the registry calls it: the configuration checked against
 * the module's `configSchema` (when it has one; defaults filled in), a silent log.
 * @throws Error `<NAME>: config "<key>" …` for a configuration the schema refuses, or what
 *   `create` throws.
 */
export function buildPlugin<P extends SchedulerPlugin, C>(
  module: {
    readonly NAME: string;
    readonly create: PluginFactory<P, C>;
    readonly configSchema?: ConfigSchema;
  },
  config: Readonly<Record<string, unknown>> = {},
): P {
  const checked = module.configSchema
    ? parsePluginConfig(schemaOf(module.configSchema), module.NAME, config)
    : config;
  return module.create(checked as C, { name: module.NAME, config: checked, log: () => {} });
}
