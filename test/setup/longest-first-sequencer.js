// Jest test sequencer: longest test files first, so the workers finish together instead of one
// starting a four-minute file last. Jest's own sequencer does this from its cache of the last
// run; on a fresh clone it has none and falls back to file size, which says little here (the
// Keystone suite is short and slow). So a file's expected time comes from the cache when there is
// one, else from test/setup/test-times.json (seconds per file from a run, written
// by test/setup/slowest-files-reporter.js as test-results/test-times.json; copy it over to
// refresh).
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const expected = new Map(require('./test-times.json').map((t) => [t.file, t.seconds * 1000]));

class LongestFirstSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached != null) {
      return cached;
    }
    return expected.get(
      path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/'),
    );
  }
}

module.exports = LongestFirstSequencer;
