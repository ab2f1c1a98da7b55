// GraphQL: ResourceUsage, ResourceProvider.usages and the usages report for quota counting
// (upstream: handlers/usage.py, 1.38 consumer-type grouping).

import { BadRequestError, ErrorCode } from '../src/placement/errors';
import type { UsageRecord } from '../src/placement/types';
import type {
  ConsumerTypeUsage as ConsumerTypeUsageRecord,
  UsageReport as UsageReportRecord,
} from '../src/placement/usage';
import { owned, part } from './access';
import { builder } from './builder';
import { ResourceProvider } from './resource-provider';
import { saturatedInt, saturatedReason } from './safe-int';

/** GraphQL ResourceUsage: units of one class in use. */
export const ResourceUsage = builder.objectRef<UsageRecord>('ResourceUsage').implement({
  ...part,
  description: 'Units of one resource class in use.',
  fields: (t) => ({
    resourceClass: t.exposeString('resourceClass', { description: 'The resource class.' }),
    used: t.int({
      description: 'Units in use, saturated at 2147483647.',
      deprecationReason: saturatedReason('usedExact'),
      resolve: (u) => saturatedInt(u.used),
    }),
    usedExact: t.field({
      type: 'SafeInt',
      description: 'Units in use (exact beyond 2^31 - 1: sums over many providers grow large).',
      resolve: (u) => u.used,
    }),
  }),
});

builder.objectField(ResourceProvider, 'usages', (t) =>
  t.field({
    type: [ResourceUsage],
    description:
      'GET /resource_providers/{uuid}/usages: every class with inventory (0 when unused) or allocations.',
    resolve: (rp, _args, ctx) => ctx.loaders.usagesByProviderId.load(rp.id),
  }),
);

const ConsumerTypeUsage = builder
  .objectRef<ConsumerTypeUsageRecord>('ConsumerTypeUsage')
  .implement({
    ...part,
    description: 'Usage of the consumers of one type.',
    fields: (t) => ({
      consumerType: t.exposeString('consumerType', {
        description: "The type name, or 'unknown' for consumers written without one.",
      }),
      consumerCount: t.exposeInt('consumerCount', { description: 'Consumers of this type.' }),
      usages: t.field({
        description: 'Their usage per class.',
        type: [ResourceUsage],
        resolve: (u) => u.usages,
      }),
    }),
  });

const UsageReport = builder
  .objectRef<UsageReportRecord & { readonly projectId: string }>('UsageReport')
  .implement({
    ...owned((r: { projectId: string }) => r.projectId),
    description: 'Usage totals of a project (or user), overall and per consumer type.',
    fields: (t) => ({
      byConsumerType: t.field({
        type: [ConsumerTypeUsage],
        description:
          'One row per consumer type (Placement 1.38 grouping), plus the overall totals in `total`.',
        resolve: (r) => r.byConsumerType,
      }),
      total: t.field({
        description: 'All consumers together, per class.',
        type: [ResourceUsage],
        resolve: (r) => r.total,
      }),
    }),
  });

/** Checks a project or user id as Placement's schema does (1 to 255 characters). */
function externalIdOrThrow(what: string, v: string): string {
  if (v.length < 1 || v.length > 255) {
    throw new BadRequestError(
      `Invalid ${what} '${v}': it must be 1 to 255 characters long.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return v;
}

builder.queryField('usages', (t) =>
  t.field({
    type: UsageReport,
    description:
      "Usage totals for quota counting (GET /usages): per project, optionally per user, by consumer type ('all' or omitted: every type; 'unknown': consumers without a type).",
    args: {
      projectId: t.arg.string({ required: true, description: 'The project to count.' }),
      userId: t.arg.string({ required: false, description: "Only this user's consumers." }),
      consumerType: t.arg.string({
        required: false,
        description:
          "Only this consumer type ('unknown': written without one; 'all' or absent: every type).",
      }),
    },
    resolve: async (_root, args, ctx) => {
      const projectId = externalIdOrThrow('project_id', args.projectId);
      const report = await ctx.services.usages.forProject({
        projectId,
        userId:
          args.userId === null || args.userId === undefined
            ? null
            : externalIdOrThrow('user_id', args.userId),
        consumerType: args.consumerType,
      });
      return { ...report, projectId };
    },
  }),
);
