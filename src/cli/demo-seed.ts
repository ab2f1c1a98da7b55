// Creates the demo cloud (src/demo/) through berth's GraphQL API, step by step, as nova-compute,
// an operator and nova-scheduler would: classes and traits, aggregates with metadata, provider
// trees with inventories, traits and aggregates, quota limits, server groups, then instances
// placed by `schedule`. Reports progress through `say`.
import type { DemoBoot, DemoCloud, DemoFlavor, DemoProvider } from '../demo/types';
import { DemoApiError, type DemoClient } from './demo-client';

const M = {
  probe: `query DemoProbe($marker: String!) {
    auditEvents(first: 1) { edges { cursor } }
    marker: resourceProviders(filter: { name: $marker }, first: 1) { totalCount }
    all: resourceProviders(first: 1) { totalCount }
  }`,
  resourceClass: 'mutation($n: String!) { createResourceClass(input: { name: $n }) { name } }',
  trait: 'mutation($n: String!) { createTrait(input: { name: $n }) { name } }',
  aggregate:
    'mutation($i: SetAggregateMetadataInput!) { setAggregateMetadata(input: $i) { uuid } }',
  provider:
    'mutation($i: CreateResourceProviderInput!) { createResourceProvider(input: $i) { generation } }',
  inventories: 'mutation($i: SetInventoriesInput!) { setInventories(input: $i) { generation } }',
  traits: 'mutation($i: SetProviderTraitsInput!) { setProviderTraits(input: $i) { generation } }',
  aggregates:
    'mutation($i: SetProviderAggregatesInput!) { setProviderAggregates(input: $i) { generation } }',
  quota: 'mutation($i: QuotaLimitsInput!) { setQuotaLimits(input: $i) { projectId } }',
  group: 'mutation($i: CreateServerGroupInput!) { createServerGroup(input: $i) { uuid } }',
  schedule: `mutation($i: ScheduleInput!) {
    schedule(input: $i) { selections { consumerUuid reason host { name } } }
  }`,
};

/** What the target holds before the demo starts. */
export interface Vacancy {
  readonly hasDemo: boolean;
  readonly providers: number;
}

/** Checks the token (an admin-only read) and whether the target is empty or holds the demo. */
export async function probe(client: DemoClient, cloud: DemoCloud): Promise<Vacancy> {
  const d = await client.gql<{
    marker: { totalCount: number };
    all: { totalCount: number };
  }>(M.probe, { marker: cloud.marker });
  return { hasDemo: d.marker.totalCount > 0, providers: d.all.totalCount };
}

/** Instances placed and refused by the scheduler. */
export interface Placement {
  readonly placed: number;
  readonly hosts: ReadonlySet<string>;
  /** Reason -> consumers the scheduler could not place. */
  readonly refused: ReadonlyMap<string, number>;
}

/** Runs `work` over `items` with at most `limit` at a time; the first failure rejects. */
async function pool<T>(items: readonly T[], limit: number, work: (t: T) => Promise<void>) {
  let next = 0;
  const run = async () => {
    while (next < items.length) {
      await work(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}

/** Creates a CUSTOM_ class or trait; one that already exists is fine (a second cloud, --force). */
async function createCustom(client: DemoClient, doc: string, name: string, exists: string) {
  try {
    await client.gql(doc, { n: name });
  } catch (err) {
    if (!(err instanceof DemoApiError && err.code === exists)) {
      throw err;
    }
  }
}

/** One provider: created, then its inventories, traits and aggregates (generation by generation). */
async function createProvider(client: DemoClient, p: DemoProvider): Promise<void> {
  type Gen = { generation: number };
  let generation = (
    await client.gql<{ createResourceProvider: Gen }>(M.provider, {
      i: { name: p.name, uuid: p.uuid, parentUuid: p.parentUuid ?? null },
    })
  ).createResourceProvider.generation;
  if (p.inventories.length > 0) {
    generation = (
      await client.gql<{ setInventories: Gen }>(M.inventories, {
        i: { providerUuid: p.uuid, generation, inventories: p.inventories },
      })
    ).setInventories.generation;
  }
  if (p.traits.length > 0) {
    generation = (
      await client.gql<{ setProviderTraits: Gen }>(M.traits, {
        i: { providerUuid: p.uuid, generation, traits: p.traits },
      })
    ).setProviderTraits.generation;
  }
  if (p.aggregates.length > 0) {
    await client.gql(M.aggregates, {
      i: { providerUuid: p.uuid, generation, aggregates: p.aggregates },
    });
  }
}

/** Creates everything but the instances. */
export async function createInfrastructure(
  client: DemoClient,
  cloud: DemoCloud,
  say: (line: string) => void,
): Promise<void> {
  for (const name of cloud.customResourceClasses) {
    await createCustom(client, M.resourceClass, name, 'berth.resource_class.exists');
  }
  for (const name of cloud.customTraits) {
    await createCustom(client, M.trait, name, 'berth.trait.exists');
  }
  say(
    `  custom classes and traits: ${[...cloud.customResourceClasses, ...cloud.customTraits].join(', ')}`,
  );
  for (const a of cloud.aggregates) {
    await client.gql(M.aggregate, {
      i: {
        uuid: a.uuid,
        name: a.name,
        metadata: Object.entries(a.metadata).map(([key, value]) => ({ key, value })),
      },
    });
  }
  say(`  aggregates: ${cloud.aggregates.map((a) => a.name).join(', ')}`);
  // One tree at a time per worker: a parent exists before its children are created.
  const trees = new Map<string, DemoProvider[]>();
  const rootOf = new Map<string, string>();
  for (const p of cloud.providers) {
    const root = p.parentUuid ? rootOf.get(p.parentUuid)! : p.uuid;
    rootOf.set(p.uuid, root);
    trees.set(root, [...(trees.get(root) ?? []), p]);
  }
  // The first tree is the marker's: even a run stopped early is recognised as a demo cloud.
  const ordered = [...trees.values()];
  let done = 0;
  await pool(ordered, 4, async (tree) => {
    for (const p of tree) {
      await createProvider(client, p);
    }
    done += tree.length;
    if (done === cloud.providers.length || done % 20 < tree.length) {
      say(`  resource providers: ${done}/${cloud.providers.length}`);
    }
  });
  for (const project of cloud.projects) {
    await client.gql(M.quota, {
      i: {
        projectId: project.id,
        limits: Object.entries(project.limits).map(([resource, limit]) => ({ resource, limit })),
      },
    });
  }
  say(`  projects with quota limits: ${cloud.projects.map((p) => p.id).join(', ')}`);
  for (const g of cloud.serverGroups) {
    await client.gql(M.group, { i: g });
  }
  say(
    `  server groups: ${cloud.serverGroups.map((g) => `${g.name} (${g.policy.toLowerCase().replace(/_/g, '-')})`).join(', ')}`,
  );
}

type Selection = { reason: string | null; host: { name: string } | null };

const amounts = (resources: Readonly<Record<string, number>>) =>
  Object.entries(resources).map(([resourceClass, amount]) => ({ resourceClass, amount }));

/**
 * A flavor as Placement request groups: everything in the unsuffixed group, or, for a disk from
 * the shared pool, the disk in a group of its own on a provider sharing via an aggregate.
 */
function requestOf(flavor: DemoFlavor): Record<string, unknown> {
  const rootRequired = flavor.rootRequired.length > 0 ? { rootRequired: flavor.rootRequired } : {};
  if (!flavor.sharedDisk) {
    return { groups: [{ resources: amounts(flavor.resources) }], ...rootRequired };
  }
  const { DISK_GB: disk = 0, ...rest } = flavor.resources;
  return {
    groups: [
      { resources: amounts(rest) },
      {
        suffix: '_DISK',
        resources: amounts({ DISK_GB: disk }),
        required: ['MISC_SHARES_VIA_AGGREGATE'],
      },
    ],
    groupPolicy: 'NONE',
    ...rootRequired,
  };
}

/** The root cause of a refusal: a multi-create's "not attempted" names the failure it follows. */
function rootReason(reason: string | null): string {
  const m = /^Not attempted: .*\(([^()]+)\)$/.exec(reason ?? '');
  return m ? m[1]! : (reason ?? 'no host');
}

/** One boot request through `schedule`: its selections, or the error refusing it as a whole. */
async function schedule(client: DemoClient, b: DemoBoot): Promise<Selection[] | string> {
  const { flavor } = b;
  try {
    const d = await client.gql<{ schedule: { selections: Selection[] } }>(M.schedule, {
      i: {
        consumerUuids: b.consumerUuids,
        projectId: b.projectId,
        userId: b.userId,
        request: requestOf(flavor),
        extraSpecs: Object.entries(flavor.extraSpecs).map(([key, value]) => ({ key, value })),
        availabilityZone: b.availabilityZone ?? null,
        group: b.group ?? null,
      },
    });
    return d.schedule.selections;
  } catch (err) {
    // Refused as a whole (e.g. over quota): reported with the others, the demo goes on.
    if (err instanceof DemoApiError) {
      return err.message;
    }
    throw err;
  }
}

/** Places every boot request with `schedule`, in order. */
export async function placeInstances(
  client: DemoClient,
  cloud: DemoCloud,
  say: (line: string) => void,
): Promise<Placement> {
  const total = cloud.boots.reduce((n, b) => n + b.consumerUuids.length, 0);
  let placed = 0;
  let seen = 0;
  let reported = 0;
  const hosts = new Set<string>();
  const refused = new Map<string, number>();
  const refuse = (why: string, n: number) => refused.set(why, (refused.get(why) ?? 0) + n);
  for (const b of cloud.boots) {
    const answer = await schedule(client, b);
    if (typeof answer === 'string') {
      refuse(`${b.flavor.name}: ${answer}`, b.consumerUuids.length);
    } else {
      for (const s of answer) {
        if (s.host) {
          placed++;
          hosts.add(s.host.name);
        } else {
          refuse(`${b.flavor.name}: ${rootReason(s.reason)}`, 1);
        }
      }
    }
    seen += b.consumerUuids.length;
    if (seen - reported >= 50 || seen === total) {
      reported = seen;
      say(`  instances: ${seen}/${total} scheduled (${placed} placed)`);
    }
  }
  return { placed, hosts, refused };
}
