#!/usr/bin/env node
// `npm start`: brings dist/ up to date (bin/build.js: swc on the server sources changed since the
// last start, the console only when its inputs changed), then runs `berth serve` in this same
// process: one Node start, not two (a restart on a busy machine feels each). package.json starts
// it with --max-semi-space-size=64 (why: bin/berth.js). Arguments go to `berth serve`
// (npm start -- --workers 2).
//
// After the server sources, dist/src/cli/serve-early.js starts the embedded database opening in
// its thread (on a fresh data directory it unpacks the prebuilt database first). On the embedded
// database the console, when it has to be built (a fresh clone's first start: vite, about a
// second), builds in a child process while the server's modules load; `berth serve` waits for it
// before it connects and opens its port (holdServing), so the console is there once it listens.
// Otherwise the console is built before `berth serve` starts.
const { spawn } = require('node:child_process');
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
const consoleDone = (built) =>
  process.stdout.write(
    `build: console ${built ? 'built' : 'unchanged'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );

/** True when the console's inputs changed since its last build (nothing is built here). */
function consoleChanged() {
  const changed = new Error('console changed');
  try {
    buildConsoleIfChanged(undefined, undefined, () => {
      throw changed;
    });
    return false;
  } catch (err) {
    if (err === changed) {
      return true;
    }
    throw err;
  }
}

/** Builds the console in a child process (bin/build.js's own build); exits when it fails. */
function buildConsoleBeside() {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['-e', "require('./bin/build.js').buildConsoleIfChanged()"],
      { cwd: path.resolve(__dirname, '..'), stdio: 'inherit' },
    );
    child.on('exit', (code, signal) => {
      if (code !== 0) {
        process.stderr.write(`build: console: failed (${code ?? signal})\n`);
        process.exit(1);
      }
      consoleDone(true);
      resolve();
    });
  });
}

const { written, removed } = step('server sources', () => transpileChanged());
const what =
  written.length || removed.length
    ? `${written.length} written, ${removed.length} removed`
    : 'unchanged';
process.stdout.write(`build: server sources ${what}\n`);

const dist = path.resolve(__dirname, '../dist/src/cli');
const main = path.join(dist, 'main.js');
process.argv = [process.argv[0], main, 'serve', ...process.argv.slice(2)];
const early = require(path.join(dist, 'serve-early.js'));

if (!early.embeddedStartedEarly()) {
  consoleDone(step('console', () => buildConsoleIfChanged()));
} else if (step('console', consoleChanged)) {
  early.holdServing(buildConsoleBeside());
} else {
  consoleDone(false);
}
require(main);
