// Jest reporter: after a run, prints the slowest test files (wall time per file) and writes every
// file's time to test-results/test-times.json, so a slow suite is found without guessing.
// Set BERTH_TEST_TIMES=0 to silence the printout.
const fs = require('node:fs');
const path = require('node:path');

class SlowestFilesReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.count = options.count ?? 12;
  }

  onRunComplete(_contexts, results) {
    const times = results.testResults
      .map((r) => ({
        file: path.relative(this.rootDir, r.testFilePath),
        seconds: Math.round((r.perfStats.end - r.perfStats.start) / 100) / 10,
        tests: r.numPassingTests + r.numFailingTests + r.numPendingTests,
      }))
      .sort((a, b) => b.seconds - a.seconds);
    const dir = path.join(this.rootDir, 'test-results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'test-times.json'), `${JSON.stringify(times, null, 2)}\n`);
    if (process.env.BERTH_TEST_TIMES === '0' || times.length < 2) {
      return;
    }
    const total = times.reduce((s, t) => s + t.seconds, 0);
    const lines = times
      .slice(0, this.count)
      .map((t) => `  ${t.seconds.toFixed(1).padStart(7)} s  ${t.file} (${t.tests} tests)`);
    process.stderr.write(
      `\nSlowest test files (of ${times.length}, ${total.toFixed(0)} s summed over files; all in test-results/test-times.json):\n${lines.join('\n')}\n`,
    );
  }
}

module.exports = SlowestFilesReporter;
