// `berth drain-plan`: filled in with its feature.
import type { Command } from 'commander';

/** Registers `berth drain-plan`. */
export function registerDrainPlanCommand(_program: Command): void {}
