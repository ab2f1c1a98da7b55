// GraphQL: allocationCandidates (upstream: handlers/allocation_candidate.py) and the request and
// result types it shares with the scheduling fields.

import type {
  CandidateRequest,
  RequestGroup,
} from '../src/placement/allocation-candidates/request';
import type {
  AllocationCandidates,
  ProviderAllocation,
} from '../src/placement/allocation-candidates/results';
import { BadRequestError, ErrorCode } from '../src/placement/errors';
import {
  isGroupSuffix,
  parseMemberOfOrThrow,
  parseTraitTermsOrThrow,
} from '../src/placement/query-syntax';
import type { ResourceProviderRecord } from '../src/placement/types';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { builder } from './builder';
import type { Context } from './context';
import { ResourceAmountInput, resourceMapOrThrow } from './resource-amount';
import { ResourceProvider } from './resource-provider';
import { saturatedInt, saturatedReason } from './safe-int';

const GroupPolicy = builder.enumType('GroupPolicy', { values: ['NONE', 'ISOLATE'] as const });

const RequestGroupInput = builder.inputType('RequestGroupInput', {
  description:
    "One request group. suffix '' is the unsuffixed group (may be spread over a tree and sharing providers); any other suffix must be satisfied by a single provider.",
  fields: (t) => ({
    suffix: t.string({ required: true, defaultValue: '' }),
    resources: t.field({ type: [ResourceAmountInput], required: true, defaultValue: [] }),
    required: t.stringList({ required: false }),
    memberOf: t.stringList({ required: false }),
    inTree: t.id({ required: false }),
  }),
});

/** GraphQL AllocationCandidatesRequest. */
export const AllocationCandidatesRequest = builder.inputType('AllocationCandidatesRequest', {
  fields: (t) => ({
    groups: t.field({ type: [RequestGroupInput], required: true }),
    groupPolicy: t.field({ type: GroupPolicy, required: false }),
    rootRequired: t.stringList({
      required: false,
      description: "Traits on the root of each tree: 'T' or '!T'.",
    }),
    sameSubtree: t.field({
      type: t.listRef(t.listRef('String', { required: true }), { required: true }),
      required: false,
      description: 'Each entry is a list of group suffixes whose providers must share one subtree.',
    }),
    limit: t.int({ required: false }),
    randomize: t.boolean({
      required: false,
      description: 'Return a random sample (randomize_allocation_candidates).',
    }),
  }),
});

type RequestInput = typeof AllocationCandidatesRequest.$inferInput;

/**
 * Converts the GraphQL request into the engine's request.
 * @throws BadRequestError for duplicate suffixes, bad amounts, malformed trait or aggregate terms.
 */
export function toCandidateRequestOrThrow(input: RequestInput): CandidateRequest {
  const suffixes = new Set<string>();
  const groups: RequestGroup[] = input.groups.map((g) => {
    if (suffixes.has(g.suffix)) {
      throw new BadRequestError(
        `Request group suffix '${g.suffix}' appears more than once.`,
        ErrorCode.QUERYPARAM_BAD_VALUE,
      );
    }
    if (!isGroupSuffix(g.suffix)) {
      throw new BadRequestError(
        `Invalid request group suffix '${g.suffix}'.`,
        ErrorCode.QUERYPARAM_BAD_VALUE,
      );
    }
    suffixes.add(g.suffix);
    const traits = parseTraitTermsOrThrow(g.required ?? []);
    const members = parseMemberOfOrThrow(g.memberOf ?? []);
    return {
      suffix: g.suffix,
      resources: resourceMapOrThrow(g.resources, `group '${g.suffix}'`, {
        minAmount: 1,
        code: ErrorCode.QUERYPARAM_BAD_VALUE,
      }),
      requiredTraits: traits.required,
      forbiddenTraits: traits.forbidden,
      memberOf: members.memberOf,
      forbiddenAggregates: members.forbidden,
      ...(g.inTree ? { inTree: normalizeUuidOrThrow(String(g.inTree), 'in_tree uuid') } : {}),
    };
  });
  const root = parseTraitTermsOrThrow(input.rootRequired ?? [], { allowAnyOf: false });
  if (input.limit !== null && input.limit !== undefined && input.limit < 1) {
    throw new BadRequestError(
      `limit must be a positive integer (got ${input.limit}).`,
      ErrorCode.QUERYPARAM_BAD_VALUE,
    );
  }
  return {
    groups,
    ...(input.groupPolicy
      ? { groupPolicy: input.groupPolicy === 'ISOLATE' ? 'isolate' : 'none' }
      : {}),
    rootRequired: root.required,
    rootForbidden: root.forbidden,
    sameSubtree: (input.sameSubtree ?? []).map((s: readonly string[]) => [...s]),
    ...(input.limit ? { limit: input.limit } : {}),
    ...(input.randomize ? { randomize: true } : {}),
  };
}

/** Loads a provider the engine or the pipeline named (it may have been deleted since). */
export async function providerOrThrow(ctx: Context, uuid: string): Promise<ResourceProviderRecord> {
  const rp = await ctx.loaders.providerByUuid.load(uuid);
  if (!rp) {
    throw new BadRequestError(
      `Resource provider ${uuid} was deleted while the request ran; retry.`,
    );
  }
  return rp;
}

const ResourceAmount = builder
  .objectRef<{ resourceClass: string; amount: number }>('ResourceAmount')
  .implement({
    fields: (t) => ({
      resourceClass: t.exposeString('resourceClass'),
      amount: t.exposeInt('amount'),
    }),
  });

/** GraphQL ProviderResources: what one provider contributes. */
export const ProviderResources = builder
  .objectRef<ProviderAllocation>('ProviderResources')
  .implement({
    fields: (t) => ({
      provider: t.field({
        type: ResourceProvider,
        resolve: (a, _args, ctx) => providerOrThrow(ctx, a.providerUuid),
      }),
      resources: t.field({
        type: [ResourceAmount],
        resolve: (a) =>
          Object.entries(a.resources).map(([resourceClass, amount]) => ({ resourceClass, amount })),
      }),
    }),
  });

const GroupMapping = builder
  .objectRef<{ suffix: string; providerUuids: readonly string[] }>('GroupMapping')
  .implement({
    fields: (t) => ({
      suffix: t.exposeString('suffix'),
      providerUuids: t.field({ type: ['ID'], resolve: (m) => [...m.providerUuids] }),
    }),
  });

type AR = AllocationCandidates['allocationRequests'][number];
const AllocationRequest = builder.objectRef<AR>('AllocationRequest').implement({
  fields: (t) => ({
    allocations: t.field({ type: [ProviderResources], resolve: (r) => [...r.allocations] }),
    mappings: t.field({
      type: [GroupMapping],
      description: 'suffix -> provider uuids that satisfied it',
      resolve: (r) =>
        Object.entries(r.mappings).map(([suffix, providerUuids]) => ({ suffix, providerUuids })),
    }),
  }),
});

const SummaryResource = builder
  .objectRef<{ resourceClass: string; capacity: number; used: number }>('SummaryResource')
  .implement({
    fields: (t) => ({
      resourceClass: t.exposeString('resourceClass'),
      capacity: t.int({
        deprecationReason: saturatedReason('capacityExact'),
        resolve: (r) => saturatedInt(r.capacity),
      }),
      capacityExact: t.field({ type: 'SafeInt', resolve: (r) => r.capacity }),
      used: t.int({
        deprecationReason: saturatedReason('usedExact'),
        resolve: (r) => saturatedInt(r.used),
      }),
      usedExact: t.field({ type: 'SafeInt', resolve: (r) => r.used }),
    }),
  });

type PS = AllocationCandidates['providerSummaries'][number];
const ProviderSummary = builder.objectRef<PS>('ProviderSummary').implement({
  fields: (t) => ({
    provider: t.field({
      type: ResourceProvider,
      resolve: (s, _args, ctx) => providerOrThrow(ctx, s.providerUuid),
    }),
    resources: t.field({ type: [SummaryResource], resolve: (s) => [...s.resources] }),
    traits: t.stringList({ resolve: (s) => [...s.traits] }),
  }),
});

const AllocationCandidatesRef = builder
  .objectRef<AllocationCandidates>('AllocationCandidates')
  .implement({
    fields: (t) => ({
      allocationRequests: t.field({
        type: [AllocationRequest],
        resolve: (c) => [...c.allocationRequests],
      }),
      providerSummaries: t.field({
        type: [ProviderSummary],
        resolve: (c) => [...c.providerSummaries],
      }),
    }),
  });

builder.queryField('allocationCandidates', (t) =>
  t.field({
    type: AllocationCandidatesRef,
    description: 'GET /allocation_candidates.',
    args: {
      request: t.arg({
        type: AllocationCandidatesRequest,
        required: true,
        description: 'What is needed: request groups, policies and limits.',
      }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.candidates.find(toCandidateRequestOrThrow(args.request)),
  }),
);
