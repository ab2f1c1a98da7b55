// Tenant isolation below the root field: a caller scoped to project A, holding a `member`,
// `reader` or `scheduler` token, reaches shared providers through its own consumers, aggregates,
// trees, subscriptions and mutation payloads, and is shown its own project's allocations there,
// never project B's. Another project's consumer or server group reads exactly as an unknown one.
import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app';
import { type GqlResponse, gql } from '../support/graphql';
import { type RestClient, restClient } from '../support/rest';
import { subscribe } from '../support/sse';
import { A_PROJECT, buildTwoProjects, leaked, type TwoProjects } from '../support/two-projects';

describe('tenant isolation at every depth (GraphQL, BERTH_AUTH=on)', () => {
  let t: TestApp;
  let c: TwoProjects;

  const as = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    gql(t.app, query, variables, { authorization: `Bearer ${token}` });

  /** Asserts the answer names none of B's ids the request did not, and returns it. */
  function clean(query: string, variables: object, r: unknown) {
    expect(leaked(c.secrets, query + JSON.stringify(variables), JSON.stringify(r))).toEqual([]);
    return r;
  }

  beforeAll(async () => {
    // The static cost limit (which counts a provider's allocations as 200) would refuse some of
    // these deep selections before they run; lifted so the access rules are what is tested.
    t = await createTestApp({
      BERTH_AUTH: 'on',
      BERTH_REST_AUTH: 'token',
      BERTH_MAX_SUBSCRIPTIONS: '20',
      BERTH_GRAPHQL_MAX_COST: '1000000000',
    });
    c = await buildTwoProjects(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const ALLOCS = 'allocations { used resourceClass consumer { uuid projectId userId } }';

  describe.each(['member', 'reader', 'scheduler'] as const)('a %s token of project A', (role) => {
    const token = () => c.tokens[role];

    it("reads its own consumer's providers with only its own allocations on them", async () => {
      const q = `query($u: ID!) { consumer(uuid: $u) { uuid allocations { provider {
        name inventories { total } ${ALLOCS}
        root { ${ALLOCS} children { ${ALLOCS} } }
        parent { ${ALLOCS} }
      } } } }`;
      const r: GqlResponse = await as(token(), q, { u: c.own[0] });
      expect(r.errors).toBeUndefined();
      clean(q, { u: c.own[0] }, r);
      const text = JSON.stringify(r);
      // Its own consumers are there (the rule filters, it does not hide everything).
      for (const own of c.own) {
        expect(text).toContain(own);
      }
      const allocations = r.data.consumer.allocations[0].provider.allocations;
      expect(
        allocations.map((a: { consumer: { projectId: string } }) => a.consumer.projectId),
      ).toEqual(allocations.map(() => A_PROJECT));
    });

    it('reads the aggregates of its providers with only its own allocations', async () => {
      const q = `query($u: ID!) { consumer(uuid: $u) { allocations { provider { aggregates { uuid
        members(first: 10) { edges { node { name ${ALLOCS} } } } providers { ${ALLOCS} } } } } } }`;
      const r: GqlResponse = await as(token(), q, { u: c.own[0] });
      expect(r.errors).toBeUndefined();
      clean(q, { u: c.own[0] }, r);
      expect(JSON.stringify(r)).toContain(c.aggregate);
    });

    it("reads another project's consumer exactly as an unknown one: null", async () => {
      const q = 'query($u: ID!) { consumer(uuid: $u) { uuid projectId allocations { used } } }';
      const foreign = await as(token(), q, { u: c.victims[0] });
      const unknown = await as(token(), q, { u: randomUUID() });
      expect(foreign).toEqual({ data: { consumer: null } });
      expect(unknown).toEqual(foreign);
    });
  });

  describe.each(['reader', 'scheduler'] as const)('a project-scoped %s token', (role) => {
    const token = () => c.tokens[role];

    it('lists providers with only its own allocations on them', async () => {
      const q = `{ resourceProviders(filter: { inTree: "${c.host}" }) { edges { node { uuid ${ALLOCS}
        usages { resourceClass usedExact } } } } }`;
      const r: GqlResponse = await as(token(), q);
      expect(r.errors).toBeUndefined();
      clean(q, {}, r);
      const host = r.data.resourceProviders.edges.find(
        (e: { node: { uuid: string } }) => e.node.uuid === c.host,
      ).node;
      // Usage counts every project (capacity is shared), allocations name only A's consumers.
      expect(
        host.usages.find((u: { resourceClass: string }) => u.resourceClass === 'VCPU'),
      ).toEqual({
        resourceClass: 'VCPU',
        usedExact: 6,
      });
      expect(host.allocations.map((a: { consumer: { uuid: string } }) => a.consumer.uuid)).toEqual([
        c.own[0],
        c.own[0],
      ]);
    });

    it('sees capacity groups by tree with only its own allocations', async () => {
      const q = `{ capacity(groupBy: ROOT) { root { name ${ALLOCS} } lines { used } } }`;
      const r = await as(token(), q);
      expect(r.errors).toBeUndefined();
      clean(q, {}, r);
    });

    it('sees aggregate metadata without the entries that name projects', async () => {
      const q = `query($u: ID!) { aggregate(uuid: $u) { metadata { key value } } }`;
      const r = await as(token(), q, { u: c.aggregate });
      expect(r).toEqual({ data: { aggregate: { metadata: [{ key: 'ssd', value: 'true' }] } } });
      const admin = await as(c.tokens.admin, q, { u: c.aggregate });
      expect(admin.data.aggregate.metadata.map((m: { key: string }) => m.key)).toEqual([
        'filter_tenant_id',
        'ssd',
      ]);
    });

    it("reads another project's server group as an unknown one", async () => {
      const q = 'query($u: ID!) { serverGroup(uuid: $u) { uuid projectId members } }';
      const foreign = await as(token(), q, { u: c.victimGroup });
      expect(foreign).toEqual({ data: { serverGroup: null } });
      expect(await as(token(), q, { u: randomUUID() })).toEqual(foreign);
      const own = await as(token(), q, { u: c.ownGroup });
      expect(own.data.serverGroup.members).toEqual([c.own[0]]);
    });
  });

  describe('scheduler hints name only its own instances', () => {
    const explain = (hint: Record<string, unknown>) => ({
      i: {
        consumerUuids: [randomUUID()],
        projectId: A_PROJECT,
        userId: 'u',
        request: { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] },
        ...hint,
      },
    });
    const Q =
      'query($i: ScheduleInput!) { explainPlacement(input: $i) { ranking { host { uuid } } } }';

    it.each([
      ['sameHost', () => ({ sameHost: [c.victims[0]] })],
      ['differentHost', () => ({ differentHost: [c.victims[0]] })],
      ['hints same_host', () => ({ hints: [{ key: 'same_host', values: [c.victims[0]] }] })],
      ['hints different_host', () => ({ hints: [{ key: 'different_host', values: c.victims }] })],
    ])("refuses %s naming another project's instance", async (_name, hint) => {
      const r = await as(c.tokens.reader, Q, explain(hint()));
      expect(r.errors?.[0]?.extensions?.code).toBe('berth.forbidden');
      expect(r.data ?? null).toBeNull();
    });

    it('takes them for its own instances', async () => {
      const r = await as(c.tokens.reader, Q, explain({ sameHost: [c.own[0]] }));
      expect(r.errors).toBeUndefined();
      expect(
        r.data.explainPlacement.ranking.map((h: { host: { uuid: string } }) => h.host.uuid),
      ).toEqual([c.host]);
    });
  });

  it('answers a scoped setAllocations payload with only its own allocations', async () => {
    const q = `mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid
      allocations { provider { ${ALLOCS} root { ${ALLOCS} } } } } }`;
    const v = {
      i: [
        {
          consumerUuid: randomUUID(),
          projectId: A_PROJECT,
          userId: 'u',
          allocations: [
            { providerUuid: c.host, resources: [{ resourceClass: 'VCPU', amount: 1 }] },
          ],
        },
      ],
    };
    const r = await as(c.tokens.scheduler, q, v);
    expect(r.errors).toBeUndefined();
    clean(q, v, r);
  });

  describe('the REST facade applies the same rules', () => {
    let rest: RestClient;
    beforeAll(async () => {
      rest = await restClient(t.app);
    });
    afterAll(async () => {
      await rest.close();
    });
    const get = (path: string, token: string) =>
      rest.call('GET', path, {
        headers: {
          accept: 'application/json',
          'openstack-api-version': 'placement latest',
          'x-auth-token': token,
        },
      });

    it("lists a shared provider's allocations with only its own project's consumers", async () => {
      for (const token of [c.tokens.reader, c.tokens.scheduler]) {
        const r = await get(`/resource_providers/${c.host}/allocations`, token);
        expect(r.status).toBe(200);
        expect(Object.keys(r.json.allocations)).toContain(c.own[0]);
        expect(leaked(c.secrets, '', r.text)).toEqual([]);
      }
      const all = await get(`/resource_providers/${c.host}/allocations`, c.tokens.admin);
      expect(Object.keys(all.json.allocations).sort()).toEqual(
        expect.arrayContaining([c.own[0], c.victims[0]]),
      );
    });

    it("answers another project's consumer exactly as an unknown one", async () => {
      const foreign = await get(`/allocations/${c.victims[0]}`, c.tokens.member);
      const unknown = await get(`/allocations/${randomUUID()}`, c.tokens.member);
      expect({ status: foreign.status, body: foreign.json }).toEqual({
        status: unknown.status,
        body: unknown.json,
      });
      expect(foreign.json).toEqual({ allocations: {} });
    });
  });

  describe('subscriptions pass the same checks', () => {
    const open = (token: string, query: string) =>
      subscribe('http://berth.test', query, {}, token, (url, init) =>
        Promise.resolve(t.app.graphql.fetch(url, init)),
      );

    it('refuses a member (subscriptions need reader) before any event', async () => {
      const s = await open(
        c.tokens.member,
        `subscription { capacityChanged(groupBy: ROOT) { groups { root { name ${ALLOCS} } } } }`,
      );
      try {
        const first = await s.next(5000);
        expect(first).not.toBe('timeout');
        expect((first as GqlResponse).errors?.[0]?.extensions?.code).toBe('berth.forbidden');
        expect((first as GqlResponse).data ?? null).toBeNull();
      } finally {
        await s.close();
      }
    });

    it("shows a scoped reader's capacity events with only its own allocations", async () => {
      const q = `subscription { capacityChanged(groupBy: ROOT) { groups { root { name ${ALLOCS}
        children { ${ALLOCS} } } } } }`;
      const s = await open(c.tokens.reader, q);
      try {
        const first = await s.next(10_000);
        expect(first).not.toBe('timeout');
        expect((first as GqlResponse).errors).toBeUndefined();
        clean(q, {}, first);
        expect(JSON.stringify(first)).toContain(c.own[0]);
      } finally {
        await s.close();
      }
    });

    it("shows a scoped reader's provider events with only its own allocations", async () => {
      const q = `subscription { providerChanged { providers { uuid ${ALLOCS} root { ${ALLOCS} } } } }`;
      const s = await open(c.tokens.reader, q);
      try {
        await new Promise((r) => setTimeout(r, 200)); // the stream is open
        const write = await as(
          c.tokens.admin,
          'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
          {
            i: [
              {
                consumerUuid: randomUUID(),
                projectId: 'proj-b-7f3e2d',
                userId: 'user-b-91c4aa',
                allocations: [
                  { providerUuid: c.host, resources: [{ resourceClass: 'VCPU', amount: 1 }] },
                ],
              },
            ],
          },
        );
        expect(write.errors).toBeUndefined();
        const event = await s.next(10_000);
        expect(event).not.toBe('timeout');
        expect((event as GqlResponse).errors).toBeUndefined();
        clean(q, {}, event);
        expect(JSON.stringify(event)).toContain(c.host);
      } finally {
        await s.close();
      }
    });
  });
});
