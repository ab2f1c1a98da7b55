// drainPlan / reserveDrainPlan over GraphQL: roles (reader plans, service reserves), bad hosts
// answer berth.drain.* codes, a plan writes nothing, a reservation claims each destination as a
// move (confirmMove ends it), anti-affinity members never share a destination, and a consumer
// that fits nowhere says why with the candidate stage.
import { randomUUID } from 'node:crypto';
import type { Role } from '../../src/auth/roles';
import { type DrainDeps, reserveDrain } from '../../src/planning/drain';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const PLAN = `query P($input: DrainPlanInput!) {
  drainPlan(input: $input) {
    hosts { uuid } movable unmovable reserved durationMs
    moves {
      consumerUuid projectId from { uuid } to { uuid } reason weight
      allocations { provider { uuid } resources { resourceClass amount } }
      candidateStage { hostsWithCandidates summary }
    }
  }
}`;
const RESERVE = `mutation R($input: DrainPlanInput!) {
  reserveDrainPlan(input: $input) {
    movable unmovable reserved
    moves { consumerUuid to { uuid } reason allocations { provider { uuid } resources { resourceClass amount } } }
  }
}`;
const CONFIRM = `mutation M($input: EndMoveInput!) { confirmMove(input: $input) { uuid } }`;

interface Move {
  consumerUuid: string;
  to: { uuid: string } | null;
  reason: string | null;
  allocations: {
    provider: { uuid: string };
    resources: { resourceClass: string; amount: number }[];
  }[];
  candidateStage?: { hostsWithCandidates: number; summary: string } | null;
}

describe('drainPlan / reserveDrainPlan', () => {
  let t: TestApp;
  const tokens = {} as Record<Role, string>;

  // Each case on a cloud of its own: a plan looks at every host.
  beforeEach(async () => {
    t = await createTestApp({ BERTH_AUTH: 'on' });
    for (const role of ['member', 'reader', 'scheduler', 'service'] as Role[]) {
      tokens[role] = (
        await t.app.tokens.create({ role, ...(role === 'member' ? { project: 'proj' } : {}) })
      ).token;
    }
  });
  afterEach(async () => {
    await t.close();
  });

  const as = (role: Role) => ({ authorization: `Bearer ${tokens[role]}` });

  /** A source host with `consumers` consumers of 2 VCPU / 1024 MB, and `others` empty hosts. */
  async function cloud(consumers: number, others: number, vcpu = 8) {
    const inventories = [
      { resourceClass: 'VCPU', total: vcpu },
      { resourceClass: 'MEMORY_MB', total: 8192 },
    ];
    const source = await buildResourceProvider(t.app.services, { inventories });
    const dests = [];
    for (let i = 0; i < others; i++) {
      dests.push((await buildResourceProvider(t.app.services, { inventories })).uuid);
    }
    const uuids: string[] = [];
    for (let i = 0; i < consumers; i++) {
      const c = claim(source.uuid, { VCPU: 2, MEMORY_MB: 1024 });
      await t.app.services.allocations.set([c]);
      uuids.push(c.consumerUuid);
    }
    return { source: source.uuid, dests, consumers: uuids };
  }

  /** Every allocation row of the database, as text (to see that nothing was written). */
  async function allRows(): Promise<string> {
    const rows = await t.app.services.dataSource.query(
      `SELECT consumer_id, resource_provider_id, resource_class_id, used FROM allocations
       ORDER BY 1, 2, 3`,
    );
    const moves = await t.app.services.dataSource.query(
      'SELECT consumer_id FROM consumer_moves ORDER BY 1',
    );
    return JSON.stringify([rows, moves]);
  }

  it('a member may not plan, a reader plans and may not reserve, the service reserves', async () => {
    const c = await cloud(1, 1);
    const input = { hosts: [c.source] };
    expect(firstError(await gql(t.app, PLAN, { input }, as('member')))?.code).toBe(
      'berth.forbidden',
    );
    const plan = await gql(t.app, PLAN, { input }, as('reader'));
    expect(plan.errors).toBeUndefined();
    expect(plan.data.drainPlan.movable).toBe(1);
    expect(plan.data.drainPlan.moves[0].to.uuid).toBe(c.dests[0]);
    for (const role of ['reader', 'scheduler'] as Role[]) {
      expect(firstError(await gql(t.app, RESERVE, { input }, as(role)))?.code).toBe(
        'berth.forbidden',
      );
    }
    const reserved = await gql(t.app, RESERVE, { input }, as('service'));
    expect(reserved.errors).toBeUndefined();
    expect(reserved.data.reserveDrainPlan).toMatchObject({ movable: 1, reserved: true });
    const move = await t.app.scheduling.moves.find(c.consumers[0]!);
    expect(move?.destinationRootUuid).toBe(c.dests[0]);
  });

  it('reserves the move of a consumer written without a type, and it stays untyped', async () => {
    const c = await cloud(0, 1);
    const { consumerType: _typed, ...untyped } = claim(c.source, { VCPU: 2, MEMORY_MB: 1024 });
    await t.app.services.allocations.set([untyped]);
    const reserved = await gql(t.app, RESERVE, { input: { hosts: [c.source] } }, as('service'));
    expect(reserved.errors).toBeUndefined();
    expect(reserved.data.reserveDrainPlan).toMatchObject({ movable: 1, reserved: true });
    const move = await t.app.scheduling.moves.find(untyped.consumerUuid);
    expect(move?.destinationRootUuid).toBe(c.dests[0]);
    const [row] = await t.app.services.dataSource.query(
      'SELECT consumer_type_id FROM consumers WHERE uuid = $1',
      [untyped.consumerUuid],
    );
    expect(row.consumer_type_id).toBeNull();
  });

  it('answers berth.drain.* codes for no host, too many, an unknown one and a child provider', async () => {
    const c = await cloud(0, 0);
    const child = await buildResourceProvider(t.app.services, { parentUuid: c.source });
    const cases: [string[], string][] = [
      [[], 'berth.drain.no_hosts'],
      [Array.from({ length: 101 }, () => randomUUID()), 'berth.drain.too_many_hosts'],
      [[randomUUID()], 'berth.drain.unknown_host'],
      [[child.uuid], 'berth.drain.not_a_host'],
      [['not-a-uuid'], 'berth.invalid_uuid'],
    ];
    for (const [hosts, code] of cases) {
      const r = await gql(t.app, PLAN, { input: { hosts } }, as('reader'));
      expect(firstError(r)).toMatchObject({ code, status: 400 });
    }
    const zero = { hosts: [c.source], candidateLimit: 0 };
    expect(firstError(await gql(t.app, PLAN, { input: zero }, as('reader')))?.code).toBe(
      'berth.invalid_input',
    );
    const r = await gql(
      t.app,
      PLAN,
      { input: { hosts: [c.source], profile: 'nope' } },
      as('reader'),
    );
    expect(firstError(r)?.code).toBe('berth.scheduler.unknown_profile');
  });

  it('a plan writes nothing and books no destination twice', async () => {
    // 4 consumers of 2 VCPU; two destinations of 8 VCPU with 6 already used: one consumer each.
    const c = await cloud(4, 2);
    for (const d of c.dests) {
      await t.app.services.allocations.set([claim(d, { VCPU: 6, MEMORY_MB: 1024 })]);
    }
    const before = await allRows();
    const r = await gql(t.app, PLAN, { input: { hosts: [c.source] } }, as('reader'));
    expect(r.errors).toBeUndefined();
    expect(await allRows()).toBe(before);
    const moves: Move[] = r.data.drainPlan.moves;
    expect(r.data.drainPlan).toMatchObject({ movable: 2, unmovable: 2, reserved: false });
    expect(new Set(moves.filter((m) => m.to).map((m) => m.to!.uuid))).toEqual(new Set(c.dests));
    for (const m of moves.filter((x) => !x.to)) {
      expect(m.reason).toMatch(/^No valid host/);
      expect(m.allocations).toEqual([]);
    }
    // The drained host is never a destination, though its own consumers were released from it.
    expect(moves.every((m) => m.to?.uuid !== c.source)).toBe(true);
  });

  it('a consumer that fits nowhere gets the candidate stage; reserve claims the others and confirmMove ends them', async () => {
    const c = await cloud(2, 1);
    const huge = claim(c.source, { VCPU: 2, MEMORY_MB: 6000 });
    await t.app.services.allocations.set([huge]);
    await t.app.services.allocations.set([claim(c.dests[0]!, { VCPU: 1, MEMORY_MB: 4000 })]);
    const r = await gql(t.app, PLAN, { input: { hosts: [c.source] } }, as('reader'));
    const moves: Move[] = r.data.drainPlan.moves;
    // Largest first: the 6000 MB consumer is planned first and fits nowhere (4192 MB free).
    expect(moves[0]!.consumerUuid).toBe(huge.consumerUuid);
    expect(moves[0]!.to).toBeNull();
    expect(moves[0]!.reason).toMatch(/^No valid host/);
    expect(moves[0]!.candidateStage?.hostsWithCandidates).toBe(0);
    expect(moves.slice(1).every((m) => m.to?.uuid === c.dests[0])).toBe(true);

    const reserved = await gql(t.app, RESERVE, { input: { hosts: [c.source] } }, as('service'));
    expect(reserved.errors).toBeUndefined();
    expect(reserved.data.reserveDrainPlan).toMatchObject({ movable: 2, unmovable: 1 });
    for (const uuid of c.consumers) {
      const move = await t.app.scheduling.moves.find(uuid);
      expect(move?.destinationRootUuid).toBe(c.dests[0]);
      const done = await gql(t.app, CONFIRM, { input: { consumerUuid: uuid } }, as('service'));
      expect(done.errors).toBeUndefined();
    }
    // Planned again: the moved consumers now run on the destination only; the huge one stays.
    const again = await gql(t.app, PLAN, { input: { hosts: [c.source] } }, as('reader'));
    expect(again.data.drainPlan.moves.map((m: Move) => m.consumerUuid)).toEqual([
      huge.consumerUuid,
    ]);
  });

  it('anti-affinity members get different destinations, away from other members', async () => {
    const c = await cloud(3, 4);
    const group = await t.app.services.serverGroups.create({
      name: 'aa',
      projectId: 'proj',
      userId: 'user',
      policy: 'anti-affinity',
    });
    // A fourth member already runs on the first destination.
    const outside = claim(c.dests[0]!, { VCPU: 1, MEMORY_MB: 512 });
    await t.app.services.allocations.set([outside]);
    await t.app.services.serverGroups.addMembers(group.uuid, [
      ...c.consumers,
      outside.consumerUuid,
    ]);
    // One candidate at first: where it is the member's host, every host is looked at again.
    const input = { hosts: [c.source], candidateLimit: 1 };
    const r = await gql(t.app, PLAN, { input }, as('reader'));
    const moves: Move[] = r.data.drainPlan.moves;
    const to = moves.map((m) => m.to?.uuid);
    expect(to.every((h) => h !== undefined)).toBe(true);
    expect(new Set(to).size).toBe(3);
    expect(to).not.toContain(c.dests[0]);
  });

  it('a consumer deleted between the plan and its claim is reported, and no consumer is made for it', async () => {
    const c = await cloud(1, 1);
    const [uuid] = c.consumers;
    const claims = t.app.scheduling.moves;
    const deps: DrainDeps = {
      ds: t.app.services.dataSource,
      providers: t.app.services.providers,
      planning: t.app.scheduling.planning,
      pipelineFor: (profile) => t.app.scheduling.pipelines.pipelineFor(profile),
      claims: {
        // Nova deleted the instance right after the plan was made.
        claim: async (input) => {
          await t.app.services.allocations.deleteForConsumer(input.consumerUuid).catch(() => {});
          return claims.claim(input);
        },
        undo: (claimed) => claims.undo(claimed),
      },
    };
    const plan = await reserveDrain(deps, { hosts: [c.source] });
    expect(plan.moves).toHaveLength(1);
    expect(plan.moves[0]).toMatchObject({ consumerUuid: uuid, to: null });
    expect(plan.moves[0]!.reason).toMatch(/no longer holds allocations/);
    expect(await t.app.services.allocations.findConsumer(uuid!)).toBeNull();
    expect(await t.app.scheduling.moves.find(uuid!)).toBeNull();
  });
});
