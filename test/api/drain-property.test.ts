// Property: drain plans are exact against real placements. Random small clouds (seeded; the seed
// is printed on failure, BERTH_DRAIN_SEED replays one) with consumers placed by `schedule`, some
// in anti-affinity groups, some hosts with a NUMA-like child; 1–2 hosts drained under the default
// profile, each consumer first evaluated against 1, 2 or 100 candidates. Each case on a fresh database:
// (a) the plan never double-books: every planned destination added to the database's usage at
//     once stays within every inventory's capacity, and no destination is a drained host;
// (b) reserved, every movable consumer is moving in the database to exactly the planned host with
//     exactly the planned destination allocations, and no inventory is over capacity;
// (c) a consumer reported unmovable really cannot be placed: explainPlacement of its request,
//     with the drained hosts excluded (a trait they carry, forbidden on the root), on the database
//     after the movable ones were reserved, finds no host;
// (d) anti-affinity members never land with another member.
import { DemoRandom } from '../../src/demo/random';
import { hostsOfConsumers } from '../../src/placement/consumer';
import { type DrainDeps, type DrainMove, planDrain, reserveDrain } from '../../src/planning/drain';
import { createTestApp, type TestApp } from '../support/app';
import { buildResourceProvider } from '../support/factories';

const CASES = Number(process.env.BERTH_DRAIN_CASES ?? 16);
const BASE_SEED = Number(process.env.BERTH_DRAIN_SEED ?? Date.now() % 1_000_000_007);

interface Placed {
  uuid: string;
  group: string | undefined;
  resources: Record<string, number>;
}

interface Cloud {
  hosts: string[];
  placed: Placed[];
  groups: string[];
}

/** Hosts (some with a child holding the VCPU), anti-affinity groups, consumers placed by schedule. */
async function buildCloud(t: TestApp, r: DemoRandom): Promise<Cloud> {
  const hosts: string[] = [];
  for (let i = r.int(3, 6); i > 0; i--) {
    const vcpu = { resourceClass: 'VCPU', total: r.pick([4, 8, 16]) };
    const mem = { resourceClass: 'MEMORY_MB', total: r.pick([4096, 8192, 16384]) };
    if (r.chance(0.3)) {
      const root = await buildResourceProvider(t.app.services, { inventories: [mem] });
      await buildResourceProvider(t.app.services, { parentUuid: root.uuid, inventories: [vcpu] });
      hosts.push(root.uuid);
    } else {
      hosts.push((await buildResourceProvider(t.app.services, { inventories: [vcpu, mem] })).uuid);
    }
  }
  const groups: string[] = [];
  for (let i = r.int(0, 2); i > 0; i--) {
    const g = await t.app.services.serverGroups.create({
      name: `aa${i}`,
      projectId: 'proj',
      userId: 'user',
      policy: 'anti-affinity',
    });
    groups.push(g.uuid);
  }
  const placed: Placed[] = [];
  for (let i = r.int(3, 14); i > 0; i--) {
    const resources = { VCPU: r.pick([1, 2, 4]), MEMORY_MB: r.pick([512, 1024, 2048, 4096]) };
    const group = groups.length > 0 && r.chance(0.4) ? r.pick(groups) : undefined;
    const uuid = r.uuid();
    const out = await t.app.scheduling.service.schedule({
      consumerUuids: [uuid],
      projectId: 'proj',
      userId: 'user',
      request: { groups: [group0(resources)] },
      extraSpecs: {},
      ...(group ? { hints: { group: [group] } } : {}),
    });
    if (out.selections[0]?.hostUuid) {
      placed.push({ uuid, group, resources });
    }
  }
  return { hosts, placed, groups };
}

function group0(resources: Record<string, number>) {
  return {
    suffix: '',
    resources,
    requiredTraits: [],
    forbiddenTraits: [],
    memberOf: [],
    forbiddenAggregates: [],
  };
}

/** provider uuid -> class -> [used, capacity] from the database. */
async function usage(t: TestApp): Promise<Map<string, Map<string, [number, number]>>> {
  const rows: { uuid: string; rc: string; used: string; cap: string }[] =
    await t.app.services.dataSource.query(
      `SELECT p.uuid, rc.name AS rc,
         COALESCE((SELECT sum(a.used) FROM allocations a WHERE a.resource_provider_id = i.resource_provider_id
           AND a.resource_class_id = i.resource_class_id), 0) AS used,
         (i.total - i.reserved) * i.allocation_ratio AS cap
       FROM inventories i JOIN resource_providers p ON p.id = i.resource_provider_id
       JOIN resource_classes rc ON rc.id = i.resource_class_id`,
    );
  const out = new Map<string, Map<string, [number, number]>>();
  for (const row of rows) {
    const m = out.get(row.uuid) ?? new Map();
    m.set(row.rc, [Number(row.used), Number(row.cap)]);
    out.set(row.uuid, m);
  }
  return out;
}

function overCapacity(u: Map<string, Map<string, [number, number]>>): string[] {
  const over: string[] = [];
  for (const [p, m] of u) {
    for (const [rc, [used, cap]] of m) {
      if (used > cap + 1e-9) {
        over.push(`${p} ${rc}: ${used} > ${cap}`);
      }
    }
  }
  return over;
}

/** "provider:class=n" sorted, for comparing allocation lists. */
function flat(
  list: readonly { providerUuid: string; resources: Record<string, number> }[],
): string[] {
  return list
    .flatMap((a) => Object.entries(a.resources).map(([rc, n]) => `${a.providerUuid}:${rc}=${n}`))
    .sort();
}

/** (d): members' final hosts never coincide (moved ones at their destination, others where they run). */
async function checkAntiAffinity(t: TestApp, cloud: Cloud, moves: readonly DrainMove[]) {
  const where = await hostsOfConsumers(
    t.app.services.dataSource,
    cloud.placed.map((p) => p.uuid),
  );
  const movedTo = new Map(moves.filter((m) => m.to).map((m) => [m.consumerUuid, m.to!]));
  for (const g of cloud.groups) {
    const members = cloud.placed.filter((p) => p.group === g);
    // A member moving (reserved) holds source and destination: count each member's final host once.
    const onePerMember = members.map((m) =>
      movedTo.has(m.uuid) ? movedTo.get(m.uuid)! : (where.get(m.uuid) ?? [])[0],
    );
    expect(new Set(onePerMember).size).toBe(onePerMember.length);
  }
}

describe('drain plans are exact against real placements (property)', () => {
  for (let n = 0; n < CASES; n++) {
    const seed = BASE_SEED + n;
    it(`case ${n} (seed ${seed})`, async () => {
      const t = await createTestApp();
      try {
        await runCase(t, seed);
      } catch (err) {
        (err as Error).message =
          `drain property, seed ${seed} (BERTH_DRAIN_SEED=${seed} BERTH_DRAIN_CASES=1 replays it): ${(err as Error).message}`;
        throw err;
      } finally {
        await t.close();
      }
    });
  }
});

async function runCase(t: TestApp, seed: number): Promise<void> {
  const r = new DemoRandom(seed);
  const cloud = await buildCloud(t, r);
  const drained = r.sample(cloud.hosts, r.int(1, 2));
  // A small first look (1 or 2 candidates) makes every "cannot move" take the look at every host.
  const candidateLimit = r.pick([1, 2, 100]);
  const deps: DrainDeps = {
    ds: t.app.services.dataSource,
    providers: t.app.services.providers,
    planning: t.app.scheduling.planning,
    pipelineFor: (profile) => t.app.scheduling.pipelines.pipelineFor(profile),
    claims: t.app.scheduling.moves,
  };

  // (a) the plan, applied at once on the database's numbers.
  const before = await usage(t);
  const plan = await planDrain(deps, { hosts: drained, candidateLimit });
  const where = await hostsOfConsumers(
    t.app.services.dataSource,
    cloud.placed.map((p) => p.uuid),
  );
  const onDrained = cloud.placed.filter((p) =>
    (where.get(p.uuid) ?? []).some((h) => drained.includes(h)),
  );
  expect(plan.moves.map((m) => m.consumerUuid).sort()).toEqual(onDrained.map((p) => p.uuid).sort());
  const after = structuredClone(before);
  for (const m of plan.moves) {
    if (m.to === null) {
      expect(m.reason).toMatch(/^No valid host/);
      continue;
    }
    expect(drained).not.toContain(m.to);
    for (const a of m.allocations) {
      for (const [rc, amount] of Object.entries(a.resources)) {
        const cell = after.get(a.providerUuid)?.get(rc);
        expect(cell).toBeDefined();
        cell![0] += amount;
      }
    }
  }
  expect(overCapacity(after)).toEqual([]);
  expect(await usage(t)).toEqual(before); // the plan wrote nothing
  await checkAntiAffinity(t, cloud, plan.moves);

  // (b) reserved: each movable consumer moves to exactly the planned destination.
  const reserved = await reserveDrain(deps, { hosts: drained, candidateLimit });
  expect(reserved.reserved).toBe(true);
  for (const m of reserved.moves) {
    const move = await t.app.scheduling.moves.find(m.consumerUuid);
    if (m.to === null) {
      expect(move).toBeNull();
      continue;
    }
    expect(move?.destinationRootUuid).toBe(m.to);
    expect(flat(move!.destination as never)).toEqual(flat(m.allocations as never));
  }
  expect(overCapacity(await usage(t))).toEqual([]);
  await checkAntiAffinity(t, cloud, reserved.moves);

  // (c) unmovable ones really fit nowhere outside the drained hosts, after the reservation.
  const unmovable = reserved.moves.filter((m) => m.to === null);
  if (unmovable.length === 0) {
    return;
  }
  await t.app.services.traits.create('CUSTOM_DRAINING').catch(() => undefined);
  for (const h of drained) {
    const rp = await t.app.services.providers.get(h);
    await t.app.services.providerTraits.set(h, rp!.generation, ['CUSTOM_DRAINING']);
  }
  for (const m of unmovable) {
    const p = cloud.placed.find((x) => x.uuid === m.consumerUuid)!;
    const out = await t.app.scheduling.service.explain({
      consumerUuids: [p.uuid],
      projectId: 'proj',
      userId: 'user',
      request: { groups: [group0(p.resources)], rootForbidden: ['CUSTOM_DRAINING'] },
      extraSpecs: {},
      ...(p.group ? { hints: { group: [p.group] } } : {}),
    });
    expect(out.selections[0]?.hostUuid ?? null).toBeNull();
  }
}
