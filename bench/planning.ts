// Capacity planning at 10,000 hosts (`npm run bench -- --only-planning [--planning-hosts 10000]`,
// and part of the full run): headroom per flavor (bench/planning-headroom.ts), what-if simulation
// and its effect on concurrent `schedule` (bench/planning-simulate.ts), drain plans
// (bench/planning-drain.ts). Each part seeds what it needs on the app it is given.
import type { BenchApp } from './bench-app';
import { benchDrainPlan } from './planning-drain';
import { benchHeadroom } from './planning-headroom';
import { benchSimulation } from './planning-simulate';

/** What every part of the planning bench is given. */
export interface PlanningBenchOptions {
  readonly hosts: number;
  readonly iterations: number;
  readonly smoke: boolean;
  readonly log: (line: string) => void;
}

/** The planning bench's parts, each on a freshly seeded app of its own. */
export async function runPlanningBench(
  withApp: <T>(label: string, fn: (app: BenchApp) => Promise<T>) => Promise<T>,
  o: PlanningBenchOptions,
): Promise<void> {
  o.log(`capacity planning, ${o.hosts} hosts (targets: docs/planning.md)`);
  await withApp('planning_headroom', (app) => benchHeadroom(app, o));
  await withApp('planning_simulate', (app) => benchSimulation(app, o));
  await withApp('planning_drain', (app) => benchDrainPlan(app, o));
}
