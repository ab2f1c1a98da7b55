// Nova parity harness: a require hook compiling TypeScript with @swc/core (the options of the jest
// projects in package.json), so main.ts runs from source without `npm run build` (ts-node takes
// ~10 s to start on this code base; this takes ~2).
const fs = require('node:fs');
const swc = require('@swc/core');

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
