// The first thing `berth serve` does, before the CLI's other modules load (src/cli/main.ts
// imports this first): the embedded database starts opening in its thread (src/db/embedded-early.ts)
// while the rest of the process loads, about a second sooner than the serve command itself could
// start it. Only for the primary process of a one-process `berth serve` without DATABASE_URL
// (`--workers 2` on embedded is refused before the data folder is touched); a configuration error
// is left to the serve command, which reports it. bin/start.js also makes such a `berth serve`
// wait for the console's build before it connects and listens (holdServing).
import cluster from 'node:cluster';
import { loadConfig } from '../config/config';
import { startEmbeddedEarly } from '../db/embedded-early';
import { createLogger } from '../observability/logger';

/** True when `berth serve` was asked for more than one process (which it refuses on embedded). */
function severalWorkers(args: readonly string[]): boolean {
  const asked = args.flatMap((a, i) =>
    a === '--workers' ? [args[i + 1] ?? ''] : a.startsWith('--workers=') ? [a.slice(10)] : [],
  );
  return [...asked, process.env.BERTH_WORKERS ?? '1'].some((n) => n.trim() !== '1');
}

let startedEmbedded = false;
let held: Promise<unknown> = Promise.resolve();

/**
 * True when this process is a one-process `berth serve` whose embedded database started here.
 * @public (called by bin/start.js, by path)
 */
export function embeddedStartedEarly(): boolean {
  return startedEmbedded;
}

/**
 * Makes this one-process `berth serve` on the embedded database wait for `p` after loading its
 * modules and before opening the database connection and the port: bin/start.js builds the
 * console meanwhile, so the console is there once the server listens. A rejected `p` is the
 * caller's to report.
 * @public (called by bin/start.js, by path)
 */
export function holdServing(p: Promise<unknown>): void {
  held = p;
}

/** What {@link holdServing} asked `berth serve` to wait for (resolved when nothing). */
export function servingHeld(): Promise<unknown> {
  return held;
}

if (
  process.argv[2] === 'serve' &&
  cluster.isPrimary &&
  !process.env.DATABASE_URL &&
  !severalWorkers(process.argv.slice(3))
) {
  try {
    const config = loadConfig();
    startEmbeddedEarly(config, createLogger(config.logLevel));
    startedEmbedded = true;
  } catch {
    // berth serve reports the bad setting in one line.
  }
}
