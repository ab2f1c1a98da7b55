// The one Pothos SchemaBuilder: plugins, scalars and root types (no object types here).
import SchemaBuilder from '@pothos/core';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import RelayPlugin from '@pothos/plugin-relay';
import type { Context } from './context';

/** Pothos type configuration for berth. */
export interface PothosTypes {
  Context: Context;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    SafeInt: { Input: number; Output: number };
  };
  DefaultFieldNullability: false;
}

/** The builder every schema/* file registers its types on. */
export const builder = new SchemaBuilder<PothosTypes>({
  plugins: [DataloaderPlugin, RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
