// Every GraphQL object type declares who may read it (schema/access.ts): a schema with a type
// that declares nothing does not build, and berth's own schema declares every type.
import 'reflect-metadata';
import { GraphQLInt, GraphQLObjectType, GraphQLSchema, isObjectType } from 'graphql';
import { accessOf, assertAccessDeclared } from '../../../schema/access';
import { schema } from '../../../schema/index';

function schemaWith(extensions: Record<string, unknown>) {
  const thing = new GraphQLObjectType({
    name: 'Thing',
    extensions,
    fields: { n: { type: GraphQLInt } },
  });
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { thing: { type: thing } } }),
  });
}

describe('access rules', () => {
  it('refuses a schema with an object type that declares no rule, naming it', () => {
    expect(() => assertAccessDeclared(schemaWith({}))).toThrow(/without an access rule.*Thing/);
    expect(() => assertAccessDeclared(schemaWith({ access: 'public' }))).toThrow(/Thing/);
  });

  it('accepts one whose types all declare a rule', () => {
    expect(() => assertAccessDeclared(schemaWith({ access: 'cloud' }))).not.toThrow();
  });

  it("declares a rule on every one of berth's object types, and project rules on project data", () => {
    const byClass: Record<string, string[]> = {};
    for (const t of Object.values(schema.getTypeMap())) {
      if (
        isObjectType(t) &&
        !t.name.startsWith('__') &&
        !/^(Query|Mutation|Subscription)$/.test(t.name)
      ) {
        const a = accessOf(t.extensions as Record<string, unknown>) ?? 'none';
        byClass[a] = [...(byClass[a] ?? []), t.name];
      }
    }
    expect(byClass.none).toBeUndefined();
    expect(byClass.owned?.sort()).toEqual([
      'Allocation',
      'AllocationChange',
      'Consumer',
      'DrainMove',
      'Project',
      'Quota',
      'ServerGroup',
      'UsageReport',
    ]);
    expect(byClass.admin).toEqual(expect.arrayContaining(['AuditEvent', 'PlacementImportSummary']));
  });
});
