// The one Pothos SchemaBuilder: plugins, scalars and root types (no object types here).
import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { type AccessScopes, callerScopes, forbiddenObject, part } from './access';
import AuditPlugin from './audit-plugin';
import type { Context } from './context';

/** Pothos type configuration for berth. */
export interface PothosTypes {
  Context: Context;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    SafeInt: { Input: number; Output: number };
  };
  DefaultFieldNullability: false;
  /** schema/access.ts: the rules every object type declares. */
  AuthScopes: AccessScopes;
}

/** The builder every schema/* file registers its types on. */
export const builder = new SchemaBuilder<PothosTypes>({
  // scope-auth first: no other plugin's wrapper runs before an object's access rule. Then every
  // mutation runs in an audit context (schema/audit-plugin.ts).
  plugins: [ScopeAuthPlugin, AuditPlugin, RelayPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: callerScopes,
    // Type rules run per field (not through isTypeOf, which graphql-jit does not run).
    runScopesOnType: false,
    unauthorizedError: (_parent, ctx, info) => forbiddenObject(info.parentType.name, ctx),
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    pageInfoTypeOptions: { description: 'Where a page sits in a forward listing.', ...part },
    hasNextPageFieldOptions: { description: 'True when another page follows this one.' },
    hasPreviousPageFieldOptions: { description: 'Always false: listings page forward only.' },
    startCursorFieldOptions: { description: 'The cursor of the first row of this page.' },
    endCursorFieldOptions: {
      description: 'Pass it as `after` to get the next page (null on an empty page).',
    },
    edgesFieldOptions: { description: 'The rows of this page, in order.' },
    pageInfoFieldOptions: { description: 'Whether more rows follow, and the cursors.' },
    nodeFieldOptions: { description: 'The row.' },
    cursorFieldOptions: { description: 'Opaque; pass it as `after` to continue after this row.' },
    defaultConnectionTypeOptions: { description: 'A page of a forward listing.' },
    defaultEdgeTypeOptions: { description: 'One row of a page, with its cursor.' },
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({ description: 'Reads: providers, capacity, candidates, usage and quota.' });
builder.mutationType({
  description: 'Writes; each is one PostgreSQL transaction, refused as a whole or applied.',
});
builder.subscriptionType({
  description: 'Live views over Server-Sent Events (`Accept: text/event-stream`).',
});
