// Property: whatever a caller scoped to project A asks — any root field, any selection reached by
// walking the schema five or more levels down, with aliases, inline and named fragments — the
// answer names none of project B's consumers, users, server groups or its project id that the
// request did not itself contain. Queries, mutations and subscriptions, for a Keystone-style
// `member` token and for `reader` / `scheduler` tokens scoped to A, over a cloud where both
// projects hold allocations on the same providers (test/support/two-projects.ts).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLObjectType,
  getNamedType,
  isLeafType,
  isObjectType,
} from 'graphql';
import { schema } from '../../schema/index';
import { type Role, roleAllows, roleForOperation } from '../../src/auth/roles';
import { DemoRandom } from '../../src/demo/random';
import { createLogger } from '../../src/observability/logger';
import { createTestApp, type TestApp } from '../support/app';
import { gql } from '../support/graphql';
import { subscribe } from '../support/sse';
import {
  A_PROJECT,
  B_PROJECT,
  B_USER,
  buildTwoProjects,
  leaked,
  type TwoProjects,
} from '../support/two-projects';

const RUNS = Number(process.env.BERTH_TENANT_RUNS ?? 120);
const MIN_DEPTH = 5;
const MAX_DEPTH = 8;

/** A small deterministic generator (mulberry32), seeded by fast-check. */
const rng = (seed: number) => new DemoRandom(seed);
type Rng = DemoRandom;

type Field = GraphQLField<unknown, unknown>;
const fieldKinds = new Map<
  GraphQLObjectType,
  { fields: Field[]; objects: Field[]; leaves: Field[] }
>();

/** `type`'s fields, its object-typed fields and its leaf fields (computed once per type). */
function fieldsOf(type: GraphQLObjectType) {
  let kinds = fieldKinds.get(type);
  if (!kinds) {
    const fields = Object.values(type.getFields()) as Field[];
    kinds = {
      fields,
      objects: fields.filter((f) => isObjectType(getNamedType(f.type))),
      leaves: fields.filter((f) => isLeafType(getNamedType(f.type))),
    };
    fieldKinds.set(type, kinds);
  }
  return kinds;
}

/**
 * A random selection set on `type`: one to three fields, object fields preferred until
 * MIN_DEPTH so every path goes deep, scalars only at MAX_DEPTH; aliases, inline fragments and
 * named fragments (added to `fragments`) at random.
 */
function selection(r: Rng, type: GraphQLObjectType, depth: number, fragments: string[]): string {
  const { fields, objects, leaves } = fieldsOf(type);
  const parts: string[] = [];
  const count = r.int(1, 3);
  for (let i = 0; i < count; i++) {
    const deep = objects.length > 0 && depth < MAX_DEPTH && (depth < MIN_DEPTH || r.chance(0.5));
    const f = deep ? r.pick(objects) : r.pick(leaves.length ? leaves : fields);
    // Every field gets its own response name: two selections of one name must agree in GraphQL.
    const alias = r.chance(0.25) ? `x${fragments.length}_${depth}_${i}_${r.int(0, 1e6)}: ` : '';
    // `members` always takes the same page size: fields of one name must agree in arguments.
    const args = f.name === 'members' ? '(first: 3)' : '';
    const inner = isObjectType(getNamedType(f.type))
      ? ` { ${selection(r, getNamedType(f.type) as GraphQLObjectType, depth + 1, fragments)} }`
      : '';
    let part = `${alias}${f.name}${args}${inner}`;
    const wrap = r.int(0, 99);
    if (wrap < 15) {
      part = `... on ${type.name} { ${part} }`;
    } else if (wrap < 30) {
      const name = `F${fragments.length}`;
      fragments.push(`fragment ${name} on ${type.name} { ${part} }`);
      part = `...${name}`;
    }
    parts.push(part);
  }
  return parts.join(' ');
}

/** Arguments for each root field, aimed at A's, B's or unknown objects. */
function rootArguments(r: Rng, c: TwoProjects): Record<string, () => string> {
  const consumer = () => r.pick([c.own[0]!, c.own[1]!, c.victims[0]!, c.victims[1]!, randomUUID()]);
  const group = () => r.pick([c.ownGroup, c.victimGroup, randomUUID()]);
  const project = () => r.pick([A_PROJECT, A_PROJECT, B_PROJECT]);
  const request = '{ groups: [{ resources: [{ resourceClass: "VCPU", amount: 1 }] }] }';
  const hints = () =>
    r.pick(['', `sameHost: ["${consumer()}"]`, `differentHost: ["${consumer()}"]`]);
  const scheduleInput = () =>
    `{ consumerUuids: ["${randomUUID()}"], projectId: "${project()}", userId: "u", request: ${request} ${hints()} ${r.chance(0.3) ? `group: "${group()}"` : ''} }`;
  const allocation = () =>
    `[{ consumerUuid: "${r.chance(0.7) ? randomUUID() : consumer()}", projectId: "${project()}", userId: "u", allocations: [{ providerUuid: "${r.pick([c.host, c.child])}", resources: [{ resourceClass: "${r.pick(['VCPU', 'MEMORY_MB'])}", amount: 1 }] }] }]`;
  return {
    // Queries
    auditEvents: () => '(first: 5)',
    resourceProvider: () => `(uuid: "${r.pick([c.host, c.child])}")`,
    aggregate: () => `(uuid: "${c.aggregate}")`,
    aggregates: () => '',
    allocationCandidates: () => `(request: ${request})`,
    consumer: () => `(uuid: "${consumer()}")`,
    resourceProviders: () => r.pick(['', `(filter: { inTree: "${c.host}" })`, '(first: 3)']),
    capacity: () => `(groupBy: ${r.pick(['NONE', 'AGGREGATE', 'ROOT'])})`,
    consumers: () =>
      r.pick([
        `(filter: { projectId: "${project()}" })`,
        `(filter: { projectId: "${A_PROJECT}", providerUuid: "${c.host}" })`,
        '',
      ]),
    projects: () => '',
    quota: () => `(projectId: "${project()}")`,
    resourceClasses: () => '',
    explainPlacement: () => `(input: ${scheduleInput()})`,
    schedulerPlugins: () => '',
    schedulerProfiles: () => '',
    serverGroups: () => r.pick([`(projectId: "${project()}")`, '']),
    serverGroup: () => `(uuid: "${group()}")`,
    traits: () => '',
    usages: () => `(projectId: "${project()}")`,
    version: () => '',
    // Mutations
    setAllocations: () => `(input: ${allocation()})`,
    schedule: () => `(input: ${scheduleInput()})`,
    confirmMove: () => `(input: { consumerUuid: "${consumer()}" })`,
    revertMove: () => `(input: { consumerUuid: "${consumer()}" })`,
    createServerGroup: () =>
      `(input: { name: "g", projectId: "${project()}", userId: "u", policy: SOFT_AFFINITY })`,
    addServerGroupMembers: () => `(uuid: "${group()}", consumerUuids: ["${consumer()}"])`,
    removeServerGroupMembers: () => `(uuid: "${group()}", consumerUuids: ["${consumer()}"])`,
    reshape: () => '(input: { inventories: [], allocations: [] })',
    // Subscriptions
    providerChanged: () => '',
    capacityChanged: () => `(groupBy: ${r.pick(['NONE', 'ROOT'])})`,
    allocationsChanged: () => `(projectId: "${project()}")`,
  };
}

/** One random operation on the root `operation` type: its text. */
function operationText(
  seed: number,
  c: TwoProjects,
  operation: 'query' | 'mutation' | 'subscription',
  role: Role,
): string {
  const r = rng(seed);
  const root =
    operation === 'query'
      ? schema.getQueryType()!
      : operation === 'mutation'
        ? schema.getMutationType()!
        : schema.getSubscriptionType()!;
  const args = rootArguments(r, c);
  const all = Object.values(root.getFields()).filter((f) => args[f.name]);
  // Mostly root fields the role may run (the rest check that refusals leak nothing either).
  const allowed = all.filter((f) => roleAllows(role, roleForOperation(operation, f.name)));
  const roots = allowed.length > 0 && r.chance(0.8) ? allowed : all;
  const fragments: string[] = [];
  // A subscription has exactly one root field; a mutation one or two (run in order).
  const count = operation === 'query' ? r.int(1, 2) : operation === 'mutation' ? r.int(1, 2) : 1;
  const fields: string[] = [];
  for (let i = 0; i < count; i++) {
    const f = r.pick(roots);
    const type = getNamedType(f.type);
    const inner = isObjectType(type) ? ` { ${selection(r, type, 1, fragments)} }` : '';
    fields.push(`r${i}: ${f.name}${args[f.name]!()}${inner}`);
  }
  return `${operation} { ${fields.join(' ')} } ${fragments.join(' ')}`;
}

describe('tenant isolation property: generated selections never show another project', () => {
  let t: TestApp;
  let c: TwoProjects;
  /** How the generated operations fared, to show the property is not vacuous. */
  const outcomes: Record<string, number> = {};
  const count = (k: string) => {
    outcomes[k] = (outcomes[k] ?? 0) + 1;
  };

  beforeAll(async () => {
    // The static cost limit would refuse most deep selections before they run; lifted here so
    // the access rules are what is tested (the result budget still bounds each answer).
    t = await createTestApp(
      {
        BERTH_AUTH: 'on',
        BERTH_MAX_SUBSCRIPTIONS: '50',
        BERTH_GRAPHQL_MAX_COST: '1000000000',
        BERTH_GRAPHQL_MAX_ALIASES: '1000',
      },
      // An unexpected error's cause is printed (the answer only says "Unexpected error.").
      { logger: createLogger('error') },
    );
    c = await buildTwoProjects(t.app);
  });
  afterAll(async () => {
    process.stdout.write(`\n[tenant property] outcomes: ${JSON.stringify(outcomes)}\n`);
    await t.close();
  });

  const as = (token: string, query: string) =>
    gql(t.app, query, {}, { authorization: `Bearer ${token}` });

  /** Records how the answer went and returns B's strings it leaked. */
  function check(kind: string, query: string, answer: unknown): string[] {
    const a = answer as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
    const code = a.errors?.[0]?.extensions?.code;
    count(`${kind}:${a.data && !code ? 'data' : a.data ? `partial(${code})` : (code ?? 'none')}`);
    if (code === 'INTERNAL_SERVER_ERROR') require('node:fs').writeFileSync('/tmp/failq.txt', query);
    expect({ query, internal: code === 'INTERNAL_SERVER_ERROR' }).toEqual({
      query,
      internal: false,
    });
    return leaked(c.secrets, query, JSON.stringify(answer));
  }

  it.each(['member', 'reader', 'scheduler'] as const)(
    'queries by a %s token of project A',
    async (role) => {
      await fc.assert(
        fc.asyncProperty(fc.integer(), async (seed) => {
          const query = operationText(seed, c, 'query', role);
          const answer = await as(c.tokens[role], query);
          expect({ query, leaked: check(`query/${role}`, query, answer) }).toEqual({
            query,
            leaked: [],
          });
        }),
        { numRuns: RUNS },
      );
    },
    120_000,
  );

  it.each(['member', 'scheduler'] as const)(
    'mutations by a %s token of project A',
    async (role) => {
      const before = await projectB(t);
      await fc.assert(
        fc.asyncProperty(fc.integer(), async (seed) => {
          const query = operationText(seed, c, 'mutation', role);
          const answer = await as(c.tokens[role], query);
          expect({ query, leaked: check(`mutation/${role}`, query, answer) }).toEqual({
            query,
            leaked: [],
          });
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
      // And none of them changed project B.
      expect(await projectB(t)).toBe(before);
    },
    120_000,
  );

  it.each(['member', 'reader'] as const)(
    'subscriptions by a %s token of project A, across a write of project B',
    async (role) => {
      await fc.assert(
        fc.asyncProperty(fc.integer(), async (seed) => {
          const query = operationText(seed, c, 'subscription', role);
          const s = await subscribe('http://berth.test', query, {}, c.tokens[role], (url, init) =>
            Promise.resolve(t.app.graphql.fetch(url, init)),
          );
          try {
            await new Promise((r) => setTimeout(r, 50));
            const write = await as(
              c.tokens.admin,
              `mutation { setAllocations(input: [{ consumerUuid: "${randomUUID()}", projectId: "${B_PROJECT}", userId: "${B_USER}", allocations: [{ providerUuid: "${c.host}", resources: [{ resourceClass: "VCPU", amount: 1 }] }] }]) { uuid } }`,
            );
            expect(write.errors).toBeUndefined();
            const event = await s.next(2000);
            if (event === 'timeout') {
              count(`subscription/${role}:no-event`);
              return;
            }
            expect({ query, leaked: check(`subscription/${role}`, query, event) }).toEqual({
              query,
              leaked: [],
            });
          } finally {
            await s.close();
          }
        }),
        { numRuns: Math.ceil(RUNS / 6) },
      );
    },
    120_000,
  );

  it('is not vacuous: most generated queries are answered with data', () => {
    for (const role of ['reader', 'scheduler']) {
      const data = outcomes[`query/${role}:data`] ?? 0;
      expect({ role, data: data >= RUNS * 0.4 }).toEqual({ role, data: true });
    }
    expect(outcomes['subscription/reader:data'] ?? 0).toBeGreaterThan(0);
    expect(outcomes['mutation/scheduler:data'] ?? 0).toBeGreaterThan(0);
  });
});

/** Project B as the database holds it (consumers, generations, amounts, group members). */
async function projectB(t: TestApp): Promise<string> {
  const rows: unknown[] = await t.app.dataSource.query(
    `SELECT c.uuid, c.generation, coalesce(sum(a.used), 0)::text AS used,
       (SELECT array_agg(m.consumer_uuid ORDER BY m.consumer_uuid) FROM server_group_members m
        JOIN server_groups g ON g.id = m.group_id WHERE g.project_id = $1) AS members
     FROM consumers c JOIN projects p ON p.id = c.project_id
     LEFT JOIN allocations a ON a.consumer_id = c.id
     WHERE p.external_id = $1 GROUP BY c.uuid, c.generation ORDER BY c.uuid`,
    [B_PROJECT],
  );
  return JSON.stringify(rows);
}
