// The demo cloud's description (src/demo/): the same seed gives the same cloud and another seed
// another one; its shape is what `berth demo` promises; every project's boot requests fit its
// quota limits; and the domain code imports nothing but itself (no GraphQL, no HTTP).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDemoCloud, DEFAULT_SEED, instanceCount } from '../../../src/demo/cloud';
import { DemoRandom } from '../../../src/demo/random';

describe('demo cloud', () => {
  it('is the same for the same seed and differs for another', () => {
    expect(buildDemoCloud(DEFAULT_SEED)).toEqual(buildDemoCloud(DEFAULT_SEED));
    const other = buildDemoCloud(DEFAULT_SEED + 1);
    expect(other.providers[0]!.uuid).not.toBe(buildDemoCloud().providers[0]!.uuid);
    // Names do not depend on the seed: the marker finds a demo cloud made with any seed.
    expect(other.marker).toBe(buildDemoCloud().marker);
  });

  it('has zones, 40 to 60 hosts with children, a shared pool, disabled hosts, a few hundred instances', () => {
    const cloud = buildDemoCloud();
    const zones = cloud.aggregates.filter((a) => a.metadata.availability_zone);
    expect(zones.length).toBeGreaterThanOrEqual(3);
    const keys = new Set(cloud.aggregates.flatMap((a) => Object.keys(a.metadata)));
    expect([...keys]).toEqual(
      expect.arrayContaining(['availability_zone', 'filter_tenant_id', 'cpu_weight_multiplier']),
    );
    expect(cloud.hostCount).toBeGreaterThanOrEqual(40);
    expect(cloud.hostCount).toBeLessThanOrEqual(60);
    const byUuid = new Map(cloud.providers.map((p) => [p.uuid, p]));
    const children = cloud.providers.filter((p) => p.parentUuid);
    for (const c of children) {
      // Parents are created first.
      expect(cloud.providers.indexOf(byUuid.get(c.parentUuid!)!)).toBeLessThan(
        cloud.providers.indexOf(c),
      );
    }
    expect(children.filter((c) => c.traits.includes('HW_NUMA_ROOT')).length).toBeGreaterThan(0);
    expect(
      children.filter((c) => c.inventories.some((i) => i.resourceClass === 'VGPU')).length,
    ).toBeGreaterThan(0);
    expect(
      children.filter((c) => c.inventories.some((i) => i.resourceClass.startsWith('CUSTOM_')))
        .length,
    ).toBeGreaterThan(0);
    const pool = cloud.providers.find((p) => p.traits.includes('MISC_SHARES_VIA_AGGREGATE'))!;
    expect(pool.inventories.map((i) => i.resourceClass)).toEqual(['DISK_GB']);
    const sharing = cloud.providers.filter(
      (p) => p !== pool && p.aggregates.some((a) => pool.aggregates.includes(a)),
    );
    expect(sharing.length).toBeGreaterThan(0);
    expect(cloud.disabledHosts.length).toBeGreaterThan(0);
    for (const name of cloud.disabledHosts) {
      expect(cloud.providers.find((p) => p.name === name)!.traits).toContain(
        'COMPUTE_STATUS_DISABLED',
      );
    }
    expect(instanceCount(cloud)).toBeGreaterThanOrEqual(200);
    expect(instanceCount(cloud)).toBeLessThanOrEqual(500);
    expect(new Set(cloud.serverGroups.map((g) => g.policy))).toEqual(
      new Set(['AFFINITY', 'ANTI_AFFINITY', 'SOFT_ANTI_AFFINITY']),
    );
    const names = cloud.providers.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each([1, 7, DEFAULT_SEED, 123456789])(
    'keeps every project within its quota limits (seed %s)',
    (seed) => {
      const cloud = buildDemoCloud(seed);
      for (const project of cloud.projects) {
        const used: Record<string, number> = { INSTANCES: 0 };
        for (const b of cloud.boots.filter((x) => x.projectId === project.id)) {
          used.INSTANCES! += b.consumerUuids.length;
          for (const [rc, n] of Object.entries(b.flavor.resources)) {
            used[rc] = (used[rc] ?? 0) + n * b.consumerUuids.length;
          }
        }
        for (const [resource, limit] of Object.entries(project.limits)) {
          expect({ project: project.id, resource, fits: (used[resource] ?? 0) <= limit }).toEqual({
            project: project.id,
            resource,
            fits: true,
          });
        }
      }
    },
  );

  it('draws uuids of version 4 layout from the seed', () => {
    const a = new DemoRandom(5);
    const b = new DemoRandom(5);
    const u = a.uuid();
    expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.uuid()).toBe(u);
  });

  it('imports nothing outside src/demo but the seeded generator (no GraphQL, no HTTP, no client)', () => {
    const dir = path.resolve(__dirname, '../../../src/demo');
    for (const file of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const specs = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      for (const spec of specs) {
        const local = spec.startsWith('./') || spec === '../lib/seeded-random';
        expect({ file, spec, local }).toEqual({ file, spec, local: true });
      }
    }
  });
});
