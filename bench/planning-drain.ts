// Planning bench part (bench/planning.ts): the drain plan of one host with 40 consumers among
// `o.hosts` flat hosts (bench/seed.ts), 10 of them in an anti-affinity group, timed through the
// domain (src/planning/drain.ts planDrain: reading the consumers, a planning view, 40 pipeline
// evaluations) and through GraphQL `drainPlan`. Target: ≤ 200 ms at 10,000 hosts.
import { randomUUID } from 'node:crypto';
import { type DrainDeps, planDrain } from '../src/planning/drain';
import type { BenchApp } from './bench-app';
import { gql } from './graphql-timing';
import { fmt, pct } from './http/client';
import type { PlanningBenchOptions } from './planning';
import { seedDataset } from './seed';

const CONSUMERS = 40;

const PLAN = `query P($input: DrainPlanInput!) {
  drainPlan(input: $input) { movable unmovable moves { consumerUuid to { uuid } reason } }
}`;

/** Seeds `o.hosts` flat hosts and 40 consumers on one of them, then times its drain plan. */
export async function benchDrainPlan(app: BenchApp, o: PlanningBenchOptions): Promise<void> {
  await seedDataset(app.dataSource, { hosts: o.hosts, shape: 'flat' });
  const [host] = await app.dataSource.query(
    "SELECT uuid FROM resource_providers WHERE name = 'bench-7'",
  );
  const uuids = Array.from({ length: CONSUMERS }, () => randomUUID());
  await app.services.allocations.set(
    uuids.map((consumerUuid, i) => ({
      consumerUuid,
      projectId: 'bench',
      userId: 'bench',
      consumerType: 'INSTANCE',
      consumerGeneration: null,
      allocations: [
        {
          providerUuid: host.uuid as string,
          resources: { VCPU: [1, 2, 4, 8][i % 4]!, MEMORY_MB: [2048, 4096, 8192][i % 3]! },
        },
      ],
    })),
  );
  const group = await app.services.serverGroups.create({
    name: 'bench-aa',
    projectId: 'bench',
    userId: 'bench',
    policy: 'anti-affinity',
  });
  await app.services.serverGroups.addMembers(group.uuid, uuids.slice(0, 10));
  const deps: DrainDeps = {
    ds: app.dataSource,
    providers: app.services.providers,
    planning: app.scheduling.planning,
    pipelineFor: (profile) => app.scheduling.pipelines.pipelineFor(profile),
    claims: app.scheduling.moves,
  };
  const input = { hosts: [host.uuid as string] };
  await planDrain(deps, input); // warm-up: index, host views, compiled paths
  const n = Math.max(5, Math.min(o.iterations, o.smoke ? 10 : 50));
  const domain: number[] = [];
  let movable = 0;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    const plan = await planDrain(deps, input);
    domain.push(performance.now() - started);
    movable = plan.movable;
  }
  const graphql: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await gql(app, PLAN, { input }); // throws on an error
    graphql.push(performance.now() - started);
  }
  o.log(
    `  drain plan, 1 host with ${CONSUMERS} consumers (10 anti-affinity), ${o.hosts} hosts, ${movable} movable: p50 ${fmt(pct(domain, 50))} ms  p95 ${fmt(pct(domain, 95))} ms; GraphQL drainPlan p50 ${fmt(pct(graphql, 50))} ms  p95 ${fmt(pct(graphql, 95))} ms (${n} runs each; target ≤ 200 ms)`,
  );
}
