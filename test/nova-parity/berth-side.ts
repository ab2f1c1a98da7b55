// Nova parity harness, berth side: loads a scenario into a berth app through the public GraphQL
// API and reads berth's verdicts with `explainPlacement`, one call per compared filter run alone
// (the admin-only `input.filters: [X]`) plus one with `filters: []` for the weighers and the
// baseline. A host's writes go in one document, several hosts (and explains) at a time.
//
// Mapping of the scenario into Placement (berth's documented model, docs/scheduler-plugins.md):
//   host                 root provider named host.name; VCPU / MEMORY_MB / DISK_GB inventories
//                        with the scenario's total, reserved, allocation_ratio; member of the
//                        scenario's scope aggregate (no metadata) and of its aggregates
//   disabled service     trait COMPUTE_STATUS_DISABLED on the root
//   supported_instances  root traits HW_ARCH_<ARCH> (os-traits names: armv7l -> HW_ARCH_ARMV7),
//                        CUSTOM_HYPERVISOR_<TYPE>, CUSTOM_VM_MODE_<MODE>: one per distinct value
//   host_ip              root trait CUSTOM_HOST_IP_<address, . as _> (filters/host-state/ip.ts)
//   hypervisor_version   root trait CUSTOM_HYPERVISOR_VERSION_<n>
//   capabilities         root traits as drawn (COMPUTE_IMAGE_TYPE_*, COMPUTE_STORAGE_BUS_*, ...,
//                        CUSTOM_ISO_*: extras.ts)
//   metrics              root traits CUSTOM_METRIC_<NAME>_<value as reported> (host-state/metrics)
//   free PCI devices     PCI_DEVICE inventory of that total on the root (PCIWeigher's default
//                        classes), none when 0
//   failed builds        reportBuildFailure that many times
//   cell                 the scenario's cell aggregates (metadata cell = the cell uuid)
//   instance             a consumer of its project with its flavor allocated on its host
//   move in progress     `schedule` of that consumer with `inTree` = destination, filters []:
//                        source + destination allocations and a consumer_moves record
//   server group         createServerGroup + addServerGroupMembers
//   request              ScheduleInput: consumerUuids [request.consumer], projectId, the flavor as
//                        one request group (member_of the scope aggregate), extraSpecs = flavor
//                        extra specs + `flavor:name` + image properties (and the image id) as
//                        `image:<name>` (disk_format too), hints (query, build_near_host_ip, cidr,
//                        requested_destination_cell, allow_cross_cell_move), sameHost,
//                        differentHost, group, availabilityZone, profile = scenario profile.
// A host's verdict for filter X is "in the ranking of the X-alone call": a host removed by X's
// request amendment (ComputeFilter's forbidden trait, the zone / tenant member_of) fails X like a
// host X rejected. Only hosts in the baseline (allocation candidates with no filter) are compared;
// the generator leaves room for the request on every host, so none should be hidden (counted).
import { metricTrait } from '../../filters/host-state/metrics';
import type { App } from '../../src/app/app';
import { gql } from '../support/graphql';
import { presentFilters } from './profiles';
import { CLASSES, type Host, type Resources, type Scenario } from './scenario';

/** One weigher's part of a host's weight, as berth reports it. */
export interface BerthWeight {
  readonly raw: number;
  readonly normalized: number;
  readonly multiplier: number;
}

/** What berth decided for one filter run alone. */
export interface BerthFilterRun {
  readonly pass: string[];
  /** Hosts the filter itself rejected (the others failing it were removed by its amendment). */
  readonly rejected: Record<string, string>;
  readonly failure?: string;
}

export interface BerthResult {
  readonly index: number;
  /** Host uuids that reached the filter stage with no filter at all. */
  readonly baseline: string[];
  readonly filters: Record<string, BerthFilterRun>;
  readonly weights: Record<string, Record<string, BerthWeight>>;
  readonly totals: Record<string, number>;
  /** ranking[0] of the baseline call. */
  readonly best: string | null;
}

const ARCH_TRAIT: Readonly<Record<string, string>> = { armv7l: 'ARMV7' };
const traitPart = (v: string) => v.toUpperCase().replace(/[^A-Z0-9_]/g, '_');

/** berth's root traits for a host (see the header). */
export function hostTraits(h: Host): string[] {
  const traits = new Set<string>();
  if (h.disabled) {
    traits.add('COMPUTE_STATUS_DISABLED');
  }
  for (const [arch, hv, mode] of h.supported) {
    traits.add(`HW_ARCH_${ARCH_TRAIT[arch] ?? traitPart(arch)}`);
    traits.add(`CUSTOM_HYPERVISOR_${traitPart(hv)}`);
    traits.add(`CUSTOM_VM_MODE_${traitPart(mode)}`);
  }
  if (h.ip !== null) {
    traits.add(`CUSTOM_HOST_IP_${traitPart(h.ip)}`);
  }
  traits.add(`CUSTOM_HYPERVISOR_VERSION_${h.hypervisorVersion}`);
  for (const t of h.extras.capabilities) {
    traits.add(t);
  }
  for (const [name, value] of Object.entries(h.extras.metrics)) {
    traits.add(metricTrait(name, value));
  }
  return [...traits].sort();
}

const amounts = (r: Resources) => CLASSES.map((rc) => ({ resourceClass: rc, amount: r[rc] }));

/** One batched GraphQL document: aliased calls of one field, each with its own input variable. */
async function batch(
  app: App,
  op: 'query' | 'mutation',
  field: string,
  type: string,
  inputs: readonly unknown[],
  selection: string,
  chunk = 200,
): Promise<any[]> {
  const out: any[] = [];
  for (let start = 0; start < inputs.length; start += chunk) {
    const part = inputs.slice(start, start + chunk);
    const vars = part.map((_, i) => `$v${i}: ${type}`).join(', ');
    const calls = part.map((_, i) => `a${i}: ${field}(input: $v${i}) ${selection}`).join('\n');
    const variables = Object.fromEntries(part.map((v, i) => [`v${i}`, v]));
    const res = await gql(app, `${op} B(${vars}) {\n${calls}\n}`, variables);
    if (res.errors?.length) {
      throw new Error(`${field}: ${JSON.stringify(res.errors.slice(0, 3))}`);
    }
    out.push(...part.map((_, i) => res.data[`a${i}`]));
  }
  return out;
}

const HOST_DOCUMENT = `mutation H($create: CreateResourceProviderInput!,
  $traits: SetProviderTraitsInput!, $aggregates: SetProviderAggregatesInput!) {
  c: createResourceProvider(input: $create) { generation }
  t: setProviderTraits(input: $traits) { generation }
  a: setProviderAggregates(input: $aggregates) { generation }
}`;

/** Runs `fn` over `items`, at most `limit` at a time. */
export async function concurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Creates the custom traits the scenarios' hosts carry (before loading them concurrently). */
export async function createTraits(app: App, scenarios: readonly Scenario[]): Promise<void> {
  const custom = [...new Set(scenarios.flatMap((s) => s.hosts.flatMap(hostTraits)))].filter((t) =>
    t.startsWith('CUSTOM_'),
  );
  await batch(
    app,
    'mutation',
    'createTrait',
    'CustomNameInput',
    custom.map((name) => ({ name })),
    '{ name }',
  );
}

/** Writes the scenario into berth (see the header for the mapping; traits: createTraits). */
export async function loadScenario(app: App, s: Scenario): Promise<void> {
  await batch(
    app,
    'mutation',
    'setAggregateMetadata',
    'SetAggregateMetadataInput',
    s.aggregates.map((a) => ({
      uuid: a.uuid,
      name: a.name,
      metadata: Object.entries(a.metadata).map(([key, value]) => ({ key, value })),
    })),
    '{ uuid }',
  );
  // One document per host (its writes in order, at the generations they leave: create 0,
  // traits 1, aggregates 2), several hosts at a time; then every inventory in one reshape.
  await concurrently(s.hosts, 6, async (h) => {
    const res = await gql(app, HOST_DOCUMENT, {
      create: { name: h.name, uuid: h.uuid },
      traits: { providerUuid: h.uuid, generation: 0, traits: hostTraits(h) },
      aggregates: {
        providerUuid: h.uuid,
        generation: 1,
        aggregates: [
          s.scope,
          ...s.aggregates.filter((a) => a.hosts.includes(h.uuid)).map((a) => a.uuid),
        ],
      },
    });
    if (res.errors?.length) {
      throw new Error(`host ${h.name}: ${JSON.stringify(res.errors.slice(0, 3))}`);
    }
  });
  const inventories = s.hosts.map((h) => ({
    providerUuid: h.uuid,
    generation: 2,
    inventories: [
      ...CLASSES.map((rc) => ({
        resourceClass: rc,
        total: h.inventories[rc].total,
        reserved: h.inventories[rc].reserved,
        allocationRatio: h.inventories[rc].ratio,
      })),
      ...(h.extras.pciDevices > 0
        ? [{ resourceClass: 'PCI_DEVICE', total: h.extras.pciDevices, reserved: 0 }]
        : []),
    ],
  }));
  const reshaped = await gql(app, 'mutation R($i: ReshapeInput!) { reshape(input: $i) }', {
    i: { inventories, allocations: [] },
  });
  if (reshaped.errors?.length) {
    throw new Error(`reshape: ${JSON.stringify(reshaped.errors.slice(0, 3))}`);
  }
  if (s.instances.length > 0) {
    const input = s.instances.map((x) => ({
      consumerUuid: x.uuid,
      projectId: x.project,
      userId: 'u1',
      consumerGeneration: null,
      allocations: [{ providerUuid: x.host, resources: amounts(x.resources) }],
    }));
    const res = await gql(
      app,
      'mutation A($input: [ConsumerAllocationsInput!]!) { setAllocations(input: $input) { uuid } }',
      { input },
    );
    if (res.errors?.length) {
      throw new Error(`setAllocations: ${JSON.stringify(res.errors.slice(0, 3))}`);
    }
  }
  await batch(
    app,
    'mutation',
    'reportBuildFailure',
    'BuildResultInput!',
    s.hosts.flatMap((h) =>
      Array.from({ length: h.extras.failedBuilds }, () => ({ providerUuid: h.uuid })),
    ),
    '{ failedBuilds }',
  );
  const moves = s.instances.filter((x) => x.moveTo !== undefined);
  const moved = await batch(
    app,
    'mutation',
    'schedule',
    'ScheduleInput!',
    moves.map((x) => ({
      consumerUuids: [x.uuid],
      projectId: x.project,
      userId: 'u1',
      filters: [],
      request: { groups: [{ resources: amounts(x.resources), inTree: x.moveTo }] },
    })),
    '{ selections { host { uuid } reason } }',
  );
  moved.forEach((m, i) => {
    if (m.selections[0].host?.uuid !== moves[i]!.moveTo) {
      throw new Error(`move of ${moves[i]!.uuid} not placed: ${m.selections[0].reason}`);
    }
  });
  const groups = await batch(
    app,
    'mutation',
    'createServerGroup',
    'CreateServerGroupInput!',
    s.groups.map((g) => ({
      uuid: g.uuid,
      name: g.name,
      projectId: g.project,
      userId: 'u1',
      policy: g.policy.toUpperCase().replace(/-/g, '_'),
      ...(g.maxServerPerHost === undefined ? {} : { maxServerPerHost: g.maxServerPerHost }),
    })),
    '{ uuid }',
  );
  for (const [i, g] of s.groups.entries()) {
    if (g.members.length > 0) {
      const res = await gql(
        app,
        'mutation M($u: ID!, $c: [ID!]!) { addServerGroupMembers(uuid: $u, consumerUuids: $c) { uuid } }',
        { u: groups[i].uuid, c: g.members },
      );
      if (res.errors?.length) {
        throw new Error(`addServerGroupMembers: ${JSON.stringify(res.errors)}`);
      }
    }
  }
}

/** The ScheduleInput of the scenario's request, under `profile` (default: the scenario's). */
export function scheduleInput(
  s: Scenario,
  filters: readonly string[],
  profile = s.profile.name,
): Record<string, unknown> {
  const r = s.request;
  const specs: Record<string, string> = { ...r.extraSpecs, 'flavor:name': r.flavorName };
  for (const [k, v] of Object.entries(r.image)) {
    specs[`image:${k}`] = v;
  }
  const hints = Object.entries(r.hints).map(([key, values]) => ({ key, values }));
  return {
    consumerUuids: [r.consumer],
    projectId: r.project,
    userId: r.user,
    profile,
    filters,
    request: { groups: [{ resources: amounts(r.resources), memberOf: [s.scope] }] },
    extraSpecs: Object.entries(specs).map(([key, value]) => ({ key, value })),
    ...(hints.length > 0 ? { hints } : {}),
    ...(r.sameHost ? { sameHost: r.sameHost } : {}),
    ...(r.differentHost ? { differentHost: r.differentHost } : {}),
    ...(r.group ? { group: r.group } : {}),
    ...(r.availabilityZone ? { availabilityZone: r.availabilityZone } : {}),
  };
}

const EXPLAIN = `{
  filterSteps { filter rejections { host { uuid } reason } failure }
  ranking { host { uuid } weight weights { weigher raw normalized multiplier } }
  pluginFailures { plugin phase message }
}`;

/**
 * berth's verdicts of the filters `names` (default: every compared filter) and its weights for
 * the scenario's request, under `profile` (default: the scenario's).
 */
export async function explainScenario(
  app: App,
  s: Scenario,
  names: readonly string[] = presentFilters().map((p) => p.berth),
  profile = s.profile.name,
): Promise<BerthResult> {
  const runs = await concurrently([[], ...names.map((n) => [n])], 4, async (filters) => {
    const [run] = await batch(
      app,
      'query',
      'explainPlacement',
      'ScheduleInput!',
      [scheduleInput(s, filters, profile)],
      EXPLAIN,
    );
    return run;
  });
  const [base, ...alone] = runs;
  const filters: Record<string, BerthFilterRun> = {};
  names.forEach((name, i) => {
    const run = alone[i];
    const step = run.filterSteps.find((f: any) => f.filter === name);
    const failures = [
      step?.failure,
      ...run.pluginFailures.map((f: any) => `${f.plugin} ${f.phase}: ${f.message}`),
    ].filter(Boolean);
    filters[name] = {
      pass: run.ranking.map((r: any) => r.host.uuid),
      rejected: Object.fromEntries(
        (step?.rejections ?? []).map((r: any) => [r.host.uuid, r.reason]),
      ),
      ...(failures.length > 0 ? { failure: failures.join('; ') } : {}),
    };
  });
  const weights: BerthResult['weights'] = {};
  const totals: BerthResult['totals'] = {};
  for (const r of base.ranking) {
    totals[r.host.uuid] = r.weight;
    weights[r.host.uuid] = Object.fromEntries(
      r.weights.map((w: any) => [
        w.weigher,
        { raw: w.raw, normalized: w.normalized, multiplier: w.multiplier },
      ]),
    );
  }
  return {
    index: s.index,
    baseline: base.ranking.map((r: any) => r.host.uuid),
    filters,
    weights,
    totals,
    best: base.ranking[0]?.host.uuid ?? null,
  };
}
