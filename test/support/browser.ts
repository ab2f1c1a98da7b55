// What every browser test (test/ui) shares: skipping visibly without chromium, and where
// screenshots go. (Kept apart from console-build.ts, which jest's globalSetup loads without `it`.)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM } from './console-build';

/** `it` for a browser test: `it.skip` (reported as skipped) when chromium is not installed. */
export const browserIt: typeof it = CHROMIUM ? it : it.skip;

/** A describe title that says why its browser tests are skipped, when they are. */
export function browserTitle(title: string): string {
  return `${title}${CHROMIUM ? '' : ' (skipped: apt-get install chromium)'}`;
}

/** The git-ignored folder browser tests save screenshots in, created on first use. */
export function shotPath(name: string): string {
  const dir = path.resolve(__dirname, '../../test-results/console');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}
