// Every operation the console sends is typed against berth's schema (schema/schema.graphql via
// gql.tada): a schema change that breaks the console fails `npm run typecheck`.
import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { ID: string; SafeInt: number; JSON: unknown };
}>();

export type { ResultOf } from 'gql.tada';
