// `berth simulate`: filled in with its feature.
import type { Command } from 'commander';

/** Registers `berth simulate`. */
export function registerSimulateCommand(_program: Command): void {}
