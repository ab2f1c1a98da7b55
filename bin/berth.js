#!/usr/bin/env node
// berth CLI entry point (compiled code lives in dist/; `npm run build` creates it).
//
// `berth serve` runs with a larger V8 young generation (--max-semi-space-size=64, in MiB): a
// candidates answer for thousands of hosts allocates tens of MiB of short-lived objects, and with
// Node's default the collector runs several times per answer and promotes what is still in use,
// costing as much CPU as the answer itself. Set the flag yourself (node options or NODE_OPTIONS)
// to choose another size; this script then starts the server as it is.
const path = require('node:path');
const main = path.resolve(__dirname, '../dist/src/cli/main.js');
const SEMI_SPACE = '--max-semi-space-size';
const flagged = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) =>
  a.startsWith(SEMI_SPACE),
);
if (process.argv[2] === 'serve' && !flagged) {
  const { spawn } = require('node:child_process');
  const child = spawn(
    process.execPath,
    [...process.execArgv, `${SEMI_SPACE}=64`, main, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  require(main);
}
