// totalCount on connections: counted only when a client selects it (one extra statement), so a
// page costs nothing more for clients that do not ask.
import type { ObjectRef } from '@pothos/core';
import { builder } from './builder';

/** A connection result that can count all rows its filter matches. */
interface Countable {
  readonly count: () => Promise<number>;
}

/** `page` with a lazy `count` attached. */
export function withCount<T extends object>(page: T, count: () => Promise<number>): T & Countable {
  return { ...page, count };
}

/** Adds `totalCount` to a connection type whose resolvers return {@link withCount} pages. */
// biome-ignore lint/suspicious/noExplicitAny: any connection shape; the field reads only `count`.
export function addTotalCount(connection: ObjectRef<any, any>): void {
  builder.objectField(connection, 'totalCount', (t) =>
    t.int({
      description:
        'How many items match across all pages (counted only when selected: one more database statement).',
      resolve: (c) => (c as Countable).count(),
    }),
  );
}
