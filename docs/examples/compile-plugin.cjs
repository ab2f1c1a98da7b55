// Compiles one TypeScript scheduler plugin to a CommonJS module for BERTH_PLUGIN_DIRS (transpile only:
// `import type` lines vanish, so the output needs nothing from berth at run time).
// Usage: node docs/examples/compile-plugin.cjs <path/to/my-filter/index.ts> <plugin-dir>
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

/** Writes <pluginDir>/<folder>/index.js for <folder>/index.ts (or <pluginDir>/<name>.js) and returns its path. */
function compilePlugin(source, pluginDir) {
  const { outputText, diagnostics } = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    fileName: source,
    reportDiagnostics: true,
  });
  if (diagnostics && diagnostics.length > 0) {
    // Every problem as `file:line:column: message`, the way compilers print them.
    const lines = diagnostics.map((d) => {
      const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
      if (!d.file || d.start === undefined) {
        return `${source}: ${text}`;
      }
      const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
      return `${source}:${line + 1}:${character + 1}: ${text}`;
    });
    const err = new Error(lines.join('\n'));
    err.diagnostics = lines;
    throw err;
  }
  const base = path.basename(source, '.ts');
  const target =
    base === 'index'
      ? path.join(pluginDir, path.basename(path.dirname(source)), 'index.js')
      : path.join(pluginDir, `${base}.js`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, outputText);
  return target;
}

module.exports = { compilePlugin };

if (require.main === module) {
  const [source, pluginDir] = process.argv.slice(2);
  if (!source || !pluginDir) {
    console.error('usage: node docs/examples/compile-plugin.cjs <plugin.ts> <plugin-dir>');
    process.exit(2);
  }
  try {
    console.log(compilePlugin(source, pluginDir));
  } catch (err) {
    // A compile error is the author's to fix: print where, not a stack trace.
    console.error(err.diagnostics ? err.message : `${source}: ${err.message}`);
    process.exit(1);
  }
}
