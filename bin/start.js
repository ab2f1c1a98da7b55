#!/usr/bin/env node
// `npm start`: brings dist/ up to date (bin/build.js: swc on the server sources changed since the
// last start, the console only when its inputs changed), then runs `berth serve` in this same
// process: one Node start, not two (a restart on a busy machine feels each). package.json starts
// it with --max-semi-space-size=64 (why: bin/berth.js). Arguments go to `berth serve`
// (npm start -- --workers 2).
//
// Between the two builds the embedded database starts opening in its thread
// (dist/src/cli/serve-early.js; on a fresh data directory it unpacks the prebuilt database
// first), so on the first start after `npm install` the console's build overlaps it.
const path = require('node:path');
const { transpileChanged, buildConsoleIfChanged } = require('./build.js');

function step(what, fn) {
  try {
    return fn();
  } catch (err) {
    process.stderr.write(`build: ${what}: ${err.message}\n`);
    process.exit(1);
  }
}

const started = Date.now();
const { written, removed } = step('server sources', () => transpileChanged());
const what =
  written.length || removed.length
    ? `${written.length} written, ${removed.length} removed`
    : 'unchanged';
process.stdout.write(`build: server sources ${what}\n`);

const dist = path.resolve(__dirname, '../dist/src/cli');
const main = path.join(dist, 'main.js');
process.argv = [process.argv[0], main, 'serve', ...process.argv.slice(2)];
require(path.join(dist, 'serve-early.js'));

const built = step('console', () => buildConsoleIfChanged());
process.stdout.write(
  `build: console ${built ? 'built' : 'unchanged'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
);
require(main);
