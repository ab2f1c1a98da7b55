// A require hook compiling TypeScript with @swc/core (the options of the jest projects in
// package.json), so the CLI and scripts run from source without `npm run build`: the CLI tests'
// child processes and the Nova parity harness (`node -r ./test/support/swc-register.cjs x.ts`).
// ts-node's transpile-only start of src/cli/main.ts costs ~7 s of CPU; this ~1.
const fs = require('node:fs');
const swc = require('@swc/core');

// Stack traces name the .ts lines (the inline source maps below).
process.setSourceMapsEnabled(true);

const options = {
  swcrc: false,
  sourceMaps: 'inline',
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
