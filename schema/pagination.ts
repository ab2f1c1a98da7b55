// Forward pagination of the GraphQL connections (resourceProviders, Aggregate.members, consumers,
// projects, auditEvents): the page size argument, opaque cursors and the connection object.
// A cursor is base64 of `<Kind>:<n>`, n an internal id (or a rank position); it is accepted back
// only in exactly the spelling it was handed out in.
import { BadRequestError, ErrorCode } from '../src/placement/errors';

/** Page size when `first` is omitted. */
export const DEFAULT_PAGE_SIZE = 100;
/** Largest accepted `first`. */
export const MAX_PAGE_SIZE = 1000;

/**
 * The page size `first` asks for.
 * @throws BadRequestError (placement.query.bad_value) below 0 or above {@link MAX_PAGE_SIZE}.
 */
export function pageSizeOrThrow(first: number | null | undefined): number {
  const size = first ?? DEFAULT_PAGE_SIZE;
  if (size < 0 || size > MAX_PAGE_SIZE) {
    throw new BadRequestError(
      `Invalid page size ${size}: first must be from 0 to ${MAX_PAGE_SIZE}.`,
      ErrorCode.INVALID_INPUT,
    );
  }
  return size;
}

/** The opaque cursor of `n` (an id or a position) in listings of `kind`. */
export function cursorOf(kind: string, n: number): string {
  return Buffer.from(`${kind}:${n}`).toString('base64');
}

/**
 * The number inside a cursor made by {@link cursorOf} for `kind`.
 * @param least the smallest number such a cursor holds.
 * @param context appended to the error message (' for an ordered listing').
 * @throws BadRequestError (placement.query.bad_value) for anything else.
 */
export function cursorValueOrThrow(kind: string, cursor: string, least = 0, context = ''): number {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const n = text.startsWith(`${kind}:`) ? Number(text.slice(kind.length + 1)) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < least || cursorOf(kind, n) !== cursor) {
    throw new BadRequestError(`Invalid cursor '${cursor}'${context}.`, ErrorCode.INVALID_INPUT);
  }
  return n;
}

/** A forward-only connection over `edges`. */
export function connectionOf<T>(
  edges: { cursor: string; node: T }[],
  hasNextPage: boolean,
): {
  edges: { cursor: string; node: T }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
} {
  return {
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}

/**
 * The connection of the first `limit` of `rows`, fetched with one extra (which tells whether
 * another page exists), each row's cursor made from its id.
 */
export function idConnectionOf<T extends { readonly id: number }>(
  kind: string,
  rows: readonly T[],
  limit: number,
) {
  const edges = rows.slice(0, limit).map((node) => ({ cursor: cursorOf(kind, node.id), node }));
  return connectionOf(edges, rows.length > limit);
}
