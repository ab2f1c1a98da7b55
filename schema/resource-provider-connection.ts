// GraphQL: the resourceProviders connection with ResourceProviderFilter and opaque, provider-id
// based cursors (upstream: handlers/resource_provider.py list_resource_providers).
import { ErrorCode } from '../src/placement/errors';
import type { ProviderFilterSql } from '../src/placement/provider-filter';
import { parseMemberOfOrThrow, parseTraitTermsOrThrow } from '../src/placement/query-syntax';
import { part } from './access';
import { builder } from './builder';
import type { Context } from './context';
import {
  connectionOf,
  cursorOf,
  cursorValueOrThrow,
  DEFAULT_PAGE_SIZE,
  idConnectionOf,
  MAX_PAGE_SIZE,
  pageSizeOrThrow,
} from './pagination';
import { ResourceAmountInput, resourceMapOrThrow } from './resource-amount';
import { ResourceProvider } from './resource-provider';
import { addTotalCount, withCount } from './total-count';

/** Cursors of the listing by creation: the provider's internal id. */
const BY_ID = 'ResourceProvider';
/** Cursors of a ranked (orderBy) listing: the position of the provider before the page. */
const BY_RANK = 'ResourceProviderRank';

export const SortDirection = builder.enumType('SortDirection', {
  description: 'Sort order.',
  values: {
    ASC: { description: 'Smallest first.' },
    DESC: { description: 'Largest first.' },
  } as const,
});

const ResourceProviderOrder = builder.inputType('ResourceProviderOrder', {
  description:
    'Orders providers by how full they are in one resource class (used / capacity); providers without that class are left out.',
  fields: (t) => ({
    utilisationOf: t.string({ required: true, description: 'The resource class, e.g. MEMORY_MB.' }),
    direction: t.field({
      type: SortDirection,
      required: false,
      defaultValue: 'DESC',
      description: 'DESC (the default): fullest first.',
    }),
  }),
});

export const ResourceProviderFilter = builder.inputType('ResourceProviderFilter', {
  description: 'All given conditions must hold (GET /resource_providers query parameters).',
  fields: (t) => ({
    name: t.string({ required: false, description: 'Exact name.' }),
    nameContains: t.string({
      required: false,
      description: 'Case-insensitive substring of the name (a search box).',
    }),
    uuid: t.id({ required: false, description: 'Exactly this provider.' }),
    inTree: t.id({
      required: false,
      description: 'Only providers in the same tree as this one (an unknown uuid matches nothing).',
    }),
    memberOf: t.stringList({
      required: false,
      description:
        "Each entry is one member_of term in Placement syntax: 'agg', 'in:a,b', '!agg', '!in:a,b'. Terms are ANDed.",
    }),
    required: t.stringList({
      required: false,
      description: "Each entry: 'TRAIT', '!TRAIT' or 'in:T1,T2'. Entries are ANDed.",
    }),
    resources: t.field({
      type: [ResourceAmountInput],
      required: false,
      description:
        'Only providers that can satisfy all these amounts on their own (GET /resource_providers?resources=).',
    }),
  }),
});

type FilterArg = NonNullable<typeof ResourceProviderFilter.$inferInput>;

/**
 * Parses the GraphQL filter into the provider service's filter.
 * @throws BadRequestError (placement.query.bad_value) for malformed terms or amounts.
 */
export function providerFilterOrThrow(f: FilterArg | null | undefined): ProviderFilterSql {
  if (!f) {
    return {};
  }
  const memberOf = f.memberOf ? parseMemberOfOrThrow(f.memberOf) : undefined;
  const traits = f.required ? parseTraitTermsOrThrow(f.required) : undefined;
  return {
    name: f.name ?? undefined,
    nameContains: f.nameContains ?? undefined,
    uuid: f.uuid ?? undefined,
    inTree: f.inTree ?? undefined,
    memberOf: memberOf?.memberOf,
    forbiddenAggregates: memberOf?.forbidden,
    requiredTraits: traits?.required,
    forbiddenTraits: traits?.forbidden,
    resources: f.resources
      ? resourceMapOrThrow(f.resources, 'the resources filter', {
          minAmount: 1,
          code: ErrorCode.INVALID_INPUT,
        })
      : undefined,
  };
}

/**
 * One forward page of providers matching `filter`, by creation (internal id), as a connection.
 * @throws BadRequestError for a bad cursor.
 */
export async function providerPage(
  ctx: Context,
  filter: ProviderFilterSql,
  limit: number,
  after: string | null | undefined,
) {
  const afterId = after ? cursorValueOrThrow(BY_ID, after) : undefined;
  // One extra row tells whether another page exists.
  const { rows, count } = await ctx.services.providers.page(filter, { afterId, limit: limit + 1 });
  ctx.loaders.primeProviders(rows.slice(0, limit));
  return withCount(idConnectionOf(BY_ID, rows, limit), count);
}

export const ResourceProviderConnection = builder.connectionObject(
  {
    type: ResourceProvider,
    name: 'ResourceProviderConnection',
    ...part,
    edgesNullable: { list: false, items: false },
    nodeNullable: false,
  },
  { name: 'ResourceProviderEdge', ...part },
);
addTotalCount(ResourceProviderConnection);

builder.queryField('resourceProviders', (t) =>
  t.field({
    type: ResourceProviderConnection,
    description: `Providers matching the filter, ordered by creation (internal id), paginated forward: \`first\` defaults to ${DEFAULT_PAGE_SIZE} and may be at most ${MAX_PAGE_SIZE}; \`after\` takes an \`endCursor\`. Cursors are opaque and stay valid while providers are added or deleted. Pagination is forward only: \`pageInfo.hasPreviousPage\` is always false.`,
    args: {
      filter: t.arg({
        type: ResourceProviderFilter,
        required: false,
        description: 'Which providers (all when absent).',
      }),
      first: t.arg.int({ required: false, description: 'Page size (default 100, at most 1000).' }),
      after: t.arg.string({ required: false, description: 'The endCursor of the previous page.' }),
      orderBy: t.arg({
        type: ResourceProviderOrder,
        required: false,
        description:
          'Order by utilisation of one class instead of creation (ranked from memory; a page reflects usage when it is read, so rows can move between pages as usage changes).',
      }),
    },
    resolve: async (_root, args, ctx) => {
      const limit = pageSizeOrThrow(args.first);
      if (args.orderBy) {
        const ranked = await ctx.services.capacity.byUtilisation(
          providerFilterOrThrow(args.filter),
          args.orderBy.utilisationOf,
          args.orderBy.direction ?? 'DESC',
        );
        const offset = args.after
          ? cursorValueOrThrow(BY_RANK, args.after, 0, ' for an ordered listing')
          : 0;
        const slice = ranked.slice(offset, offset + limit);
        const nodes = await Promise.all(slice.map((r) => ctx.loaders.providerByUuid.load(r.uuid)));
        const edges = nodes.flatMap((node, i) =>
          node ? [{ cursor: cursorOf(BY_RANK, offset + i + 1), node }] : [],
        );
        return withCount(
          connectionOf(edges, ranked.length > offset + limit),
          async () => ranked.length,
        );
      }
      return providerPage(ctx, providerFilterOrThrow(args.filter), limit, args.after);
    },
  }),
);
