// The seeded cloud the console's browser tests look at: 3 racks (aggregates named rack-1..3 with
// metadata rack=<n>; racks 1 and 2 in zone az-1, rack 3 in az-2) of 20 hosts each, a host with two
// NUMA cells, one disabled host (COMPUTE_STATUS_DISABLED), one host ≥ 90 % full, and projects
// near (proj-a: 36 of 40 VCPU), below (proj-b) and at (proj-c: 8 of 8 VCPU) their quota limit,
// and proj-d without limits, filling racks 2 and 3 unevenly (below 90 % on every host).
import { randomUUID } from 'node:crypto';
import type { App } from '../../src/app/app';
import { buildResourceProvider, nameAggregate } from './factories';
import { gql } from './graphql';

export const HOST = { VCPU: 16, MEMORY_MB: 32_768, DISK_GB: 500 };
export const RATIO = { VCPU: 4, MEMORY_MB: 1.5, DISK_GB: 1 };
export const RESERVED = { VCPU: 0, MEMORY_MB: 512, DISK_GB: 0 };
/** A resource class of the seeded hosts. */
export type Rc = keyof typeof HOST;
/** VCPU of the NUMA host's two cells (8 each). */
export const NUMA_VCPU = 16;

/** What the seed made, for tests to compare the pages with. */
export interface ConsoleCloud {
  /** Aggregate uuids of rack-1..3. */
  readonly aggregates: readonly string[];
  /** Host uuids, rack by rack (host-1-00 .. host-3-19). */
  readonly hosts: readonly string[];
  readonly numaHost: string;
  /** host-3-19. */
  readonly disabledHost: string;
  /** host-2-00: 60 of its 64 VCPU used. */
  readonly fullHost: string;
  /** Units allocated per class (kept current by `claim`). */
  readonly used: Record<Rc, number>;
  /** Allocates `resources` on `host` to a new consumer of `projectId`. */
  claim(host: string, projectId: string, resources: Partial<Record<Rc, number>>): Promise<void>;
}

/** Seeds the console's cloud through berth's own API and services. */
export async function seedConsoleCloud(app: App): Promise<ConsoleCloud> {
  const aggregates = [randomUUID(), randomUUID(), randomUUID()];
  const hosts: string[] = [];
  const used: Record<Rc, number> = { VCPU: 0, MEMORY_MB: 0, DISK_GB: 0 };
  const ok = (r: { errors?: unknown }) => {
    if (r.errors) {
      throw new Error(`seed: ${JSON.stringify(r.errors)}`);
    }
  };
  const claim = async (host: string, projectId: string, resources: Partial<Record<Rc, number>>) => {
    const input = {
      consumerUuid: randomUUID(),
      projectId,
      userId: 'u',
      allocations: [
        {
          providerUuid: host,
          resources: Object.entries(resources).map(([resourceClass, amount]) => ({
            resourceClass,
            amount,
          })),
        },
      ],
    };
    ok(
      await gql(
        app,
        'mutation($i: [ConsumerAllocationsInput!]!) { setAllocations(input: $i) { uuid } }',
        { i: [input] },
      ),
    );
    for (const [rc, n] of Object.entries(resources)) {
      used[rc as Rc] += n;
    }
  };
  for (const [i, agg] of aggregates.entries()) {
    await nameAggregate(app.services, agg, `rack-${i + 1}`, {
      rack: String(i + 1),
      availability_zone: i < 2 ? 'az-1' : 'az-2',
    });
    for (let h = 0; h < 20; h++) {
      const disabled = i === 2 && h === 19;
      const rp = await buildResourceProvider(app.services, {
        name: `host-${i + 1}-${String(h).padStart(2, '0')}`,
        aggregates: [agg],
        traits: disabled ? ['COMPUTE_STATUS_DISABLED'] : [],
        inventories: (Object.keys(HOST) as Rc[]).map((rc) => ({
          resourceClass: rc,
          total: HOST[rc],
          reserved: RESERVED[rc],
          allocationRatio: RATIO[rc],
        })),
      });
      hosts.push(rp.uuid);
    }
  }
  const numa = await buildResourceProvider(app.services, { name: 'numa-host' });
  for (const cell of [0, 1]) {
    await buildResourceProvider(app.services, {
      name: `numa-host-cell-${cell}`,
      parentUuid: numa.uuid,
      inventories: [{ resourceClass: 'VCPU', total: NUMA_VCPU / 2 }],
    });
  }
  for (const [projectId, limit] of [
    ['proj-a', 40],
    ['proj-b', 100],
    ['proj-c', 8],
  ] as const) {
    ok(
      await gql(
        app,
        'mutation($i: QuotaLimitsInput!) { setQuotaLimits(input: $i) { projectId } }',
        {
          i: { projectId, limits: [{ resource: 'VCPU', limit }] },
        },
      ),
    );
  }
  for (let i = 0; i < 9; i++) {
    await claim(hosts[i]!, 'proj-a', { VCPU: 4, MEMORY_MB: 4096 }); // 36 of 40: near the limit
  }
  await claim(hosts[30]!, 'proj-b', { VCPU: 2, DISK_GB: 100 });
  await claim(hosts[20]!, 'proj-b', { VCPU: 60 }); // host-2-00: 60 of 64 VCPU, ≥ 90 %
  await claim(hosts[41]!, 'proj-c', { VCPU: 8, MEMORY_MB: 8192 }); // 8 of 8: at the limit
  // proj-d (no limits) fills racks 2 and 3 unevenly, every host below 90 %.
  for (let h = 1; h <= 9; h++) {
    await claim(hosts[20 + h]!, 'proj-d', { MEMORY_MB: 4096 * h, VCPU: 4 * h }); // host-2-01..09
    await claim(hosts[49 + h]!, 'proj-d', { DISK_GB: 40 * h }); // host-3-10..18
  }
  return {
    aggregates,
    hosts,
    numaHost: numa.uuid,
    disabledHost: hosts[59]!,
    fullHost: hosts[20]!,
    used,
    claim,
  };
}
