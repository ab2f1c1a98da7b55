// GraphQL: ServerGroup (Nova's server groups: os-server-groups) — create, list, delete, members,
// and where the members run. `schedule` with `group` makes its consumers members and enforces the
// hard policies (src/placement/server-group.ts, server-group-guard.ts). A token scoped to a
// project sees and changes only its own project's groups.

import { ErrorCode, NotFoundError } from '../src/placement/errors';
import type { ServerGroupPolicy as Policy, ServerGroupRecord } from '../src/placement/server-group';
import { owned, part, visibleProject } from './access';
import { builder } from './builder';
import type { Context } from './context';
import { ResourceProvider } from './resource-provider';

const ServerGroupPolicy = builder.enumType('ServerGroupPolicy', {
  description: "A server group's placement policy (Nova's names, API microversion 2.64).",
  values: {
    AFFINITY: {
      value: 'affinity',
      description: 'Every member on one host (ServerGroupAffinityFilter; enforced by schedule).',
    },
    ANTI_AFFINITY: {
      value: 'anti-affinity',
      description:
        'At most maxServerPerHost members per host (ServerGroupAntiAffinityFilter; enforced by schedule).',
    },
    SOFT_AFFINITY: {
      value: 'soft-affinity',
      description: 'Prefer hosts running members (ServerGroupSoftAffinityWeigher).',
    },
    SOFT_ANTI_AFFINITY: {
      value: 'soft-anti-affinity',
      description: 'Prefer hosts running fewer members (ServerGroupSoftAntiAffinityWeigher).',
    },
  } satisfies Record<string, { value: Policy; description: string }>,
});

/** Where some of a group's members run. */
interface MemberHost {
  readonly hostUuid: string;
  readonly members: readonly string[];
}

const ServerGroupHost = builder.objectRef<MemberHost>('ServerGroupHost').implement({
  ...part,
  description: 'A host running members of a server group.',
  fields: (t) => ({
    host: t.field({
      type: ResourceProvider,
      nullable: true,
      description: "The host's root provider (null if deleted meanwhile).",
      resolve: (h, _a, ctx) => ctx.loaders.providerByUuid.load(h.hostUuid),
    }),
    members: t.idList({
      description: 'The members with allocations on it.',
      resolve: (h) => [...h.members],
    }),
  }),
});

const ServerGroup = builder.objectRef<ServerGroupRecord>('ServerGroup').implement({
  ...owned((g: ServerGroupRecord) => g.projectId),
  description:
    'A set of consumers placed by one policy (Nova server group). Members without allocations run nowhere and do not count.',
  fields: (t) => ({
    uuid: t.exposeID('uuid', { description: "The group's uuid (Nova's `group` hint value)." }),
    name: t.exposeString('name', { description: 'Its name.' }),
    projectId: t.exposeString('projectId', { description: 'The project it belongs to.' }),
    userId: t.exposeString('userId', { description: 'The user who created it.' }),
    policy: t.field({
      type: ServerGroupPolicy,
      description: 'Its policy.',
      resolve: (g) => g.policy,
    }),
    maxServerPerHost: t.int({
      description:
        "Most members per host (anti-affinity; Nova's max_server_per_host rule, default 1).",
      nullable: true,
      resolve: (g) => (g.policy === 'anti-affinity' ? (g.maxServerPerHost ?? 1) : null),
    }),
    members: t.idList({
      description: 'Member consumer uuids, in the order they joined.',
      resolve: (g) => [...g.members],
    }),
    hosts: t.field({
      type: [ServerGroupHost],
      description: 'Where the members run (hosts by uuid).',
      resolve: async (g, _a, ctx) =>
        [...(await ctx.services.serverGroups.hosts(g.uuid))].map(([hostUuid, members]) => ({
          hostUuid,
          members,
        })),
    }),
    createdAt: t.field({
      type: 'String',
      description: 'When it was created (ISO 8601).',
      resolve: (g) => g.createdAt.toISOString(),
    }),
  }),
});

/**
 * The group, if the caller may see it: a project-scoped token gets "not found" for another
 * project's group (existence is not disclosed).
 */
async function visibleGroupOrThrow(ctx: Context, uuid: string): Promise<ServerGroupRecord> {
  const group = await ctx.services.serverGroups.getOrThrow(uuid);
  if (!visibleProject(ctx, group.projectId)) {
    throw new NotFoundError(`No server group ${uuid}.`, ErrorCode.SERVER_GROUP_NOT_FOUND);
  }
  return group;
}

const CreateServerGroupInput = builder.inputType('CreateServerGroupInput', {
  description: 'A new server group.',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Its name (1 to 255 characters).' }),
    projectId: t.string({ required: true, description: 'The project it belongs to.' }),
    userId: t.string({ required: true, description: 'The user creating it.' }),
    policy: t.field({ type: ServerGroupPolicy, required: true, description: 'Its policy.' }),
    maxServerPerHost: t.int({
      required: false,
      description: 'Most members per host, at least 1; anti-affinity only (default 1).',
    }),
    uuid: t.id({ required: false, description: 'Its uuid; a new one when absent.' }),
  }),
});

builder.queryField('serverGroups', (t) =>
  t.field({
    type: [ServerGroup],
    extensions: { listSize: 100 },
    description: "Server groups, oldest first: one project's, or every project's (admin, reader).",
    args: {
      projectId: t.arg.string({
        required: false,
        description: 'Only this project (required for a project-scoped token: its own).',
      }),
    },
    resolve: (_r, args, ctx) => ctx.services.serverGroups.list(args.projectId ?? null),
  }),
);

builder.queryField('serverGroup', (t) =>
  t.field({
    type: ServerGroup,
    nullable: true,
    description:
      "One server group, or null (also for another project's group when the token is scoped to a project).",
    args: { uuid: t.arg.id({ required: true, description: 'Its uuid.' }) },
    resolve: async (_r, args, ctx) => {
      const group = await ctx.services.serverGroups.get(String(args.uuid));
      return group && visibleProject(ctx, group.projectId) ? group : null;
    },
  }),
);

builder.mutationField('createServerGroup', (t) =>
  t.field({
    type: ServerGroup,
    description: 'Creates a server group; name it in ScheduleInput.group to place its members.',
    args: {
      input: t.arg({ type: CreateServerGroupInput, required: true, description: 'The group.' }),
    },
    resolve: (_r, { input }, ctx) =>
      ctx.services.serverGroups.create({
        name: input.name,
        projectId: input.projectId,
        userId: input.userId,
        policy: input.policy,
        maxServerPerHost: input.maxServerPerHost ?? null,
        ...(input.uuid ? { uuid: String(input.uuid) } : {}),
      }),
  }),
);

builder.mutationField('deleteServerGroup', (t) =>
  t.id({
    description: 'Deletes a server group (its members keep their allocations); returns its uuid.',
    args: { uuid: t.arg.id({ required: true, description: 'Its uuid.' }) },
    resolve: async (_r, args, ctx) => {
      const group = await visibleGroupOrThrow(ctx, String(args.uuid));
      await ctx.services.serverGroups.delete(group.uuid);
      return group.uuid;
    },
  }),
);

builder.mutationField('addServerGroupMembers', (t) =>
  t.field({
    type: ServerGroup,
    description:
      'Makes consumers members (Nova adds an instance when it is created with the group hint; schedule with `group` does it in the claim). A consumer belongs to one group.',
    args: {
      uuid: t.arg.id({ required: true, description: "The group's uuid." }),
      consumerUuids: t.arg.idList({ required: true, description: 'The consumers to add.' }),
    },
    resolve: async (_r, args, ctx) => {
      const group = await visibleGroupOrThrow(ctx, String(args.uuid));
      return ctx.services.serverGroups.addMembers(group.uuid, args.consumerUuids.map(String));
    },
  }),
);

builder.mutationField('removeServerGroupMembers', (t) =>
  t.field({
    type: ServerGroup,
    description: 'Removes consumers from a group (their allocations stay).',
    args: {
      uuid: t.arg.id({ required: true, description: "The group's uuid." }),
      consumerUuids: t.arg.idList({ required: true, description: 'The consumers to remove.' }),
    },
    resolve: async (_r, args, ctx) => {
      const group = await visibleGroupOrThrow(ctx, String(args.uuid));
      return ctx.services.serverGroups.removeMembers(group.uuid, args.consumerUuids.map(String));
    },
  }),
);
