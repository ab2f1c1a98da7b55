// `berth headroom`: filled in with its feature.
import type { Command } from 'commander';

/** Registers `berth headroom`. */
export function registerHeadroomCommand(_program: Command): void {}
