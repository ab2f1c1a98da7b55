// The role table in docs/security.md ("Roles", between the role-table markers), walked whole: every
// GraphQL query, mutation and subscription and every REST route and method, with a token of
// every role. A role
// may do what its row and every row above it list; anything else is refused with 403 before it
// runs. A field or route missing from the table (or named there but gone) fails the test, so the
// table stays the truth about who may do what.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { schema } from '../../schema';
import { ROLES, type Role, roleAllows } from '../../src/auth/roles';
import { ROUTES } from '../../src/rest/routes';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';
import { gql } from '../support/graphql';
import { type RestClient, restClient } from '../support/rest';
import { subscribe } from '../support/sse';

/** The project of the `member` token; every String argument is this, so it reads its own. */
const PROJECT = 'x';

interface Table {
  /** Field or `METHOD /path` -> the least role that may call it (explicit rows only). */
  readonly graphql: Map<string, Role>;
  readonly rest: Map<string, Role>;
  /** Arguments (`input.filters`) -> the least role that may set them. */
  readonly args: Map<string, Role>;
}

/** Reads the docs/security.md table: backticked names in the GraphQL and REST columns of each role's row. */
function readTable(): Table {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'security.md'), 'utf8');
  const block = /<!-- role-table -->\n([\s\S]*?)<!-- \/role-table -->/.exec(page)?.[1];
  if (!block) {
    throw new Error('docs/security.md has no <!-- role-table --> block');
  }
  const graphql = new Map<string, Role>();
  const rest = new Map<string, Role>();
  const args = new Map<string, Role>();
  for (const line of block.split('\n').filter((l) => /^\| `/.test(l))) {
    const [who, gqlCell, restCell] = line.split(' | ');
    const role = /`(\w+)`/.exec(who!)![1] as Role;
    for (const [, name] of gqlCell!.matchAll(/`(\w+)`/g)) {
      graphql.set(name!, role);
    }
    for (const [, route] of restCell!.matchAll(/`([A-Z]+ \/[^`]*)`/g)) {
      rest.set(route!, role);
    }
    for (const [, arg] of gqlCell!.matchAll(/`(\w+\.\w+)`/g)) {
      args.set(arg!, role);
    }
  }
  return { graphql, rest, args };
}

/** A literal of `type` that passes validation (dummy values; `PROJECT` for strings). */
function literal(type: GraphQLInputType): string {
  if (isNonNullType(type)) {
    return literal(type.ofType);
  }
  if (isListType(type)) {
    return `[${literal(type.ofType)}]`;
  }
  if (isEnumType(type)) {
    return type.getValues()[0]!.name;
  }
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter(
      (f) => isNonNullType(f.type) && f.defaultValue === undefined,
    );
    return `{${fields.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')}}`;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'ID':
        return `"${randomUUID()}"`;
      case 'Int':
      case 'Float':
      case 'SafeInt':
        return '1';
      case 'Boolean':
        return 'true';
      case 'JSON':
        return '{}';
      default:
        return `"${PROJECT}"`;
    }
  }
  throw new Error(`no literal for ${String(type)}`);
}

/** Arguments the member's own-project checks need that are optional in the schema. */
const OWN_PROJECT_ARGS: Readonly<Record<string, string>> = {
  consumers: `filter: {projectId: "${PROJECT}"}`,
};

/** One operation calling `field` with its required arguments. */
function documentOf(
  kind: 'query' | 'mutation' | 'subscription',
  field: GraphQLField<unknown, unknown>,
): string {
  const args = field.args
    .filter((a: GraphQLArgument) => isNonNullType(a.type) && a.defaultValue === undefined)
    .map((a) => `${a.name}: ${literal(a.type)}`);
  if (OWN_PROJECT_ARGS[field.name]) {
    args.push(OWN_PROJECT_ARGS[field.name]!);
  }
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return `${kind} { ${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${selection} }`;
}

describe('the role table of docs/security.md', () => {
  const table = readTable();
  let t: TestApp;
  let rest: RestClient;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on', BERTH_REST_AUTH: 'token' });
    for (const role of ROLES) {
      tokens[role] = (
        await t.app.tokens.create({ role, ...(role === 'member' ? { project: PROJECT } : {}) })
      ).token;
    }
    rest = await restClient(t.app, { prefix: '' });
  });
  afterAll(async () => {
    await rest.close();
    await t.close();
  });

  const queries = Object.values(schema.getQueryType()!.getFields());
  const mutations = Object.values(schema.getMutationType()!.getFields());

  it('names every mutation, and no GraphQL field that does not exist', () => {
    const fields = new Set([...queries, ...mutations].map((f) => f.name));
    expect(mutations.map((m) => m.name).filter((m) => !table.graphql.has(m))).toEqual([]);
    expect([...table.graphql.keys()].filter((f) => !fields.has(f))).toEqual([]);
  });

  const routes = ROUTES.flatMap((r) => Object.keys(r.methods).map((m) => `${m} ${r.path}`));

  it('names no REST route that does not exist', () => {
    expect([...table.rest.keys()].filter((r) => !routes.includes(r))).toEqual([]);
  });

  const graphqlCases = [
    ...queries.map((f) => ({ kind: 'query' as const, field: f })),
    ...mutations.map((f) => ({ kind: 'mutation' as const, field: f })),
  ].flatMap(({ kind, field }) => ROLES.map((role) => ({ kind, field, role, name: field.name })));

  it.each(graphqlCases)('GraphQL $kind $name as $role', async ({ kind, field, role }) => {
    const need = table.graphql.get(field.name) ?? (kind === 'query' ? 'reader' : 'admin');
    const r = await gql(
      t.app,
      documentOf(kind, field),
      {},
      {
        authorization: `Bearer ${tokens[role]}`,
      },
    );
    const codes = (r.errors ?? []).map(
      (e: { extensions?: { code?: string } }) => e.extensions?.code,
    );
    if (roleAllows(role, need)) {
      expect(codes).not.toContain('berth.forbidden');
      expect(codes).not.toContain('GRAPHQL_VALIDATION_FAILED');
    } else {
      expect(codes).toEqual(['berth.forbidden']);
    }
  });

  const subscriptions = Object.values(schema.getSubscriptionType()!.getFields());

  it.each(
    subscriptions.flatMap((field) => ROLES.map((role) => ({ field, role, name: field.name }))),
  )('GraphQL subscription $name as $role', async ({ field, role }) => {
    const need = table.graphql.get(field.name) ?? 'reader';
    const stream = await subscribe(
      'http://berth.test',
      documentOf('subscription', field),
      {},
      tokens[role],
      (url, init) => Promise.resolve(t.app.graphql.fetch(url, init)),
    );
    try {
      // A refusal comes before any event; an accepted subscription may wait for a change.
      const first = await stream.next(1500);
      const codes = first === 'timeout' ? [] : (first.errors ?? []).map((e) => e.extensions?.code);
      if (roleAllows(role, need)) {
        expect(codes).not.toContain('berth.forbidden');
        expect(codes).not.toContain('GRAPHQL_VALIDATION_FAILED');
      } else {
        expect(codes).toEqual(['berth.forbidden']);
      }
    } finally {
      await stream.close();
    }
  });

  const params: Readonly<Record<string, string>> = {
    uuid: randomUUID(),
    consumer_uuid: randomUUID(),
    name: 'CUSTOM_ROLE_TABLE',
    resource_class: 'VCPU',
  };
  const queryOf: Readonly<Record<string, string>> = {
    '/usages': `?project_id=${PROJECT}`,
    '/allocation_candidates': '?resources=VCPU:1',
  };

  it.each(routes.flatMap((route) => ROLES.map((role) => ({ route, role }))))(
    'REST $route as $role',
    async ({ route, role }) => {
      const [method, template] = route.split(' ') as [string, string];
      const need = table.rest.get(route) ?? (method === 'GET' ? 'reader' : 'service');
      const path = template.replace(/\{(\w+)\}/g, (_, p: string) => params[p]!);
      const r = await rest.call(method, `/placement${path}${queryOf[template] ?? ''}`, {
        headers: {
          accept: 'application/json',
          'openstack-api-version': 'placement latest',
          'x-auth-token': tokens[role],
        },
        ...(method === 'PUT' || method === 'POST' ? { body: {} } : {}),
      });
      if (roleAllows(role, need)) {
        expect(r.status).not.toBe(403);
      } else {
        expect(r.status).toBe(403);
        expect(r.json.errors[0].detail).toMatch(/Policy does not allow placement:/);
      }
    },
  );

  it.each(ROLES)('input.filters of explainPlacement as %s', async (role) => {
    const need = table.args.get('input.filters')!;
    const r = await gql(
      t.app,
      `query { explainPlacement(input: {consumerUuids: ["${randomUUID()}"], projectId: "${PROJECT}",
        userId: "u", request: {groups: [{resources: [{resourceClass: "VCPU", amount: 1}]}]},
        filters: ["ComputeFilter"]}) { __typename } }`,
      {},
      { authorization: `Bearer ${tokens[role]}` },
    );
    const codes = (r.errors ?? []).map(
      (e: { extensions?: { code?: string } }) => e.extensions?.code,
    );
    expect(codes.includes('berth.forbidden')).toBe(!roleAllows(role, need));
  });

  it("keeps a member to its own project's usages and allocations", async () => {
    const asMember = (method: string, path: string) =>
      rest.call(method, path, {
        headers: {
          accept: 'application/json',
          'openstack-api-version': 'placement latest',
          'x-auth-token': tokens.member,
        },
      });
    expect((await asMember('GET', '/placement/usages?project_id=other')).status).toBe(403);
    const host = (
      await buildResourceProvider(t.app.services, {
        name: 'member-check',
        inventories: [{ resourceClass: 'VCPU', total: 8 }],
      })
    ).uuid;
    const theirs = randomUUID();
    const put = await rest.call('PUT', `/placement/allocations/${theirs}`, {
      headers: {
        accept: 'application/json',
        'openstack-api-version': 'placement latest',
        'x-auth-token': tokens.admin,
      },
      body: {
        allocations: { [host]: { resources: { VCPU: 1 } } },
        project_id: 'other',
        user_id: 'u',
        consumer_generation: null,
        consumer_type: 'INSTANCE',
      },
    });
    expect(put.status).toBe(204);
    // Another project's consumer reads as an unknown one: no answer tells that it exists.
    const foreign = await asMember('GET', `/placement/allocations/${theirs}`);
    const unknown = await asMember('GET', `/placement/allocations/${randomUUID()}`);
    expect([foreign.status, foreign.text]).toEqual([200, '{"allocations":{}}']);
    expect([unknown.status, unknown.text]).toEqual([foreign.status, foreign.text]);
    const usages = await gql(
      t.app,
      'query { usages(projectId: "other") { __typename } }',
      {},
      {
        authorization: `Bearer ${tokens.member}`,
      },
    );
    expect(usages.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
  });
});
