// Server groups through GraphQL: create / list / delete / members, `schedule` with `group` under
// each policy (affinity on one host, anti-affinity on distinct hosts up to maxServerPerHost, soft
// policies as preferences), bad input refused without a write, a project-scoped token kept to its
// own project's groups, and the concurrency guarantee: 32 schedulers racing into one anti-affinity
// group never put two members on one host (the claim re-checks the policy with the group locked).
import { randomUUID } from 'node:crypto';
import { createApp } from '../../src/app/app';
import { createLogger } from '../../src/observability/logger';
import { createTestApp, createTestCache, type TestApp } from '../support/app';
import { realPostgresIt, testDatabaseUrl } from '../support/db';
import { buildResourceProvider } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const CREATE = `mutation C($input: CreateServerGroupInput!) {
  createServerGroup(input: $input) { uuid name projectId policy maxServerPerHost members }
}`;
const GROUP = `query G($uuid: ID!) {
  serverGroup(uuid: $uuid) { uuid policy members hosts { host { uuid } members } }
}`;
const SCHEDULE = `mutation S($input: ScheduleInput!) {
  schedule(input: $input) { selections { consumerUuid host { uuid } reason } }
}`;
const EXPLAIN = `query E($input: ScheduleInput!) {
  explainPlacement(input: $input) {
    selections { consumerUuid host { uuid } reason } filterSteps { filter before after }
  }
}`;

const request = { groups: [{ resources: [{ resourceClass: 'VCPU', amount: 1 }] }] };
const input = (group: string, consumerUuids = [randomUUID()], projectId = 'p') => ({
  input: { consumerUuids, projectId, userId: 'u', request, group },
});

describe('server groups', () => {
  let t: TestApp;
  const hosts: string[] = [];

  async function createGroup(policy: string, extra: object = {}, projectId = 'p') {
    const r = await gql(t.app, CREATE, {
      input: { name: `g-${policy}`, projectId, userId: 'u', policy, ...extra },
    });
    expect(r.errors).toBeUndefined();
    return r.data.createServerGroup as { uuid: string; maxServerPerHost: number | null };
  }

  async function schedule(group: string, consumers = [randomUUID()]) {
    const r = await gql(t.app, SCHEDULE, input(group, consumers));
    expect(r.errors).toBeUndefined();
    return r.data.schedule.selections as { host: { uuid: string } | null; reason: string | null }[];
  }

  async function members(uuid: string) {
    const r = await gql(t.app, GROUP, { uuid });
    expect(r.errors).toBeUndefined();
    return r.data.serverGroup as {
      members: string[];
      hosts: { host: { uuid: string }; members: string[] }[];
    };
  }

  beforeAll(async () => {
    // As a Nova operator would: the soft weighers outweigh the default capacity weighers.
    t = await createTestApp({
      BERTH_SCHEDULER_CONFIG: JSON.stringify({
        ServerGroupSoftAffinityWeigher: { multiplier: 10 },
        ServerGroupSoftAntiAffinityWeigher: { multiplier: 10 },
      }),
    });
    for (let i = 0; i < 4; i++) {
      const rp = await buildResourceProvider(t.app.services, {
        name: `grouped-${i}`,
        inventories: [{ resourceClass: 'VCPU', total: 64 }],
      });
      hosts.push(rp.uuid);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates, lists and deletes a group', async () => {
    const g = await createGroup('ANTI_AFFINITY', { maxServerPerHost: 2 });
    expect(g.maxServerPerHost).toBe(2);
    const list = await gql(t.app, '{ serverGroups(projectId: "p") { uuid policy } }');
    expect(list.data.serverGroups).toContainEqual({ uuid: g.uuid, policy: 'ANTI_AFFINITY' });
    const del = await gql(t.app, 'mutation D($u: ID!) { deleteServerGroup(uuid: $u) }', {
      u: g.uuid,
    });
    expect(del.data.deleteServerGroup).toBe(g.uuid);
    expect((await gql(t.app, GROUP, { uuid: g.uuid })).data.serverGroup).toBeNull();
  });

  it.each([
    [{ policy: 'AFFINITY', maxServerPerHost: 2 }, /anti-affinity policy only/],
    [{ policy: 'ANTI_AFFINITY', maxServerPerHost: 0 }, /at least 1/],
    [{ policy: 'AFFINITY', name: '' }, /1 to 255 characters/],
  ])('refuses a bad group %o with a clear error', async (extra, message) => {
    const r = await gql(t.app, CREATE, {
      input: { name: 'bad', projectId: 'p', userId: 'u', ...extra },
    });
    expect(firstError(r)).toMatchObject({
      code: 'berth.invalid_input',
      message: expect.stringMatching(message),
    });
  });

  it('affinity: every member on the first member’s host', async () => {
    const g = await createGroup('AFFINITY');
    const first = (await schedule(g.uuid))[0]!;
    expect(first.host).not.toBeNull();
    for (let i = 0; i < 4; i++) {
      expect((await schedule(g.uuid))[0]!.host?.uuid).toBe(first.host!.uuid);
    }
    const m = await members(g.uuid);
    expect(m.members).toHaveLength(5);
    expect(m.hosts).toEqual([{ host: first.host, members: m.members.slice().sort() }]);
  });

  it('anti-affinity: one member per host, then no valid host naming the filter', async () => {
    const g = await createGroup('ANTI_AFFINITY');
    const placed = [];
    for (let i = 0; i < hosts.length; i++) {
      placed.push((await schedule(g.uuid))[0]!.host?.uuid);
    }
    expect(new Set(placed).size).toBe(hosts.length);
    const fifth = (await schedule(g.uuid))[0]!;
    expect(fifth.host).toBeNull();
    expect(fifth.reason).toMatch(/ServerGroupAntiAffinityFilter: 4 -> 0/);
  });

  it('anti-affinity multi-create places each consumer on its own host, in explain too', async () => {
    const g = await createGroup('ANTI_AFFINITY');
    const consumers = [randomUUID(), randomUUID(), randomUUID()];
    const explained = await gql(t.app, EXPLAIN, input(g.uuid, consumers));
    expect(explained.errors).toBeUndefined();
    const proposed = explained.data.explainPlacement.selections.map((s: any) => s.host.uuid);
    expect(new Set(proposed).size).toBe(3);
    const selections = await schedule(g.uuid, consumers);
    expect(new Set(selections.map((s) => s.host?.uuid)).size).toBe(3);
  });

  it('anti-affinity with maxServerPerHost 2 allows two per host', async () => {
    const g = await createGroup('ANTI_AFFINITY', { maxServerPerHost: 2 });
    const placed = [];
    for (let i = 0; i < hosts.length * 2; i++) {
      placed.push((await schedule(g.uuid))[0]!.host!.uuid);
    }
    const perHost = new Map<string, number>();
    for (const h of placed) {
      perHost.set(h, (perHost.get(h) ?? 0) + 1);
    }
    expect([...perHost.values()]).toEqual([2, 2, 2, 2]);
    expect((await schedule(g.uuid))[0]!.host).toBeNull();
  });

  it('soft-anti-affinity spreads while it can, then shares a host instead of failing', async () => {
    const g = await createGroup('SOFT_ANTI_AFFINITY');
    const placed = [];
    for (let i = 0; i < hosts.length + 1; i++) {
      placed.push((await schedule(g.uuid))[0]!.host?.uuid);
    }
    expect(new Set(placed.slice(0, hosts.length)).size).toBe(hosts.length);
    expect(placed[hosts.length]).toBeDefined();
  });

  it('soft-affinity gathers members on one host', async () => {
    const g = await createGroup('SOFT_AFFINITY');
    const placed = [];
    for (let i = 0; i < 3; i++) {
      placed.push((await schedule(g.uuid))[0]!.host?.uuid);
    }
    expect(new Set(placed).size).toBe(1);
  });

  it('refuses an unknown group, another project’s group, and a consumer of another group', async () => {
    const unknown = await gql(t.app, SCHEDULE, input(randomUUID()));
    expect(firstError(unknown)?.code).toBe('berth.server_group.not_found');
    const foreign = await createGroup('AFFINITY', {}, 'other-project');
    const r = await gql(t.app, SCHEDULE, input(foreign.uuid));
    // Another project's group reads as an unknown one (its existence is not disclosed).
    expect(firstError(r)).toEqual({
      code: 'berth.server_group.not_found',
      status: 404,
      message: `No server group ${foreign.uuid}.`,
    });
    const a = await createGroup('SOFT_AFFINITY');
    const b = await createGroup('SOFT_AFFINITY');
    const consumer = randomUUID();
    await schedule(a.uuid, [consumer]);
    const twice = await gql(t.app, SCHEDULE, input(b.uuid, [consumer]));
    expect(firstError(twice)?.code).toBe('berth.server_group.member_elsewhere');
    expect((await members(b.uuid)).members).toEqual([]);
  });

  it('a rolled-back multi-create leaves no membership behind', async () => {
    const g = await createGroup('ANTI_AFFINITY');
    const consumers = Array.from({ length: hosts.length + 1 }, () => randomUUID());
    const selections = await schedule(g.uuid, consumers);
    expect(selections.every((s) => s.host === null)).toBe(true);
    expect((await members(g.uuid)).members).toEqual([]);
  });

  describe('with tokens', () => {
    let a: TestApp;
    let scoped: string;
    let admin: string;
    const post = (query: string, variables: object, token: string) =>
      gql(a.app, query, variables as Record<string, unknown>, { authorization: `Bearer ${token}` });

    beforeAll(async () => {
      a = await createTestApp({ BERTH_AUTH: 'on' });
      admin = (await a.app.tokens.create({ role: 'admin' })).token;
      scoped = (await a.app.tokens.create({ role: 'scheduler', project: 'proj-a' })).token;
    });
    afterAll(async () => {
      await a.close();
    });

    it('keeps a project-scoped token to its own project’s groups', async () => {
      const theirs = await post(
        CREATE,
        { input: { name: 'b', projectId: 'proj-b', userId: 'u', policy: 'AFFINITY' } },
        admin,
      );
      const uuid = theirs.data.createServerGroup.uuid;
      const create = await post(
        CREATE,
        { input: { name: 'x', projectId: 'proj-b', userId: 'u', policy: 'AFFINITY' } },
        scoped,
      );
      expect(firstError(create)?.code).toBe('berth.forbidden');
      const list = await post('{ serverGroups { uuid } }', {}, scoped);
      expect(firstError(list)?.code).toBe('berth.forbidden');
      // Another project's group reads and deletes exactly as an unknown one (not disclosed).
      expect(await post(GROUP, { uuid }, scoped)).toEqual({ data: { serverGroup: null } });
      const DELETE = 'mutation D($uuid: ID!) { deleteServerGroup(uuid: $uuid) }';
      const foreign = await post(DELETE, { uuid }, scoped);
      expect(firstError(foreign)?.code).toBe('berth.server_group.not_found');
      const unknown = await post(DELETE, { uuid: randomUUID() }, scoped);
      expect(firstError(foreign)?.message.replace(uuid, 'X')).toBe(
        firstError(unknown)?.message.replace(/[0-9a-f-]{36}/, 'X'),
      );
      const own = await post(
        CREATE,
        { input: { name: 'a', projectId: 'proj-a', userId: 'u', policy: 'AFFINITY' } },
        scoped,
      );
      expect(own.errors).toBeUndefined();
      const mine = await post('{ serverGroups(projectId: "proj-a") { uuid } }', {}, scoped);
      expect(mine.data.serverGroups).toEqual([{ uuid: own.data.createServerGroup.uuid }]);
      const still = await post(GROUP, { uuid }, admin);
      expect(still.data.serverGroup.uuid).toBe(uuid);
    });
  });

  describe('membership is for existing consumers of the group’s project', () => {
    let a: TestApp;
    let scoped: string;
    let scopedB: string;
    let unscoped: string;
    const post = (query: string, variables: object, token: string) =>
      gql(a.app, query, variables as Record<string, unknown>, { authorization: `Bearer ${token}` });
    const ADD = `mutation($g: ID!, $c: [ID!]!) { addServerGroupMembers(uuid: $g, consumerUuids: $c) {
      members } }`;
    const groupOf = async (token: string, projectId: string) =>
      (
        await post(
          CREATE,
          { input: { name: 'g', projectId, userId: 'u', policy: 'ANTI_AFFINITY' } },
          token,
        )
      ).data.createServerGroup.uuid as string;

    beforeAll(async () => {
      a = await createTestApp({ BERTH_AUTH: 'on' });
      scoped = (await a.app.tokens.create({ role: 'scheduler', project: 'proj-a' })).token;
      scopedB = (await a.app.tokens.create({ role: 'scheduler', project: 'proj-b' })).token;
      unscoped = (await a.app.tokens.create({ role: 'scheduler' })).token;
      await buildResourceProvider(a.app.services, {
        inventories: [{ resourceClass: 'VCPU', total: 64 }],
      });
    });
    afterAll(async () => {
      await a.close();
    });

    it('refuses a uuid no consumer has yet, so no project reserves another’s future consumer', async () => {
      const mine = await groupOf(scoped, 'proj-a');
      const future = randomUUID();
      const squat = await post(ADD, { g: mine, c: [future] }, scoped);
      expect(firstError(squat)?.code).toBe('berth.invalid_input');
      expect(firstError(squat)?.message).toContain(`Consumer ${future} is not a consumer`);
      // Project B later creates that consumer in its own group: nothing stands in its way.
      const theirs = await groupOf(scopedB, 'proj-b');
      const placed = await post(SCHEDULE, { ...input(theirs, [future], 'proj-b') }, scopedB);
      expect(placed.errors).toBeUndefined();
      expect(placed.data.schedule.selections[0].host).not.toBeNull();
      expect((await post(GROUP, { uuid: theirs }, scopedB)).data.serverGroup.members).toEqual([
        future,
      ]);
      expect((await post(GROUP, { uuid: mine }, scoped)).data.serverGroup.members).toEqual([]);
    });

    it('refuses another project’s consumer, and takes its own', async () => {
      const mine = await groupOf(scoped, 'proj-a');
      const theirs = await groupOf(scopedB, 'proj-b');
      const b = randomUUID();
      expect((await post(SCHEDULE, input(theirs, [b], 'proj-b'), scopedB)).errors).toBeUndefined();
      // A scoped token is stopped before execution (the consumer is another project's)…
      expect(firstError(await post(ADD, { g: mine, c: [b] }, scoped))?.code).toBe(
        'berth.forbidden',
      );
      // …and the rule itself holds for any caller: another project's consumer is refused as an
      // unknown one is.
      const foreign = await post(ADD, { g: mine, c: [b] }, unscoped);
      const unknown = await post(ADD, { g: mine, c: [randomUUID()] }, unscoped);
      expect(firstError(foreign)?.code).toBe('berth.invalid_input');
      expect(firstError(foreign)?.message.replace(b, 'X')).toBe(
        firstError(unknown)?.message.replace(/[0-9a-f-]{36}/, 'X'),
      );
      const own = randomUUID();
      const other = await groupOf(scoped, 'proj-a');
      expect((await post(SCHEDULE, input(other, [own], 'proj-a'), scoped)).errors).toBeUndefined();
      // Its own consumer, placed into another of its groups, is a member elsewhere.
      expect(firstError(await post(ADD, { g: mine, c: [own] }, scoped))?.code).toBe(
        'berth.server_group.member_elsewhere',
      );
      // Released from there, it joins.
      const REMOVE = `mutation($g: ID!, $c: [ID!]!) { removeServerGroupMembers(uuid: $g, consumerUuids: $c) { members } }`;
      expect((await post(REMOVE, { g: other, c: [own] }, scoped)).errors).toBeUndefined();
      expect((await post(ADD, { g: mine, c: [own] }, scoped)).data.addServerGroupMembers).toEqual({
        members: [own],
      });
    });
  });

  realPostgresIt(
    '32 concurrent schedules into one anti-affinity group never share a host',
    async () => {
      // Four replicas over one database (each its own scheduler state: caches, in-flight host
      // spreading), 8 callers each: only the claim-time check keeps the group apart.
      const c = await createTestApp();
      const replicas = await Promise.all(
        [1, 2, 3].map(() =>
          createApp(c.app.config, createLogger('silent'), {
            dataSource: c.db.dataSource,
            cache: createTestCache(),
            changeChannel: `berth_changes_${c.db.schema}`,
            listenUrl: testDatabaseUrl(),
          }),
        ),
      );
      try {
        const many: string[] = [];
        for (let i = 0; i < 40; i++) {
          many.push(
            (
              await buildResourceProvider(c.app.services, {
                name: `race-${i}`,
                inventories: [{ resourceClass: 'VCPU', total: 64 }],
              })
            ).uuid,
          );
        }
        const r = await gql(c.app, CREATE, {
          input: { name: 'race', projectId: 'p', userId: 'u', policy: 'ANTI_AFFINITY' },
        });
        const group = r.data.createServerGroup.uuid;
        const results = await Promise.all(
          Array.from({ length: 32 }, (_, i) =>
            gql([c.app, ...replicas][i % 4]!, SCHEDULE, input(group)),
          ),
        );
        for (const res of results) {
          expect(res.errors).toBeUndefined();
        }
        const placed = results
          .map((res) => res.data.schedule.selections[0].host?.uuid)
          .filter((h): h is string => Boolean(h));
        // Every call placed (40 hosts for 32 members) and no host runs two.
        expect(placed).toHaveLength(32);
        expect(new Set(placed).size).toBe(32);
        const rows: { host: string; n: string }[] = await c.app.services.dataSource.query(
          `SELECT r.uuid AS host, count(DISTINCT m.consumer_uuid) AS n FROM server_group_members m
         JOIN server_groups g ON g.id = m.group_id JOIN consumers co ON co.uuid = m.consumer_uuid
         JOIN allocations a ON a.consumer_id = co.id JOIN resource_providers p ON p.id = a.resource_provider_id
         JOIN resource_providers r ON r.id = p.root_provider_id WHERE g.uuid = $1 GROUP BY r.uuid`,
          [group],
        );
        expect(rows).toHaveLength(32);
        expect(rows.every((row) => Number(row.n) === 1)).toBe(true);
      } finally {
        await Promise.all(replicas.map((r) => r.close()));
        await c.close();
      }
    },
  );
});
