// Planning bench part (bench/planning.ts): headroom (src/planning/headroom-run.ts) of 8 flavors
// on `o.hosts` flat hosts (bench/seed.ts, no sharing provider) in 10 aggregates, each with an
// availability zone, a fifth of the hosts partly used. Timed through the domain (p50 / p95 over
// o.iterations) cloud-wide (target ≤ 100 ms) and grouped by aggregate (target ≤ 200 ms): asked
// again on an unchanged cloud (every host's answer kept), and after 50 claims on as many hosts
// between two questions (those hosts counted again); the first question (cold for the first
// line: every host counted, every host view built) is printed too.
// Then once through GraphQL; the counts are printed.

import { randomUUID } from 'node:crypto';
import { emptyRequestGroup } from '../src/placement/allocation-candidates/request';
import { type HeadroomQuestion, headroom } from '../src/planning/headroom-run';
import type { BenchApp } from './bench-app';
import { gql } from './graphql-timing';
import { fmt, pct } from './http/client';
import type { PlanningBenchOptions } from './planning';
import { seedDataset } from './seed';

const FLAVORS: [string, Record<string, number>][] = [
  ['m1.tiny', { VCPU: 1, MEMORY_MB: 512, DISK_GB: 1 }],
  ['m1.small', { VCPU: 1, MEMORY_MB: 2048, DISK_GB: 20 }],
  ['m1.medium', { VCPU: 2, MEMORY_MB: 4096, DISK_GB: 40 }],
  ['m1.large', { VCPU: 4, MEMORY_MB: 8192, DISK_GB: 80 }],
  ['m1.xlarge', { VCPU: 8, MEMORY_MB: 16384, DISK_GB: 160 }],
  ['c1.large', { VCPU: 8, MEMORY_MB: 8192, DISK_GB: 40 }],
  ['r1.large', { VCPU: 2, MEMORY_MB: 32768, DISK_GB: 40 }],
  ['g1.small', { VCPU: 2, MEMORY_MB: 4096 }],
];

const QUERY = `query H($input: HeadroomInput!) {
  headroom(input: $input) { durationMs flavors { name count groups { key count } } }
}`;

const flavors = FLAVORS.map(([name, resources]) => ({
  name,
  request: {
    groups: [{ ...emptyRequestGroup(''), resources }],
  },
  extraSpecs: {},
}));

/** Seeds the cloud, then times headroom cloud-wide and by aggregate. */
export async function benchHeadroom(app: BenchApp, o: PlanningBenchOptions): Promise<void> {
  const seeded = await seedDataset(app.dataSource, { hosts: o.hosts, shape: 'flat', sharing: 0 });
  for (const [i, uuid] of seeded.aggregates.entries()) {
    await app.services.aggregates.setMetadata(uuid, `agg${i + 1}`, [
      { key: 'availability_zone', value: `az${i % 3}` },
    ]);
  }
  // Usage: one consumer on every fifth host (1 to 4 VCPU, 2 to 8 GB).
  const index = await app.scheduling.planning.candidates.current();
  const hosts = Array.from(index.rootOrder(), (t) => index.uuid[t]!);
  const consumers = hosts
    .filter((_, i) => i % 5 === 0)
    .map((providerUuid, i) => ({
      consumerUuid: randomUUID(),
      projectId: 'bench-headroom',
      userId: 'bench',
      consumerType: 'INSTANCE',
      consumerGeneration: null,
      allocations: [
        { providerUuid, resources: { VCPU: 1 + (i % 4), MEMORY_MB: 2048 * (1 + (i % 4)) } },
      ],
    }));
  for (let i = 0; i < consumers.length; i += 500) {
    await app.services.allocations.set(consumers.slice(i, i + 500));
  }
  const deps = { planning: app.scheduling.planning, pipelines: app.scheduling.pipelines };
  const n = Math.max(5, Math.min(o.iterations, o.smoke ? 10 : 30));
  let claimed = 0;
  /** 50 one-VCPU claims on as many hosts (not timed). */
  const churn = async () => {
    const batch = Array.from({ length: 50 }, () => {
      const providerUuid = hosts[(claimed++ * 7919) % hosts.length]!;
      return {
        consumerUuid: randomUUID(),
        projectId: 'bench-headroom',
        userId: 'bench',
        consumerType: 'INSTANCE',
        consumerGeneration: null,
        allocations: [{ providerUuid, resources: { VCPU: 1, MEMORY_MB: 512 } }],
      };
    });
    await app.services.allocations.set(batch);
  };
  const time = async (q: HeadroomQuestion, target: number, label: string) => {
    const first = await headroom(deps, q);
    const line = async (what: string, before?: () => Promise<void>) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        await before?.();
        const started = performance.now();
        await headroom(deps, q);
        times.push(performance.now() - started);
      }
      o.log(
        `  headroom, 8 flavors, ${label}, ${o.hosts} hosts, ${what}: p50 ${fmt(pct(times, 50))} ms  p95 ${fmt(pct(times, 95))} ms (${n} runs; target ≤ ${target} ms)`,
      );
    };
    o.log(
      `  headroom, 8 flavors, ${label}, ${o.hosts} hosts, first question: ${fmt(first.durationMs)} ms`,
    );
    await line('unchanged cloud');
    await line('after 50 claims', churn);
    return first;
  };
  const cloud = await time({ flavors, groupBy: 'none' }, 100, 'cloud-wide');
  const byAggregate = await time({ flavors, groupBy: 'aggregate' }, 200, 'by aggregate');
  o.log(
    `    counts: ${cloud.flavors.map((f) => `${f.name} ${f.count} (${f.runsOutFirst})`).join(', ')}`,
  );
  o.log(
    `    groups: ${byAggregate.flavors[0]!.groups.length} aggregates; ${byAggregate.flavors[0]!.name} in the first: ${byAggregate.flavors[0]!.groups[0]?.count ?? 0}`,
  );
  const viaGraphql = await gql(app, QUERY, {
    input: {
      groupBy: 'AGGREGATE',
      flavors: flavors.map((f) => ({
        name: f.name,
        request: {
          groups: [
            {
              suffix: '',
              resources: Object.entries(f.request.groups[0]!.resources).map(
                ([resourceClass, amount]) => ({ resourceClass, amount }),
              ),
            },
          ],
        },
      })),
    },
  });
  o.log(
    `    GraphQL headroom by aggregate: ${fmt((viaGraphql as { headroom: { durationMs: number } }).headroom.durationMs)} ms in the resolver`,
  );
}
