// The first thing `berth serve` does, before the CLI's other modules load (src/cli/main.ts
// imports this first): the embedded database starts opening in its thread (src/db/embedded-early.ts)
// while the rest of the process loads, about a second sooner than the serve command itself could
// start it. Only for the primary process of `berth serve` without DATABASE_URL; a configuration
// error is left to the serve command, which reports it.
import cluster from 'node:cluster';
import { loadConfig } from '../config/config';
import { startEmbeddedEarly } from '../db/embedded-early';
import { createLogger } from '../observability/logger';

if (process.argv[2] === 'serve' && cluster.isPrimary && !process.env.DATABASE_URL) {
  try {
    const config = loadConfig();
    startEmbeddedEarly(config, createLogger(config.logLevel));
  } catch {
    // berth serve reports the bad setting in one line.
  }
}
