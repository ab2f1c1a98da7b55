#!/usr/bin/env node
// `npm start`: brings dist/ up to date (bin/build.js --transpile-only: swc on the server sources
// changed since the last start, the console only when its inputs changed), then runs
// `berth serve` in this same process: one Node start, not two (a restart on a busy machine feels
// each). package.json starts it with --max-semi-space-size=64 (why: bin/berth.js). Arguments go
// to `berth serve` (npm start -- --workers 2).
const path = require('node:path');
const { main: build } = require('./build.js');

try {
  build(['--transpile-only']);
} catch (err) {
  process.stderr.write(`build: ${err.message}\n`);
  process.exit(1);
}
const main = path.resolve(__dirname, '../dist/src/cli/main.js');
process.argv = [process.argv[0], main, 'serve', ...process.argv.slice(2)];
require(main);
