// The console's build for browser tests: built once (npm run build:console, ~3 s) when
// dist/console is missing or older than any file under console/.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import type { App } from '../../src/app/app';
import { consoleDir } from '../../src/http/console-assets';
import { closeServer, listen } from './rest';

const ROOT = path.resolve(__dirname, '../..');

function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    if (name === 'graphql-env.d.ts') {
      continue; // written by the build itself
    }
    const p = path.join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** Builds the console unless dist/console is newer than its sources and the schema. */
export function ensureConsoleBuilt(): void {
  const index = path.join(consoleDir(), 'index.html');
  const sources = Math.max(
    newest(path.join(ROOT, 'console')),
    statSync(path.join(ROOT, 'schema/schema.graphql')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) {
    return;
  }
  // The production bundle users get (jest sets NODE_ENV=test, which would build React's
  // development bundle: larger and slower, and not what the scale figures are about).
  execFileSync('npm', ['run', 'build:console'], {
    cwd: ROOT,
    stdio: 'pipe',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/** Debian's chromium, when installed (browser tests are skipped visibly without it). */
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) =>
  existsSync(p),
);

/** Flags for a headless chromium in a container, with no network of its own. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser page and `app` served on a real port, to open the console with. */
export interface ConsoleHarness {
  /** http://127.0.0.1:<port> */
  readonly base: string;
  readonly page: Page;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 and opens a chromium page (requires CHROMIUM). */
export async function openConsole(
  app: App,
  viewport = { width: 1280, height: 900 },
): Promise<ConsoleHarness> {
  const { server, base } = await listen((req, res) => app.handle(req, res));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport });
  return {
    base,
    page,
    async close() {
      await browser.close();
      await closeServer(server);
    },
  };
}
