// A cloud where two projects share the same hosts, for tenant-isolation tests: project A's caller
// (tokens below) must never see project B's consumers, users or project id, however it asks.
// Both projects hold allocations on the same provider tree (a host and its NUMA child), in one
// aggregate, and each has a server group with a member.
import { randomUUID } from 'node:crypto';
import type { App } from '../../src/app/app';
import { allocationInput } from './allocation-input';
import { buildResourceProvider } from './factories';
import { gql } from './graphql';

/** Project B's identifiers, each distinctive enough to be found in any answer. */
export const B_PROJECT = 'proj-b-7f3e2d';
export const B_USER = 'user-b-91c4aa';
export const A_PROJECT = 'proj-a';
export const A_USER = 'user-a';

/** What the tests use of the cloud. */
export interface TwoProjects {
  readonly tokens: {
    readonly admin: string;
    /** Keystone-style project member of A (lowest role). */
    readonly member: string;
    /** A reader token scoped to A. */
    readonly reader: string;
    /** A scheduler token scoped to A. */
    readonly scheduler: string;
  };
  readonly host: string;
  readonly child: string;
  readonly aggregate: string;
  /** A's consumers (one on the host, one on the child). */
  readonly own: readonly string[];
  /** B's consumers on the same providers. */
  readonly victims: readonly string[];
  readonly ownGroup: string;
  readonly victimGroup: string;
  /** Every string of B's that A's callers must never be shown. */
  readonly secrets: readonly string[];
}

/** Builds the cloud on `app` (auth must be on). */
export async function buildTwoProjects(app: App): Promise<TwoProjects> {
  const token = async (role: 'admin' | 'member' | 'reader' | 'scheduler', project?: string) =>
    (await app.tokens.create({ role, ...(project ? { project } : {}) })).token;
  const tokens = {
    admin: await token('admin'),
    member: await token('member', A_PROJECT),
    reader: await token('reader', A_PROJECT),
    scheduler: await token('scheduler', A_PROJECT),
  };
  const aggregate = randomUUID();
  const host = await buildResourceProvider(app.services, {
    name: `shared-host-${randomUUID().slice(0, 8)}`,
    inventories: [
      { resourceClass: 'VCPU', total: 1024 },
      { resourceClass: 'MEMORY_MB', total: 65536 },
    ],
    aggregates: [aggregate],
  });
  // The aggregate is isolated to both projects (Nova's AggregateMultiTenancyIsolation metadata).
  await app.services.aggregates.setMetadata(aggregate, undefined, [
    { key: 'filter_tenant_id', value: `${A_PROJECT},${B_PROJECT}` },
    { key: 'ssd', value: 'true' },
  ]);
  const child = await buildResourceProvider(app.services, {
    name: `shared-numa-${randomUUID().slice(0, 8)}`,
    parentUuid: host.uuid,
    inventories: [{ resourceClass: 'PCPU', total: 16 }],
  });
  const write = async (input: ReturnType<typeof allocationInput>[]) => {
    const r = await gql(
      app,
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      { i: input },
      { authorization: `Bearer ${tokens.admin}` },
    );
    if (r.errors) {
      throw new Error(JSON.stringify(r.errors));
    }
  };
  const a = { projectId: A_PROJECT, userId: A_USER };
  const b = { projectId: B_PROJECT, userId: B_USER };
  const own = [
    allocationInput(host.uuid, { VCPU: 2, MEMORY_MB: 1024 }, a),
    allocationInput(child.uuid, { PCPU: 1 }, a),
  ];
  const victims = [
    allocationInput(host.uuid, { VCPU: 4, MEMORY_MB: 2048 }, b),
    allocationInput(child.uuid, { PCPU: 2 }, b),
  ];
  await write([...own, ...victims]);
  const group = async (projectId: string, userId: string, member: string) => {
    const g = await app.services.serverGroups.create({
      name: `group-${projectId}`,
      projectId,
      userId,
      policy: 'anti-affinity',
    });
    await app.services.serverGroups.addMembers(g.uuid, [member]);
    return g.uuid;
  };
  const ownGroup = await group(A_PROJECT, A_USER, own[0]!.consumerUuid);
  const victimGroup = await group(B_PROJECT, B_USER, victims[0]!.consumerUuid);
  const victimUuids = victims.map((v) => v.consumerUuid);
  return {
    tokens,
    host: host.uuid,
    child: child.uuid,
    aggregate,
    own: own.map((o) => o.consumerUuid),
    victims: victimUuids,
    ownGroup,
    victimGroup,
    secrets: [B_PROJECT, B_USER, victimGroup, ...victimUuids],
  };
}

/**
 * B's strings found in `answer` that the request itself did not contain (a caller may send a
 * foreign uuid and see it echoed in an error; it must not learn one it did not send).
 */
export function leaked(secrets: readonly string[], request: string, answer: string): string[] {
  const sent = request.toLowerCase();
  const seen = answer.toLowerCase();
  return secrets.filter((s) => seen.includes(s.toLowerCase()) && !sent.includes(s.toLowerCase()));
}
