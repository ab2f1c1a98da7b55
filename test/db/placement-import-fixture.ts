// The Placement database the `berth import placement` tests start from: nested trees, a sharing
// provider in an aggregate, custom classes and traits, consumers of several types, a consumer
// with doubled allocations from a move, an over-committed inventory and an incomplete consumer.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { berthConsumers, berthProviders } from '../../src/import/placement/berth-state';
import { consumerDifferences, providerDifferences } from '../../src/import/placement/plan';
import type { PlacementSnapshot } from '../../src/import/placement/read-placement';
import type {
  FixtureConsumer,
  FixtureProvider,
  PlacementFixture,
} from '../support/placement-source';

/** A filled fixture whose names carry `prefix` (unique per test). */
export function richFixture(prefix: string) {
  const u = () => randomUUID();
  const p = {
    cn1: u(),
    numa0: u(),
    numa1: u(),
    pf: u(),
    cn2: u(),
    shared: u(),
  };
  const agg = u();
  const c = { inst: u(), moved: u(), mig: u(), untyped: u() };
  const fixture: PlacementFixture = {
    providers: [
      {
        uuid: p.cn1,
        name: `${prefix}-cn1`,
        generation: 7,
        traits: ['HW_CPU_X86_AVX2', 'CUSTOM_RACK_A'],
        aggregates: [agg],
        inventories: { DISK_GB: { total: 100, reserved: 10 } },
      },
      {
        uuid: p.numa0,
        name: `${prefix}-cn1-numa0`,
        parent: p.cn1,
        generation: 4,
        inventories: {
          VCPU: { total: 8, allocationRatio: 4 },
          MEMORY_MB: { total: 16384, reserved: 512, stepSize: 256, maxUnit: 8192 },
        },
      },
      {
        uuid: p.numa1,
        name: `${prefix}-cn1-numa1`,
        parent: p.cn1,
        generation: 2,
        inventories: { VCPU: { total: 8, allocationRatio: 4 }, MEMORY_MB: { total: 16384 } },
      },
      {
        uuid: p.pf,
        name: `${prefix}-cn1-numa0-pf0`,
        parent: p.numa0,
        generation: 3,
        traits: ['CUSTOM_PHYSNET_PUBLIC'],
        inventories: {
          SRIOV_NET_VF: { total: 16 },
          CUSTOM_NET_BW_KBPS: { total: 10_000_000, minUnit: 1000 },
        },
      },
      {
        uuid: p.cn2,
        name: `${prefix}-cn2`,
        generation: 9,
        aggregates: [agg],
        inventories: {
          VCPU: { total: 4, allocationRatio: 1 },
          MEMORY_MB: { total: 8192, allocationRatio: 1.5 },
          CUSTOM_GPU: { total: 2 },
        },
      },
      {
        uuid: p.shared,
        name: `${prefix}-nfs`,
        generation: 5,
        traits: ['MISC_SHARES_VIA_AGGREGATE'],
        aggregates: [agg],
        inventories: { DISK_GB: { total: 2000, allocationRatio: 1 } },
      },
    ],
    consumers: [
      {
        uuid: c.inst,
        project: `${prefix}-proj-a`,
        user: `${prefix}-user-1`,
        type: 'INSTANCE',
        generation: 3,
        allocations: [
          { provider: p.numa0, resourceClass: 'VCPU', used: 2 },
          { provider: p.numa0, resourceClass: 'MEMORY_MB', used: 2048 },
          { provider: p.shared, resourceClass: 'DISK_GB', used: 40 },
          { provider: p.pf, resourceClass: 'SRIOV_NET_VF', used: 1 },
          { provider: p.pf, resourceClass: 'CUSTOM_NET_BW_KBPS', used: 5000 },
        ],
      },
      // A move in progress: source and destination allocations on the one consumer.
      {
        uuid: c.moved,
        project: `${prefix}-proj-a`,
        user: `${prefix}-user-2`,
        type: 'INSTANCE',
        generation: 6,
        allocations: [
          { provider: p.numa1, resourceClass: 'VCPU', used: 4 },
          { provider: p.cn2, resourceClass: 'VCPU', used: 4 },
          { provider: p.numa1, resourceClass: 'MEMORY_MB', used: 4096 },
          { provider: p.cn2, resourceClass: 'MEMORY_MB', used: 4096 },
        ],
      },
      {
        uuid: c.mig,
        project: `${prefix}-proj-b`,
        user: `${prefix}-user-1`,
        type: 'MIGRATION',
        generation: 1,
        allocations: [
          { provider: p.cn2, resourceClass: 'VCPU', used: 2 },
          { provider: p.cn2, resourceClass: 'CUSTOM_GPU', used: 1 },
        ],
      },
      {
        uuid: c.untyped,
        project: `${prefix}-proj-b`,
        user: `${prefix}-user-3`,
        generation: 2,
        allocations: [{ provider: p.cn1, resourceClass: 'DISK_GB', used: 20 }],
      },
    ],
  };
  return { fixture, p, c, agg };
}

/** Every difference between berth and the snapshot, as `kind uuid: what` lines (empty: equal). */
export async function differencesFrom(ds: DataSource, snap: PlacementSnapshot): Promise<string[]> {
  const out: string[] = [];
  const bp = new Map(
    (
      await berthProviders(
        ds,
        snap.providers.map((p) => p.uuid),
        [],
        false,
      )
    ).map((b) => [b.uuid, b]),
  );
  for (const s of snap.providers) {
    const b = bp.get(s.uuid);
    const d = b ? providerDifferences(b, s) : ['missing'];
    out.push(...d.map((x) => `provider ${s.uuid}: ${x}`));
  }
  const bc = new Map(
    (
      await berthConsumers(
        ds,
        snap.consumers.map((c) => c.uuid),
        false,
      )
    ).map((b) => [b.uuid, b]),
  );
  for (const s of snap.consumers) {
    const b = bc.get(s.uuid);
    const d = b ? consumerDifferences(b, s) : ['missing'];
    out.push(...d.map((x) => `consumer ${s.uuid}: ${x}`));
  }
  return out;
}

/**
 * A cloud-sized fixture: `roots` compute nodes with three children each (NUMA0, NUMA1, a PF),
 * `consumers` instances of two allocations (VCPU and MEMORY_MB on a NUMA node), aggregates of 50
 * roots with a custom trait on every tenth.
 */
export function scaleFixture(prefix: string, roots: number, consumers: number): PlacementFixture {
  const providers: FixtureProvider[] = [];
  const numas: string[] = [];
  for (let i = 0; i < roots; i++) {
    const root = randomUUID();
    const agg = `00000000-0000-4000-8000-${String(Math.floor(i / 50)).padStart(12, '0')}`;
    providers.push({
      uuid: root,
      name: `${prefix}-cn${i}`,
      generation: 3,
      traits: i % 10 === 0 ? ['CUSTOM_SCALE', 'HW_CPU_X86_AVX2'] : ['HW_CPU_X86_AVX2'],
      aggregates: [agg],
      inventories: { DISK_GB: { total: 1000 } },
    });
    for (const n of [0, 1]) {
      const numa = randomUUID();
      numas.push(numa);
      providers.push({
        uuid: numa,
        name: `${prefix}-cn${i}-numa${n}`,
        parent: root,
        generation: 5,
        inventories: { VCPU: { total: 32, allocationRatio: 4 }, MEMORY_MB: { total: 131072 } },
      });
    }
    providers.push({
      uuid: randomUUID(),
      name: `${prefix}-cn${i}-pf`,
      parent: root,
      inventories: { SRIOV_NET_VF: { total: 8 } },
    });
  }
  const out: FixtureConsumer[] = [];
  for (let i = 0; i < consumers; i++) {
    const numa = numas[i % numas.length]!;
    out.push({
      uuid: randomUUID(),
      project: `${prefix}-p${i % 40}`,
      user: `${prefix}-u${i % 90}`,
      type: 'INSTANCE',
      generation: 1,
      allocations: [
        { provider: numa, resourceClass: 'VCPU', used: 2 },
        { provider: numa, resourceClass: 'MEMORY_MB', used: 2048 },
      ],
    });
  }
  return { providers, consumers: out };
}
