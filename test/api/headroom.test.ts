// headroom / planningFlavors over GraphQL: roles (a reader counts, a member may not), bad input
// answers berth.headroom.* and the engine's codes, the configured planning flavors (and Nova's
// m1.* set by default), and the counts of a small cloud: cloud-wide, per aggregate, per zone and
// per host, with what runs out first — a filter (NumInstancesFilter) and the engine's classes.
import type { Role } from '../../src/auth/roles';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider, claim, nameAggregate } from '../support/factories';
import { firstError, gql } from '../support/graphql';

const HEADROOM = `query H($input: HeadroomInput!) {
  headroom(input: $input) {
    profile packing hosts durationMs
    flavors {
      name count independentCount hosts hostsWithRoom runsOutFirst limits { by hosts }
      groups { key name count independentCount hosts hostsWithRoom runsOutFirst limits { by hosts } }
    }
  }
}`;
const FLAVORS = `{ planningFlavors { name resources { resourceClass amount } required } }`;

const flavor = (name: string, resources: Record<string, number>, required: string[] = []) => ({
  name,
  request: {
    groups: [
      {
        suffix: '',
        resources: Object.entries(resources).map(([resourceClass, amount]) => ({
          resourceClass,
          amount,
        })),
        ...(required.length > 0 ? { required } : {}),
      },
    ],
  },
});

describe('headroom', () => {
  describe('roles and input', () => {
    let t: TestApp;
    const tokens = {} as Record<Role, string>;
    const as = (role: Role) => ({ authorization: `Bearer ${tokens[role]}` });

    beforeAll(async () => {
      t = await createTestApp({
        BERTH_AUTH: 'on',
        BERTH_PLANNING_FLAVORS: JSON.stringify([
          { name: 'small', resources: { VCPU: 1, MEMORY_MB: 1024 } },
          { name: 'gpu', resources: { VCPU: 4, CUSTOM_GPU: 1 }, required: ['CUSTOM_FAST'] },
        ]),
      });
      for (const role of ['member', 'reader'] as Role[]) {
        tokens[role] = (
          await t.app.tokens.create({ role, ...(role === 'member' ? { project: 'p' } : {}) })
        ).token;
      }
      await buildResourceProvider(t.app.services, {
        inventories: [
          { resourceClass: 'VCPU', total: 4 },
          { resourceClass: 'MEMORY_MB', total: 4096 },
        ],
      });
    });
    afterAll(async () => {
      await t.close();
    });

    it('answers a reader and refuses a member', async () => {
      const ok = await gql(t.app, HEADROOM, { input: {} }, as('reader'));
      expect(ok.errors).toBeUndefined();
      expect(ok.data.headroom.flavors.map((f: { name: string }) => f.name)).toEqual([
        'small',
        'gpu',
      ]);
      expect(ok.data.headroom.flavors[0].count).toBe(4);
      // No provider has CUSTOM_GPU: no host takes it, and the answer says why.
      expect(ok.data.headroom.flavors[1]).toMatchObject({
        count: 0,
        runsOutFirst: 'berth.resource_class.not_found',
      });
      const refused = await gql(t.app, HEADROOM, { input: {} }, as('member'));
      expect(firstError(refused)?.code).toBe('berth.forbidden');
    });

    it('lists the configured planning flavors', async () => {
      const r = await gql(t.app, FLAVORS, {}, as('reader'));
      expect(r.data.planningFlavors).toEqual([
        {
          name: 'small',
          resources: [
            { resourceClass: 'VCPU', amount: 1 },
            { resourceClass: 'MEMORY_MB', amount: 1024 },
          ],
          required: [],
        },
        {
          name: 'gpu',
          resources: [
            { resourceClass: 'VCPU', amount: 4 },
            { resourceClass: 'CUSTOM_GPU', amount: 1 },
          ],
          required: ['CUSTOM_FAST'],
        },
      ]);
    });

    it.each([
      ['no flavor', { flavors: [] }, 'berth.headroom.flavor_count'],
      [
        'more than 50 flavors',
        { flavors: Array.from({ length: 51 }, (_, i) => flavor(`f${i}`, { VCPU: 1 })) },
        'berth.headroom.flavor_count',
      ],
      [
        'two flavors of one name',
        { flavors: [flavor('a', { VCPU: 1 }), flavor('a', { VCPU: 2 })] },
        'berth.headroom.duplicate_flavor',
      ],
      ['an unknown profile', { profile: 'nope' }, 'berth.scheduler.unknown_profile'],
      ['an amount below 1', { flavors: [flavor('a', { VCPU: 0 })] }, 'berth.invalid_input'],
      [
        'a malformed trait',
        { flavors: [flavor('a', { VCPU: 1 }, ['in:'])] },
        'berth.invalid_input',
      ],
    ])('refuses %s with its code', async (_what, input, code) => {
      const r = await gql(t.app, HEADROOM, { input }, as('reader'));
      expect(firstError(r)).toMatchObject({ code, status: 400 });
    });
  });

  it("answers Nova's m1.* flavors when none is configured", async () => {
    const t = await createTestApp();
    try {
      const r = await gql(t.app, FLAVORS);
      expect(r.data.planningFlavors.map((f: { name: string }) => f.name)).toEqual([
        'm1.tiny',
        'm1.small',
        'm1.medium',
        'm1.large',
        'm1.xlarge',
      ]);
      expect(r.data.planningFlavors[3].resources).toEqual([
        { resourceClass: 'VCPU', amount: 4 },
        { resourceClass: 'MEMORY_MB', amount: 8192 },
        { resourceClass: 'DISK_GB', amount: 80 },
      ]);
    } finally {
      await t.close();
    }
  });

  describe('a small cloud', () => {
    let t: TestApp;
    const AGG = '11111111-1111-4111-8111-111111111111';
    let hosts: string[];

    beforeAll(async () => {
      t = await createTestApp({
        BERTH_SCHEDULER_FILTERS: 'AvailabilityZoneFilter,ComputeFilter,NumInstancesFilter',
        BERTH_SCHEDULER_CONFIG: JSON.stringify({ NumInstancesFilter: { maxInstancesPerHost: 3 } }),
      });
      const inv = (vcpu: number, ram: number) => [
        { resourceClass: 'VCPU', total: vcpu },
        { resourceClass: 'MEMORY_MB', total: ram },
      ];
      // h1: 16 VCPU, 8 GB; h2: 4 VCPU, 64 GB, one instance already; h3: disabled.
      const h1 = await buildResourceProvider(t.app.services, {
        name: 'h1',
        inventories: inv(16, 8192),
        aggregates: [AGG],
      });
      const h2 = await buildResourceProvider(t.app.services, {
        name: 'h2',
        inventories: inv(4, 65536),
        aggregates: [AGG],
      });
      const h3 = await buildResourceProvider(t.app.services, {
        name: 'h3',
        inventories: inv(64, 65536),
        traits: ['COMPUTE_STATUS_DISABLED'],
      });
      hosts = [h1.uuid, h2.uuid, h3.uuid];
      await nameAggregate(t.app.services, AGG, 'rack-1', { availability_zone: 'az1' });
      await t.app.services.allocations.set([claim(h2.uuid, { VCPU: 1, MEMORY_MB: 1024 })]);
    });
    afterAll(async () => {
      await t.close();
    });

    it('counts per flavor, per group, with what ends each host', async () => {
      const r = await gql(t.app, HEADROOM, {
        input: {
          flavors: [
            flavor('small', { VCPU: 1, MEMORY_MB: 2048 }),
            flavor('big', { VCPU: 4, MEMORY_MB: 4096 }),
          ],
          groupBy: 'ROOT',
        },
      });
      expect(r.errors).toBeUndefined();
      const h = r.data.headroom;
      expect(h.hosts).toBe(3);
      expect(h.profile).toBe('default');
      const [small, big] = h.flavors;
      // h1: 4 by MEMORY_MB, capped at 3 instances; h2: 3 VCPU left, 2 more instances allowed.
      expect(small).toMatchObject({ count: 5, independentCount: 5, hosts: 3, hostsWithRoom: 2 });
      expect(small.limits).toEqual([
        { by: 'num_instances.too_many', hosts: 2 },
        { by: 'candidate.root.forbidden', hosts: 1 },
      ]);
      expect(small.runsOutFirst).toBe('num_instances.too_many');
      const perHost = Object.fromEntries(
        small.groups.map((g: { key: string; count: number }) => [g.key, g.count]),
      );
      expect(perHost).toEqual({ [hosts[0]!]: 3, [hosts[1]!]: 2, [hosts[2]!]: 0 });
      // big: h1 2 by MEMORY_MB, h2 none (3 VCPU free).
      expect(big).toMatchObject({ count: 2, hostsWithRoom: 1, runsOutFirst: 'MEMORY_MB' });
      expect(big.limits).toEqual([
        { by: 'MEMORY_MB', hosts: 1 },
        { by: 'VCPU', hosts: 1 },
        { by: 'candidate.root.forbidden', hosts: 1 },
      ]);
    });

    it('groups by aggregate and by zone', async () => {
      const input = { flavors: [flavor('small', { VCPU: 1, MEMORY_MB: 2048 })] };
      const byAgg = await gql(t.app, HEADROOM, { input: { ...input, groupBy: 'AGGREGATE' } });
      expect(byAgg.data.headroom.flavors[0].groups).toEqual([
        expect.objectContaining({ key: AGG, name: 'rack-1', count: 5, hosts: 2 }),
      ]);
      const byZone = await gql(t.app, HEADROOM, { input: { ...input, groupBy: 'ZONE' } });
      expect(
        byZone.data.headroom.flavors[0].groups.map(
          (g: { key: string; count: number; hosts: number }) => [g.key, g.count, g.hosts],
        ),
      ).toEqual([
        ['az1', 5, 2],
        ['nova', 0, 1],
      ]);
      const inZone = await gql(t.app, HEADROOM, {
        input: { flavors: [{ ...input.flavors[0], availabilityZone: 'nova' }] },
      });
      expect(inZone.data.headroom.flavors[0].count).toBe(0);
    });
  });
});
