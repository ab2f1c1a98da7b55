// GraphQL: allocationCandidates (upstream: handlers/allocation_candidate.py) and the request and
// result types it shares with the scheduling fields.

import { type GraphQLResolveInfo, Kind } from 'graphql';
import type {
  CandidateRequest,
  RequestGroup,
} from '../src/placement/allocation-candidates/request';
import type {
  AllocationCandidates,
  ProviderAllocation,
} from '../src/placement/allocation-candidates/results';
import { BadRequestError, ConflictError, ErrorCode } from '../src/placement/errors';
import {
  isGroupSuffix,
  parseMemberOfOrThrow,
  parseTraitTermsOrThrow,
} from '../src/placement/query-syntax';
import type { ResourceProviderRecord } from '../src/placement/types';
import { normalizeUuidOrThrow } from '../src/placement/uuid';
import { cloud, part } from './access';
import { builder } from './builder';
import type { Context } from './context';
import { ResourceAmountInput, resourceMapOrThrow } from './resource-amount';
import { ResourceProvider } from './resource-provider';
import { saturatedInt, saturatedReason } from './safe-int';

const GroupPolicy = builder.enumType('GroupPolicy', {
  description: 'How suffixed request groups may share providers (Placement group_policy).',
  values: {
    NONE: { description: 'Groups may share providers.' },
    ISOLATE: { description: 'Each suffixed group on providers of its own.' },
  } as const,
});

const RequestGroupInput = builder.inputType('RequestGroupInput', {
  description:
    "One request group. suffix '' is the unsuffixed group (may be spread over a tree and sharing providers); any other suffix must be satisfied by a single provider.",
  fields: (t) => ({
    suffix: t.string({
      description:
        "'' for the unsuffixed group; a suffix (e.g. '1', '_NET') names a granular group.",
      required: true,
      defaultValue: '',
    }),
    resources: t.field({
      description: 'Amounts this group needs.',
      type: [ResourceAmountInput],
      required: true,
      defaultValue: [],
    }),
    required: t.stringList({
      description: "Trait terms: 'T', '!T' or 'in:T1,T2'; all must hold.",
      required: false,
    }),
    memberOf: t.stringList({
      description: "Aggregate terms: 'agg', 'in:a,b', '!agg', '!in:a,b'; all must hold.",
      required: false,
    }),
    inTree: t.id({ description: 'Only providers in the tree of this provider.', required: false }),
  }),
});

/** GraphQL AllocationCandidatesRequest. */
export const AllocationCandidatesRequest = builder.inputType('AllocationCandidatesRequest', {
  description: 'What an allocation-candidates search needs (GET /allocation_candidates).',
  fields: (t) => ({
    groups: t.field({
      description: 'The request groups.',
      type: [RequestGroupInput],
      required: true,
    }),
    groupPolicy: t.field({
      description: 'Required with more than one suffixed group.',
      type: GroupPolicy,
      required: false,
    }),
    rootRequired: t.stringList({
      required: false,
      description: "Traits on the root of each tree: 'T' or '!T'.",
    }),
    sameSubtree: t.field({
      type: t.listRef(t.listRef('String', { required: true }), { required: true }),
      required: false,
      description: 'Each entry is a list of group suffixes whose providers must share one subtree.',
    }),
    limit: t.int({
      description: 'Most candidates to return (at most BERTH_CANDIDATE_MAX_RESULTS).',
      required: false,
    }),
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
        ErrorCode.INVALID_INPUT,
      );
    }
    if (!isGroupSuffix(g.suffix)) {
      throw new BadRequestError(
        `Invalid request group suffix '${g.suffix}'.`,
        ErrorCode.INVALID_INPUT,
      );
    }
    suffixes.add(g.suffix);
    const traits = parseTraitTermsOrThrow(g.required ?? []);
    const members = parseMemberOfOrThrow(g.memberOf ?? []);
    return {
      suffix: g.suffix,
      resources: resourceMapOrThrow(g.resources, `group '${g.suffix}'`, {
        minAmount: 1,
        code: ErrorCode.INVALID_INPUT,
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
      ErrorCode.INVALID_INPUT,
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

/** True when `info`'s selection reads nothing of the provider but its uuid. */
function selectsUuidOnly(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.every((f) =>
    (f.selectionSet?.selections ?? []).every(
      (s) =>
        s.kind === Kind.FIELD &&
        !s.directives?.length &&
        (s.name.value === 'uuid' || s.name.value === '__typename'),
    ),
  );
}

/**
 * The provider of a candidate answer. A selection of its uuid alone (what schedulers and the
 * REST-shaped clients read, once per allocation request) is answered with the uuid the engine
 * gave, without a lookup per provider; any other field loads the provider.
 */
function candidateProvider(
  ctx: Context,
  uuid: string,
  info: GraphQLResolveInfo,
): ResourceProviderRecord | Promise<ResourceProviderRecord> {
  if (selectsUuidOnly(info)) {
    // Only `uuid` (and `__typename`) of this object is read: see selectsUuidOnly.
    return { uuid } as ResourceProviderRecord;
  }
  return providerOrThrow(ctx, uuid);
}

/** Loads a provider the engine or the pipeline named (it may have been deleted since). */
export async function providerOrThrow(ctx: Context, uuid: string): Promise<ResourceProviderRecord> {
  const rp = await ctx.loaders.providerByUuid.load(uuid);
  if (!rp) {
    throw new ConflictError(
      `Resource provider ${uuid} was deleted while the request ran; retry.`,
      ErrorCode.CONCURRENT_DELETE,
    );
  }
  return rp;
}

/** GraphQL ResourceAmount: an amount of one resource class. */
export const ResourceAmount = builder
  .objectRef<{ resourceClass: string; amount: number }>('ResourceAmount')
  .implement({
    ...part,
    description: 'An amount of one resource class.',
    fields: (t) => ({
      resourceClass: t.exposeString('resourceClass', { description: 'The resource class name.' }),
      amount: t.exposeInt('amount', { description: 'The units.' }),
    }),
  });

/** GraphQL ProviderResources: what one provider contributes. */
export const ProviderResources = builder
  .objectRef<ProviderAllocation>('ProviderResources')
  .implement({
    ...part,
    description: 'What is taken from one provider.',
    fields: (t) => ({
      provider: t.field({
        description: 'The provider.',
        type: ResourceProvider,
        resolve: (a, _args, ctx, info) => candidateProvider(ctx, a.providerUuid, info),
      }),
      resources: t.field({
        description: 'What is taken from it.',
        type: [ResourceAmount],
        resolve: (a) =>
          Object.entries(a.resources).map(([resourceClass, amount]) => ({ resourceClass, amount })),
      }),
    }),
  });

const GroupMapping = builder
  .objectRef<{ suffix: string; providerUuids: readonly string[] }>('GroupMapping')
  .implement({
    ...part,
    description: 'Which providers satisfied one request group.',
    fields: (t) => ({
      suffix: t.exposeString('suffix', {
        description: "The request group's suffix ('' for the unsuffixed group).",
      }),
      providerUuids: t.field({
        description: 'Providers that satisfied it.',
        type: ['ID'],
        resolve: (m) => m.providerUuids,
      }),
    }),
  });

type AR = AllocationCandidates['allocationRequests'][number];
const AllocationRequest = builder.objectRef<AR>('AllocationRequest').implement({
  ...part,
  description: 'One way to satisfy the whole request: what to take from which providers.',
  fields: (t) => ({
    allocations: t.field({
      description: 'What to take from which provider.',
      type: [ProviderResources],
      resolve: (r) => r.allocations,
    }),
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
    ...part,
    description: 'Capacity and usage of one class on a candidate provider.',
    fields: (t) => ({
      resourceClass: t.exposeString('resourceClass', { description: 'The resource class name.' }),
      capacity: t.int({
        description: '(total - reserved) × allocation ratio, saturated at 2147483647.',
        deprecationReason: saturatedReason('capacityExact'),
        resolve: (r) => saturatedInt(r.capacity),
      }),
      capacityExact: t.field({
        description: '(total - reserved) × allocation ratio, exact beyond 2^31 - 1.',
        type: 'SafeInt',
        resolve: (r) => r.capacity,
      }),
      used: t.int({
        description: 'Units allocated, saturated at 2147483647.',
        deprecationReason: saturatedReason('usedExact'),
        resolve: (r) => saturatedInt(r.used),
      }),
      usedExact: t.field({
        description: 'Units allocated, exact beyond 2^31 - 1.',
        type: 'SafeInt',
        resolve: (r) => r.used,
      }),
    }),
  });

type PS = AllocationCandidates['providerSummaries'][number];
const ProviderSummary = builder.objectRef<PS>('ProviderSummary').implement({
  ...part,
  description: 'A provider of a candidate tree: its resources and traits.',
  fields: (t) => ({
    provider: t.field({
      description: 'The provider.',
      type: ResourceProvider,
      resolve: (s, _args, ctx, info) => candidateProvider(ctx, s.providerUuid, info),
    }),
    resources: t.field({
      description: 'Its capacity and usage per class.',
      type: [SummaryResource],
      resolve: (s) => s.resources,
    }),
    traits: t.stringList({ description: 'Its traits.', resolve: (s) => s.traits }),
  }),
});

const AllocationCandidatesRef = builder
  .objectRef<AllocationCandidates>('AllocationCandidates')
  .implement({
    ...cloud,
    description: 'Every way the request fits (up to the limit), and the providers involved.',
    fields: (t) => ({
      allocationRequests: t.field({
        description: "The candidates, in the engine's order (random with randomize).",
        type: [AllocationRequest],
        resolve: (c) => c.allocationRequests,
      }),
      providerSummaries: t.field({
        description: 'Every provider of every tree the candidates use.',
        type: [ProviderSummary],
        resolve: (c) => c.providerSummaries,
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
      ctx.services.candidateAnswers.find(toCandidateRequestOrThrow(args.request)),
  }),
);
