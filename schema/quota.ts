// GraphQL: Quota and QuotaLine, the quota query and setQuotaLimits (berth extension; seed 004
// counts quota usage from Placement, limits are enforced by setAllocations and schedule).
import type { QuotaLine as QuotaLineRecord, QuotaReport } from '../src/placement/quota';
import { builder } from './builder';
import { saturatedInt, saturatedReason } from './safe-int';

/** GraphQL QuotaLine: limit (null = unlimited), usage and what is left of one resource. */
export const QuotaLine = builder.objectRef<QuotaLineRecord>('QuotaLine').implement({
  description:
    'resource: a resource class name, or INSTANCES: consumers of type INSTANCE or of no type (Nova counts both; MIGRATION consumers are not instances).',
  fields: (t) => ({
    resource: t.exposeString('resource'),
    limit: t.exposeInt('limit', { nullable: true }),
    used: t.int({
      deprecationReason: saturatedReason('usedExact'),
      resolve: (q) => saturatedInt(q.used),
    }),
    usedExact: t.field({
      type: 'SafeInt',
      description: 'Units (or INSTANCES) counted against the limit, exact beyond 2^31 - 1.',
      resolve: (q) => q.used,
    }),
    remaining: t.int({
      nullable: true,
      description:
        'What can still be claimed (never negative); for a user also bounded by the project limit.',
      resolve: (q) => (q.remaining === null ? null : saturatedInt(q.remaining)),
    }),
  }),
});

/** GraphQL Quota: the lines of a project, or of one user in it. */
export const Quota = builder.objectRef<QuotaReport>('Quota').implement({
  fields: (t) => ({
    projectId: t.exposeString('projectId'),
    userId: t.exposeString('userId', { nullable: true }),
    lines: t.field({ type: [QuotaLine], resolve: (q) => q.lines }),
  }),
});

const QuotaLimitInput = builder.inputType('QuotaLimitInput', {
  description:
    'resource: a resource class name, or INSTANCES for the number of instances (consumers of type INSTANCE or of no type).',
  fields: (t) => ({
    resource: t.string({ required: true }),
    limit: t.int({ required: true, description: '>= 0, or -1 to remove the limit (unlimited).' }),
  }),
});

const QuotaLimitsInput = builder.inputType('QuotaLimitsInput', {
  fields: (t) => ({
    projectId: t.string({ required: true }),
    userId: t.string({ required: false }),
    limits: t.field({ type: [QuotaLimitInput], required: true }),
  }),
});

builder.queryField('quota', (t) =>
  t.field({
    type: Quota,
    description:
      'Quota limits and usage of a project (and optionally one user), counted from allocations.',
    args: {
      projectId: t.arg.string({ required: true, description: 'The project.' }),
      userId: t.arg.string({
        required: false,
        description:
          "One user's lines (bounded by the project's limits too); all users when absent.",
      }),
    },
    resolve: (_root, args, ctx) => ctx.services.quota.get(args.projectId, args.userId ?? null),
  }),
);

builder.mutationField('setQuotaLimits', (t) =>
  t.field({
    type: Quota,
    description: 'Sets quota limits; enforced atomically by setAllocations and schedule.',
    args: {
      input: t.arg({
        type: QuotaLimitsInput,
        required: true,
        description: 'The project (and optionally user) and the limits to set.',
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.quota.setLimits({
        projectId: args.input.projectId,
        userId: args.input.userId ?? null,
        limits: args.input.limits,
      }),
  }),
);
