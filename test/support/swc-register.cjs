// A require hook compiling TypeScript with @swc/core (the options of the jest projects in
// package.json), so the CLI and scripts run from source without `npm run build`: the CLI tests'
// child processes and the Nova parity harness (`node -r ./test/support/swc-register.cjs x.ts`).
// ts-node's transpile-only start of src/cli/main.ts costs ~7 s of CPU; this ~1. Compiled files
// are kept in node_modules/.cache/berth-swc, keyed by swc's version, the options, the file's path
// and its text (a CLI process from the tests then compiles nothing it compiled before).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

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

const cacheDir = path.join(__dirname, '../../node_modules/.cache/berth-swc');
const salt = `${require('@swc/core/package.json').version}\0${JSON.stringify(options)}`;
let swc;

/** The compiled text of `filename` (from the cache, or compiled and cached). */
function compile(filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto.createHash('sha1').update(salt).update(filename).update(source).digest('hex');
  const cached = path.join(cacheDir, `${key}.js`);
  try {
    return fs.readFileSync(cached, 'utf8');
  } catch {
    swc ??= require('@swc/core');
    const { code } = swc.transformSync(source, { ...options, filename });
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      const scratch = `${cached}.${process.pid}`;
      fs.writeFileSync(scratch, code);
      fs.renameSync(scratch, cached);
    } catch {
      // A cache that cannot be written costs speed only.
    }
    return code;
  }
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(compile(filename), filename);
};
