// Starts the compiled berth server with the REST facade at '/' for a conformance run without a
// prefix. Needed because loadConfig() drops empty variables, so BERTH_REST_PREFIX= cannot select
// the root mount yet (reported to the lead); everything else is `berth serve`.
require('reflect-metadata');
const { loadConfig } = require('../../dist/src/config');
const { createLogger } = require('../../dist/src/logger');
const { startServer } = require('../../dist/src/server');

const config = { ...loadConfig(), restPrefix: '' };
startServer(config, createLogger(config.logLevel)).then(
  (running) => {
    process.stdout.write(`berth (REST at /) listening on ${running.url}\n`);
    const stop = () => running.stop().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  (err) => {
    process.stderr.write(`${err.stack || err}\n`);
    process.exit(1);
  },
);
