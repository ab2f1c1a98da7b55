// `berth headroom` as a real CLI process on a test schema: the planning flavors by default, given
// flavors with a required trait, groups per aggregate as a table and as JSON, and bad input
// (a malformed --flavor, an unknown profile) refused with exit 1 and one line.
import { createTestApp, type TestApp } from '../support/app';
import { QUICK_V8, runBerth } from '../support/cli';
import { schemaUrl } from '../support/db';
import { buildResourceProvider, nameAggregate } from '../support/factories';

describe('berth headroom', () => {
  let t: TestApp;
  const AGG = '22222222-2222-4222-8222-222222222222';

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.services.traits.create('CUSTOM_FAST');
    const inventories = (vcpu: number) => [
      { resourceClass: 'VCPU', total: vcpu },
      { resourceClass: 'MEMORY_MB', total: 16384 },
      { resourceClass: 'DISK_GB', total: 200 },
    ];
    await buildResourceProvider(t.app.services, {
      name: 'cmp-1',
      inventories: inventories(8),
      traits: ['CUSTOM_FAST'],
      aggregates: [AGG],
    });
    await buildResourceProvider(t.app.services, { name: 'cmp-2', inventories: inventories(2) });
    await nameAggregate(t.app.services, AGG, 'rack-a');
  });
  afterAll(async () => {
    await t.close();
  });

  const berth = (args: string[]) =>
    runBerth(['headroom', ...args], { DATABASE_URL: schemaUrl(t.db.schema) }, QUICK_V8);

  it('counts the planning flavors, given flavors, per aggregate, and refuses bad input', async () => {
    const table = await berth([]);
    expect(table.err).toBe('');
    expect(table.code).toBe(0);
    expect(table.out).toContain('profile default, 2 hosts');
    // m1.large (4 VCPU, 8 GB, 80 GB): cmp-1 takes 2 (VCPU first of the classes that end it),
    // cmp-2 none (2 VCPU).
    expect(table.out).toMatch(/^m1\.large +2 +2 +1 +2 +VCPU$/m);
    // m1.tiny: cmp-1 8 (VCPU), cmp-2 2 (VCPU).
    expect(table.out).toMatch(/^m1\.tiny +10 +10 +2 +2 +VCPU$/m);

    const fast = await berth([
      '--flavor',
      'fast=VCPU:1,MEMORY_MB:1024,required=CUSTOM_FAST',
      '--flavor',
      'plain=VCPU:2,MEMORY_MB:1024',
      '--group-by',
      'aggregate',
    ]);
    expect(fast.code).toBe(0);
    expect(fast.out).toMatch(/^fast +8 +8 +1 +2 +VCPU$/m);
    expect(fast.out).toMatch(/^plain +5 +5 +2 +2 +VCPU$/m);
    expect(fast.out).toMatch(new RegExp(`^${AGG} +rack-a +8 +8 +1 +1 +VCPU$`, 'm'));

    const json = await berth(['--flavor', 'plain=VCPU:2', '--group-by', 'root', '--json']);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.out);
    expect(answer.flavors[0]).toMatchObject({ name: 'plain', count: 5, hosts: 2 });
    expect(
      answer.flavors[0].groups.map((g: { name: string; count: number }) => [g.name, g.count]),
    ).toEqual([
      ['cmp-1', 4],
      ['cmp-2', 1],
    ]);

    const bad = await berth(['--flavor', 'oops=VCPU']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("'VCPU' is not CLASS:n");
    const profile = await berth(['--profile', 'nope']);
    expect(profile.code).toBe(1);
    expect(profile.err.trim()).toMatch(/^berth: Unknown scheduler profile "nope"/);
  }, 120000);
});
