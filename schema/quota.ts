// GraphQL: Quota and QuotaLine, the quota query and setQuotaLimits (berth extension; seed 004
// counts quota usage from Placement, limits are enforced by setAllocations and schedule).
import type { QuotaLine as QuotaLineRecord, QuotaReport } from '../src/placement/quota';
import { owned, part } from './access';
import { builder } from './builder';
import { saturatedInt, saturatedReason } from './safe-int';

/** GraphQL QuotaLine: limit (null = unlimited), usage and what is left of one resource. */
export const QuotaLine = builder.objectRef<QuotaLineRecord>('QuotaLine').implement({
  ...part,
  description:
    'resource: a resource class name, or INSTANCES: consumers of type INSTANCE or of no type (Nova counts both; MIGRATION consumers are not instances).',
  fields: (t) => ({
    resource: t.exposeString('resource', { description: 'A resource class name, or INSTANCES.' }),
    limit: t.exposeInt('limit', {
      description: 'The limit, or null for unlimited.',
      nullable: true,
    }),
    used: t.int({
      description: 'Units (or INSTANCES) counted against the limit, saturated at 2147483647.',
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
  ...owned((q: QuotaReport) => q.projectId),
  description: 'Quota limits and usage of a project, or of one user in it.',
  fields: (t) => ({
    projectId: t.exposeString('projectId', { description: 'The project.' }),
    userId: t.exposeString('userId', {
      description: "The user, or null for the project's own lines.",
      nullable: true,
    }),
    lines: t.field({
      description: 'INSTANCES first, then resource classes by name.',
      type: [QuotaLine],
      resolve: (q) => q.lines,
    }),
  }),
});

const QuotaLimitInput = builder.inputType('QuotaLimitInput', {
  description:
    'resource: a resource class name, or INSTANCES for the number of instances (consumers of type INSTANCE or of no type).',
  fields: (t) => ({
    resource: t.string({ description: 'A resource class name, or INSTANCES.', required: true }),
    limit: t.int({ required: true, description: '>= 0, or -1 to remove the limit (unlimited).' }),
  }),
});

const QuotaLimitsInput = builder.inputType('QuotaLimitsInput', {
  description: 'Limits to set for a project, or for one user in it.',
  fields: (t) => ({
    projectId: t.string({ description: 'The project.', required: true }),
    userId: t.string({
      description: "One user in it; the project's own limits when absent.",
      required: false,
    }),
    limits: t.field({
      description: 'The limits to set; others are kept.',
      type: [QuotaLimitInput],
      required: true,
    }),
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
