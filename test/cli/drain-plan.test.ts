// `berth drain-plan` as a real CLI process on a test schema: hosts named or by uuid, the plan as a
// table (exit 0 when every consumer can move, 2 when one cannot) or JSON, --reserve claiming the
// destination as a move, an unknown host refused with exit 1.
import { createTestApp, type TestApp } from '../support/app';
import { QUICK_V8, runBerth } from '../support/cli';
import { schemaUrl } from '../support/db';
import { buildResourceProvider, claim } from '../support/factories';

describe('berth drain-plan', () => {
  let t: TestApp;
  const inventories = [
    { resourceClass: 'VCPU', total: 4 },
    { resourceClass: 'MEMORY_MB', total: 4096 },
  ];

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const berth = (args: string[]) =>
    runBerth(['drain-plan', ...args], { DATABASE_URL: schemaUrl(t.db.schema) }, QUICK_V8);

  it('prints the plan, reserves it, says why a consumer cannot move, refuses an unknown host', async () => {
    const src = await buildResourceProvider(t.app.services, { name: 'cmp-src', inventories });
    const dst = await buildResourceProvider(t.app.services, { name: 'cmp-dst', inventories });
    const small = claim(src.uuid, { VCPU: 1, MEMORY_MB: 1024 });
    await t.app.services.allocations.set([small]);

    const table = await berth(['cmp-src']);
    expect(table.err).toBe('');
    expect(table.code).toBe(0);
    expect(table.out).toMatch(
      new RegExp(`^${small.consumerUuid} +proj +cmp-src +cmp-dst +MEMORY_MB:1024,VCPU:1$`, 'm'),
    );
    expect(table.out).toContain('1 movable, 0 unmovable');

    const json = await berth([src.uuid, '--json']);
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.out);
    expect(plan).toMatchObject({ movable: 1, unmovable: 0, reserved: false, hosts: [src.uuid] });
    expect(plan.moves[0]).toMatchObject({ consumerUuid: small.consumerUuid, to: dst.uuid });
    expect(await t.app.scheduling.moves.find(small.consumerUuid)).toBeNull();

    const reserved = await berth(['cmp-src', '--reserve']);
    expect(reserved.code).toBe(0);
    expect(reserved.out).toContain('destinations reserved as moves');
    expect((await t.app.scheduling.moves.find(small.consumerUuid))?.destinationRootUuid).toBe(
      dst.uuid,
    );

    // Draining the destination: the moving consumer cannot move again until its move ends.
    const other = claim(dst.uuid, { VCPU: 1, MEMORY_MB: 512 });
    await t.app.services.allocations.set([other]);
    const stuck = await berth(['cmp-dst']);
    expect(stuck.code).toBe(2);
    expect(stuck.out).toMatch(
      new RegExp(`^${small.consumerUuid} .* - +A move of this consumer is in progress`, 'm'),
    );
    expect(stuck.out).toMatch(new RegExp(`^${other.consumerUuid} +proj +cmp-dst +cmp-src `, 'm'));
    expect(stuck.out).toContain('1 movable, 1 unmovable');

    const unknown = await berth(['no-such-host']);
    expect(unknown.code).toBe(1);
    expect(unknown.err.trim()).toBe("berth: No host named 'no-such-host'.");
  }, 120000);
});
