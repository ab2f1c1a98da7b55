#!/usr/bin/env node
// berth CLI entry point (compiled code lives in dist/; `npm run build` creates it).
require('../dist/src/cli/main.js');
