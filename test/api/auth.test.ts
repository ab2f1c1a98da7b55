// GraphQL authentication and authorisation: each role against a query, a scheduler mutation and
// an admin mutation; missing/invalid/revoked tokens; project-scoped tokens; nothing written when
// refused.
import { randomUUID } from 'node:crypto';
import { MISSING_TOKEN } from '../../src/auth/admission';
import { allocationInput } from '../support/allocation-input';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';

const QUERY = '{ resourceClasses { name } }';
const SET_ALLOCATIONS = `mutation($input: [ConsumerAllocationsInput!]!) {
  setAllocations(input: $input) { uuid } }`;
const CREATE_TRAIT = 'mutation($n: String!) { createTrait(name: $n) { name } }';

describe('GraphQL auth (BERTH_AUTH=on)', () => {
  let t: TestApp;
  let rp: string;
  const tokens: Record<string, string> = {};

  async function post(query: string, variables: object = {}, token?: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== undefined) {
      headers.authorization = `Bearer ${token}`;
    }
    const res = await t.app.graphql.fetch('http://berth.test/graphql', {
      method: 'POST',
      headers,
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as {
      data?: Record<string, unknown> | null;
      errors?: { message: string; extensions?: { code?: string } }[];
    };
    return { status: res.status, headers: res.headers, body };
  }

  async function traitExists(name: string): Promise<boolean> {
    const rows: unknown[] = await t.app.dataSource.query('SELECT 1 FROM traits WHERE name = $1', [
      name,
    ]);
    return rows.length > 0;
  }

  beforeAll(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on', BERTH_AUTH_CACHE_TTL_MS: '200' });
    for (const role of ['admin', 'scheduler', 'reader']) {
      tokens[role] = (await t.app.tokens.create({ role, name: `test-${role}` })).token;
    }
    tokens.scoped = (await t.app.tokens.create({ role: 'scheduler', project: 'proj-a' })).token;
    rp = (
      await buildResourceProvider(t.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 1000 }],
      })
    ).uuid;
  });
  afterAll(async () => {
    await t.close();
  });

  it('returns 401 berth.unauthenticated when no token is sent', async () => {
    const r = await post(QUERY);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(r.body.errors).toEqual([
      {
        message: MISSING_TOKEN,
        extensions: { code: 'berth.unauthenticated' },
      },
    ]);
  });

  it.each([
    ['garbage', 'not-a-token'],
    ['unknown id', `berth_0123456789abcdef_${'A'.repeat(43)}`],
  ])('returns 401 when the token is %s', async (_name, token) => {
    const r = await post(QUERY, {}, token);
    expect(r.status).toBe(401);
    expect(r.body.errors?.[0]).toEqual({
      message: 'Invalid API token.',
      extensions: { code: 'berth.unauthenticated' },
    });
  });

  it('returns 401 when the secret does not match a real id', async () => {
    const [prefix, id] = tokens.reader!.split('_');
    const r = await post(QUERY, {}, `${prefix}_${id}_${'B'.repeat(43)}`);
    expect(r.status).toBe(401);
  });

  const table = [
    { role: 'reader', query: true, scheduler: false, admin: false },
    { role: 'scheduler', query: true, scheduler: true, admin: false },
    { role: 'admin', query: true, scheduler: true, admin: true },
  ];

  it.each(table)('$role: query allowed = $query', async ({ role, query }) => {
    const r = await post(QUERY, {}, tokens[role]);
    expect(r.status).toBe(query ? 200 : 403);
    expect(r.body.errors).toBeUndefined();
  });

  it.each(table)('$role: setAllocations allowed = $scheduler', async ({ role, scheduler }) => {
    const input = [allocationInput(rp, { VCPU: 1 })];
    const r = await post(SET_ALLOCATIONS, { input }, tokens[role]);
    const count: { n: string | number }[] = await t.app.dataSource.query(
      'SELECT count(*) AS n FROM consumers WHERE uuid = $1',
      [input[0]!.consumerUuid],
    );
    if (scheduler) {
      expect(r.body.errors).toBeUndefined();
      expect(Number(count[0]!.n)).toBe(1);
    } else {
      expect(r.status).toBe(403);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
      expect(r.body.errors?.[0]?.message).toBe(
        `Role '${role}' may not run mutation field 'setAllocations' (needs 'scheduler').`,
      );
      expect(Number(count[0]!.n)).toBe(0);
    }
  });

  it.each(table)('$role: createTrait (admin-only) allowed = $admin', async ({ role, admin }) => {
    const name = `CUSTOM_AUTH_${role.toUpperCase()}`;
    const r = await post(CREATE_TRAIT, { n: name }, tokens[role]);
    if (admin) {
      expect(r.body).toEqual({ data: { createTrait: { name } } });
    } else {
      expect(r.status).toBe(403);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
    }
    expect(await traitExists(name)).toBe(admin);
  });

  it('refuses a whole operation when one root field (inside a fragment) needs a higher role', async () => {
    const input = [allocationInput(rp, { VCPU: 1 })];
    const r = await post(
      `mutation($input: [ConsumerAllocationsInput!]!) { setAllocations(input: $input) { uuid } ...T }
       fragment T on Mutation { sneaky: createTrait(name: "CUSTOM_SNEAKY") { name } }`,
      { input },
      tokens.scheduler,
    );
    expect(r.status).toBe(403);
    expect(r.body.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
    expect(await traitExists('CUSTOM_SNEAKY')).toBe(false);
    const rows: unknown[] = await t.app.dataSource.query(
      'SELECT 1 FROM consumers WHERE uuid = $1',
      [input[0]!.consumerUuid],
    );
    expect(rows).toEqual([]);
  });

  it('stops accepting a revoked token within BERTH_AUTH_CACHE_TTL_MS', async () => {
    const { token, info } = await t.app.tokens.create({ role: 'reader' });
    expect((await post(QUERY, {}, token)).status).toBe(200);
    expect(await t.app.tokens.revoke(info.id)).toBe(true);
    expect(await t.app.tokens.revoke(info.id)).toBe(false);
    await new Promise((r) => setTimeout(r, 250));
    const r = await post(QUERY, {}, token);
    expect(r.status).toBe(401);
    expect(r.body.errors?.[0]?.message).toBe('API token has been revoked.');
  });

  it('records last use without storing the secret', async () => {
    const rows: { secret_sha256: string; last_used_at: Date | null }[] =
      await t.app.dataSource.query('SELECT secret_sha256, last_used_at FROM api_tokens');
    const secrets = Object.values(tokens).map((tok) => tok.split('_')[2]);
    for (const row of rows) {
      expect(row.secret_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(secrets).not.toContain(row.secret_sha256);
    }
    expect(rows.some((r) => r.last_used_at !== null)).toBe(true);
  });

  describe('project-scoped scheduler token (proj-a)', () => {
    it('writes allocations for its own project', async () => {
      const r = await post(
        SET_ALLOCATIONS,
        { input: [allocationInput(rp, { VCPU: 1 }, { projectId: 'proj-a' })] },
        tokens.scoped,
      );
      expect(r.body.errors).toBeUndefined();
    });

    it('returns 403 for another project in setAllocations, writing nothing', async () => {
      const input = [allocationInput(rp, { VCPU: 1 }, { projectId: 'proj-b' })];
      const r = await post(SET_ALLOCATIONS, { input }, tokens.scoped);
      expect(r.status).toBe(403);
      expect(r.body.errors?.[0]?.message).toBe(
        "This token is scoped to project 'proj-a' and may not write allocations for project 'proj-b'.",
      );
      const rows: unknown[] = await t.app.dataSource.query(
        'SELECT 1 FROM consumers WHERE uuid = $1',
        [input[0]!.consumerUuid],
      );
      expect(rows).toEqual([]);
    });

    it('returns 403 when deleting the allocations of another project’s consumer', async () => {
      const other = allocationInput(rp, { VCPU: 1 }, { projectId: 'proj-b' });
      expect((await post(SET_ALLOCATIONS, { input: [other] }, tokens.admin)).body.errors).toBe(
        undefined,
      );
      const r = await post(
        'mutation($c: ID!) { deleteAllocations(consumerUuid: $c) }',
        { c: other.consumerUuid },
        tokens.scoped,
      );
      expect(r.status).toBe(403);
      expect(r.body.errors?.[0]?.message).toContain('belongs to another project');
      const rows: unknown[] = await t.app.dataSource.query(
        'SELECT 1 FROM consumers WHERE uuid = $1',
        [other.consumerUuid],
      );
      expect(rows).toHaveLength(1);
    });

    it('returns 403 when scheduling for another project', async () => {
      const r = await post(
        `mutation($i: ScheduleInput!) { schedule(input: $i) { selections { consumerUuid } } }`,
        {
          i: {
            consumerUuids: [randomUUID()],
            projectId: 'proj-b',
            userId: 'u',
            request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
          },
        },
        tokens.scoped,
      );
      expect(r.status).toBe(403);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
    });
  });
});
