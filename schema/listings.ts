// GraphQL listings for UIs: Aggregate.members (a connection, replacing the unbounded
// Aggregate.providers), consumers (who uses what) and projects with their usage totals. Forward
// pages by internal id with opaque cursors; nested fields are DataLoader-batched.

import type { ProjectRecord } from '../src/placement/consumer-list';
import type { ConsumerRecord } from '../src/placement/types';
import { owned, part } from './access';
import { Aggregate } from './aggregate';
import { builder } from './builder';
import { Consumer } from './consumer';
import { cursorValueOrThrow, idConnectionOf, pageSizeOrThrow } from './pagination';
import { providerPage, ResourceProviderConnection } from './resource-provider-connection';
import { addTotalCount, withCount } from './total-count';

/** The id after which a page starts (none: the first page). */
function afterIdOrThrow(kind: string, cursor: string | null | undefined): number | undefined {
  return cursor ? cursorValueOrThrow(kind, cursor) : undefined;
}

builder.objectField(Aggregate, 'members', (t) =>
  t.field({
    type: ResourceProviderConnection,
    description: 'Member providers, by creation, a page at a time (`first` ≤ 1000, default 100).',
    args: {
      first: t.arg.int({ required: false, description: 'Page size (default 100, at most 1000).' }),
      after: t.arg.string({ required: false, description: 'The endCursor of the previous page.' }),
    },
    resolve: (a, args, ctx) =>
      providerPage(ctx, { memberOf: [[a.uuid]] }, pageSizeOrThrow(args.first), args.after),
  }),
);

const ConsumerFilter = builder.inputType('ConsumerFilter', {
  description: 'All given conditions must hold.',
  fields: (t) => ({
    projectId: t.string({ required: false, description: 'Consumers of this project.' }),
    userId: t.string({ required: false, description: 'Consumers of this user.' }),
    consumerType: t.string({
      required: false,
      description: "Consumers of this type ('unknown': written without one).",
    }),
    providerUuid: t.id({
      required: false,
      description: 'Consumers with allocations on this provider (who uses this host).',
    }),
  }),
});

const ConsumerConnection = builder.connectionObject(
  {
    type: Consumer,
    name: 'ConsumerConnection',
    ...part,
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'ConsumerEdge', ...part },
);
addTotalCount(ConsumerConnection);

builder.queryField('consumers', (t) =>
  t.field({
    type: ConsumerConnection,
    description:
      'Consumers holding allocations, by creation, a page at a time (`first` ≤ 1000, default 100).',
    args: {
      filter: t.arg({ type: ConsumerFilter, required: false, description: 'Which consumers.' }),
      first: t.arg.int({ required: false, description: 'Page size (default 100, at most 1000).' }),
      after: t.arg.string({ required: false, description: 'The endCursor of the previous page.' }),
    },
    resolve: async (_r, args, ctx) => {
      const limit = pageSizeOrThrow(args.first);
      const filter = {
        projectId: args.filter?.projectId ?? undefined,
        userId: args.filter?.userId ?? undefined,
        consumerType: args.filter?.consumerType ?? undefined,
        providerUuid: args.filter?.providerUuid ?? undefined,
      };
      const rows: ConsumerRecord[] = await ctx.services.listings.consumers(filter, {
        afterId: afterIdOrThrow('Consumer', args.after),
        limit: limit + 1,
      });
      for (const c of rows) {
        ctx.loaders.consumerById.prime(c.id, c);
      }
      return withCount(idConnectionOf('Consumer', rows, limit), () =>
        ctx.services.listings.countConsumers(filter),
      );
    },
  }),
);

const ProjectUsage = builder.objectRef<ProjectRecord['usages'][number]>('ProjectUsage').implement({
  ...part,
  description: 'Units of one resource class the project’s consumers hold.',
  fields: (t) => ({
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class name.' }),
    used: t.field({ type: 'SafeInt', description: 'Units in use.', resolve: (u) => u.used }),
  }),
});

const Project = builder.objectRef<ProjectRecord>('Project').implement({
  ...owned((p: ProjectRecord) => p.externalId),
  description: 'A project that holds allocations, with its usage totals (a project picker).',
  fields: (t) => ({
    projectId: t.exposeString('externalId', { description: 'The project id (Keystone’s).' }),
    consumerCount: t.exposeInt('consumerCount', { description: 'Its consumers.' }),
    usages: t.field({
      type: [ProjectUsage],
      description: 'Units in use per resource class, by class name.',
      resolve: (p) => [...p.usages],
    }),
  }),
});

const ProjectConnection = builder.connectionObject(
  {
    type: Project,
    name: 'ProjectConnection',
    ...part,
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'ProjectEdge', ...part },
);
addTotalCount(ProjectConnection);

builder.queryField('projects', (t) =>
  t.field({
    type: ProjectConnection,
    description:
      'Projects that hold allocations, with their usage totals, a page at a time (`first` ≤ 1000, default 100).',
    args: {
      first: t.arg.int({ required: false, description: 'Page size (default 100, at most 1000).' }),
      after: t.arg.string({ required: false, description: 'The endCursor of the previous page.' }),
    },
    resolve: async (_r, args, ctx) => {
      const limit = pageSizeOrThrow(args.first);
      const rows = await ctx.services.listings.projects({
        afterId: afterIdOrThrow('Project', args.after),
        limit: limit + 1,
      });
      return withCount(idConnectionOf('Project', rows, limit), () =>
        ctx.services.listings.countProjects(),
      );
    },
  }),
);
