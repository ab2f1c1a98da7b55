// Tenant isolation through GraphQL: a token scoped to project A never writes, deletes or takes
// over project B's consumers, whatever form the target arrives in (literal, variable, variable
// default, a single value coerced to a list, fragments and aliases); project-scoped admin tokens
// do not exist; only admins override the operator's scheduler filters.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';

interface Reply {
  status: number;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string } }[];
  };
}

describe('tenant isolation (GraphQL, BERTH_AUTH=on)', () => {
  let t: TestApp;
  let rp: string;
  let scoped: string;
  let scheduler: string;
  let admin: string;
  /** Project B's consumer, allocated by an admin before the tests. */
  let victim: string;

  async function post(query: string, variables: object, token: string): Promise<Reply> {
    const res = await t.app.graphql.fetch('http://berth.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as Reply['body'] };
  }

  /** Project B as the database holds it: its consumers and their allocated amounts. */
  async function projectB(): Promise<string> {
    const rows: unknown[] = await t.app.dataSource.query(
      `SELECT c.uuid, c.generation, coalesce(sum(a.used), 0)::text AS used
       FROM consumers c JOIN projects p ON p.id = c.project_id
       LEFT JOIN allocations a ON a.consumer_id = c.id
       WHERE p.external_id = 'proj-b' GROUP BY c.uuid, c.generation ORDER BY c.uuid`,
    );
    return JSON.stringify(rows);
  }

  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on' });
    admin = (await t.app.tokens.create({ role: 'admin' })).token;
    scheduler = (await t.app.tokens.create({ role: 'scheduler' })).token;
    scoped = (await t.app.tokens.create({ role: 'scheduler', project: 'proj-a' })).token;
    rp = (
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 100_000 }],
      })
    ).uuid;
    const b = allocationInput(rp, { VCPU: 2 }, { projectId: 'proj-b' });
    victim = b.consumerUuid;
    const r = await post(
      'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
      { i: [b] },
      admin,
    );
    expect(r.body.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the attack run’s exact requests are refused and write nothing', () => {
    it('deleteAllocations with the target in a variable default', async () => {
      const before = await projectB();
      const r = await post(
        `mutation D($c: ID = "${victim}") { deleteAllocations(consumerUuid: $c) }`,
        {},
        scoped,
      );
      expect(r.status).toBe(403);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
      expect(await projectB()).toBe(before);
    });

    it('setAllocations with a defaulted input variable', async () => {
      const before = await projectB();
      const take = allocationInput(rp, { VCPU: 1 }, { consumerUuid: victim, projectId: 'proj-a' });
      const literal = JSON.stringify(take).replace(/"(\w+)":/g, '$1:');
      const r = await post(
        `mutation S($i: [ConsumerAllocationsInput!]! = [${literal}]) { setAllocations(input: $i) { uuid } }`,
        {},
        scoped,
      );
      expect(r.status).toBe(403);
      expect(await projectB()).toBe(before);
    });

    it('schedule with consumerUuids as a single string coerced to a list', async () => {
      const before = await projectB();
      const r = await post(
        `mutation($i: ScheduleInput!) { schedule(input: $i) { selections { consumerUuid } } }`,
        {
          i: {
            consumerUuids: victim,
            projectId: 'proj-a',
            userId: 'u',
            request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
          },
        },
        scoped,
      );
      expect(r.status).toBe(403);
      expect(await projectB()).toBe(before);
    });
  });

  it('refuses arguments it cannot decide rather than skipping the check', async () => {
    const before = await projectB();
    // `input` is required and missing: the field's arguments do not coerce.
    const r = await post(
      'mutation { own: deleteAllocations(consumerUuid: "not-checked-here") setAllocations { uuid } }',
      {},
      scoped,
    );
    expect(r.body.data ?? null).toBeNull();
    expect(await projectB()).toBe(before);
  });

  // Every mutation a scoped token may run, every way its target can be written.
  type Target = 'victim' | 'own-new' | 'foreign-project';
  type Form = 'literal' | 'variable' | 'default' | 'single' | 'fragment';
  const MUTATIONS = [
    'setAllocations',
    'deleteAllocations',
    'deleteAllocations(input)',
    'schedule',
    'confirmMove',
  ] as const;

  function gqlLiteral(v: unknown): string {
    return JSON.stringify(v).replace(/"(\w+)":/g, '$1:');
  }

  /** The operation text and variables for `m` aimed at `target` written in `form`. */
  function request(m: (typeof MUTATIONS)[number], target: Target, form: Form) {
    const consumer = target === 'victim' ? victim : randomUUID();
    const projectId = target === 'foreign-project' ? 'proj-b' : 'proj-a';
    let type: string;
    let field: (arg: string) => string;
    let value: unknown;
    switch (m) {
      case 'setAllocations': {
        const one = allocationInput(rp, { VCPU: 1 }, { consumerUuid: consumer, projectId });
        type = '[ConsumerAllocationsInput!]!';
        value = form === 'single' ? one : [one];
        field = (a) => `setAllocations(input: ${a}) { uuid }`;
        break;
      }
      case 'deleteAllocations':
        type = 'ID!';
        value = consumer;
        field = (a) => `deleteAllocations(consumerUuid: ${a})`;
        break;
      case 'deleteAllocations(input)':
        type = 'DeleteAllocationsInput!';
        value = { consumerUuid: consumer };
        field = (a) => `deleteAllocations(input: ${a})`;
        break;
      case 'confirmMove':
        type = 'EndMoveInput!';
        value = { consumerUuid: consumer };
        field = (a) => `confirmMove(input: ${a}) { uuid }`;
        break;
      default: {
        type = 'ScheduleInput!';
        value = {
          consumerUuids: form === 'single' ? consumer : [consumer],
          projectId,
          userId: 'u',
          request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
        };
        field = (a) => `schedule(input: ${a}) { selections { consumerUuid } }`;
      }
    }
    switch (form) {
      case 'literal':
        return { query: `mutation { ${field(gqlLiteral(value))} }`, variables: {} };
      case 'default':
        return {
          query: `mutation($v: ${type} = ${gqlLiteral(value)}) { ${field('$v')} }`,
          variables: {},
        };
      case 'fragment':
        return {
          query: `mutation($v: ${type}) { ...F } fragment F on Mutation { ... on Mutation { alias: ${field('$v')} } }`,
          variables: { v: value },
        };
      default:
        return { query: `mutation($v: ${type}) { ${field('$v')} }`, variables: { v: value } };
    }
  }

  it('never writes across projects: random mutations × argument forms × targets', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...MUTATIONS),
        fc.constantFrom<Target>('victim', 'own-new', 'foreign-project'),
        fc.constantFrom<Form>('literal', 'variable', 'default', 'single', 'fragment'),
        async (m, target, form) => {
          const before = await projectB();
          const { query, variables } = request(m, target, form);
          const r = await post(query, variables, scoped);
          const forbidden = r.body.errors?.some((e) => e.extensions?.code === 'berth.forbidden');
          const crossesProjects =
            target === 'victim' ||
            (target === 'foreign-project' &&
              !m.startsWith('deleteAllocations') &&
              m !== 'confirmMove');
          expect({ m, target, form, forbidden: !!forbidden }).toEqual({
            m,
            target,
            form,
            forbidden: crossesProjects,
          });
          expect(await projectB()).toBe(before);
        },
      ),
      { numRuns: 150 },
    );
  });

  describe('a project-scoped token reads only its own project', () => {
    const explain = (projectId: string) => ({
      i: {
        consumerUuids: [randomUUID()],
        projectId,
        userId: 'u',
        request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
      },
    });
    it.each([
      ['quota of another project', '{ quota(projectId: "proj-b") { projectId } }', {}, true],
      ['its own quota', '{ quota(projectId: "proj-a") { projectId } }', {}, false],
      [
        'usages of another project',
        '{ usages(projectId: "proj-b") { total { resourceClass } } }',
        {},
        true,
      ],
      ['consumers without a project filter', '{ consumers { totalCount } }', {}, true],
      [
        'consumers of another project',
        '{ consumers(filter: { projectId: "proj-b" }) { totalCount } }',
        {},
        true,
      ],
      [
        'its own consumers',
        '{ consumers(filter: { projectId: "proj-a" }) { totalCount } }',
        {},
        false,
      ],
      ['every project', '{ projects { totalCount } }', {}, true],
      [
        'an explanation for another project',
        'query($i: ScheduleInput!) { explainPlacement(input: $i) { ranking { weight } } }',
        explain('proj-b'),
        true,
      ],
      [
        'an explanation for its own project',
        'query($i: ScheduleInput!) { explainPlacement(input: $i) { ranking { weight } } }',
        explain('proj-a'),
        false,
      ],
    ])('%s', async (_name, query, variables, refused) => {
      const r = await post(query, variables, scoped);
      const forbidden = r.body.errors?.some((e) => e.extensions?.code === 'berth.forbidden');
      expect({ status: r.status, forbidden: !!forbidden }).toEqual(
        refused ? { status: 403, forbidden: true } : { status: 200, forbidden: false },
      );
    });

    it("reads another project's consumer by uuid as an unknown one: null", async () => {
      const r = await post('query($u: ID!) { consumer(uuid: $u) { uuid } }', { u: victim }, scoped);
      expect(r.body).toEqual({ data: { consumer: null } });
      const unscoped = await post(
        'query($u: ID!) { consumer(uuid: $u) { uuid } }',
        { u: victim },
        scheduler,
      );
      expect(unscoped.body.errors).toBeUndefined();
    });
  });

  it('refuses to create a project-scoped admin token', async () => {
    await expect(t.app.tokens.create({ role: 'admin', project: 'proj-a' })).rejects.toThrow(
      /admin tokens cannot be scoped to a project/,
    );
  });

  it('holds no active project-scoped admin token in the database either', async () => {
    await expect(
      t.app.dataSource.query(
        `INSERT INTO api_tokens (id, name, role, project, secret_sha256)
         VALUES ('0123456789abcdef', '', 'admin', 'proj-a', repeat('0', 64))`,
      ),
    ).rejects.toThrow(/CHK_api_tokens_unscoped_roles/);
  });

  describe('scheduler filter overrides are admin-only', () => {
    let disabledHost: string;
    const scheduleOnDisabled = (filters: string[] | undefined) => ({
      i: {
        consumerUuids: [randomUUID()],
        projectId: 'proj-a',
        userId: 'u',
        request: { groups: [{ resources: [{ resourceClass: 'CUSTOM_ISOLATED', amount: 1 }] }] },
        ...(filters ? { filters } : {}),
      },
    });
    const SCHEDULE =
      'mutation($i: ScheduleInput!) { schedule(input: $i) { selections { host { uuid } } } }';

    beforeAll(async () => {
      await t.app.services.resourceClasses.create('CUSTOM_ISOLATED');
      disabledHost = (
        await buildResourceProvider(t.app.services, {
          inventories: [{ resourceClass: 'CUSTOM_ISOLATED', total: 10 }],
          traits: ['COMPUTE_STATUS_DISABLED'],
        })
      ).uuid;
    });

    const allocatedOnDisabled = async () =>
      (
        (await t.app.dataSource.query(
          `SELECT count(*)::int AS n FROM allocations a JOIN resource_providers p
           ON p.id = a.resource_provider_id WHERE p.uuid = $1`,
          [disabledHost],
        )) as { n: number }[]
      )[0]!.n;

    it('refuses a scheduler token that sends filters, placing nothing', async () => {
      for (const token of [scheduler, scoped]) {
        const r = await post(SCHEDULE, scheduleOnDisabled([]), token);
        expect(r.status).toBe(403);
        expect(r.body.errors?.[0]?.message).toContain('input.filters');
      }
      expect(await allocatedOnDisabled()).toBe(0);
    });

    it('refuses it in a variable default too', async () => {
      const r = await post(
        `mutation($f: [String!] = []) { schedule(input: {consumerUuids: "${randomUUID()}", projectId: "proj-a", userId: "u", filters: $f,
          request: {groups: [{resources: [{resourceClass: "CUSTOM_ISOLATED", amount: 1}]}]}}) { selections { consumerUuid } } }`,
        {},
        scheduler,
      );
      expect(r.status).toBe(403);
      expect(await allocatedOnDisabled()).toBe(0);
    });

    it('keeps the operator’s filters for a scheduler token (the disabled host is not chosen)', async () => {
      const r = await post(SCHEDULE, scheduleOnDisabled(undefined), scheduler);
      expect(r.body).toEqual({ data: { schedule: { selections: [{ host: null }] } } });
      expect(await allocatedOnDisabled()).toBe(0);
    });

    it('lets an admin override them', async () => {
      const r = await post(SCHEDULE, scheduleOnDisabled([]), admin);
      expect(r.body.errors).toBeUndefined();
      expect(await allocatedOnDisabled()).toBe(1);
    });
  });
});
