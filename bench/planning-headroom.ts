// Planning bench part (bench/planning.ts): filled in with its feature.
import type { BenchApp } from './bench-app';
import type { PlanningBenchOptions } from './planning';

/** Seeds what this part needs on `app` and prints its figures. */
export async function benchHeadroom(_app: BenchApp, o: PlanningBenchOptions): Promise<void> {
  o.log('  (not measured yet)');
}
