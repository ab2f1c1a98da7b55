// Keeps ioredis from slowing every string method in the process. ioredis 6 declares
// `class VerbatimString extends String` (resp/verbatim-string.js) when it loads; making
// String.prototype the parent of another class costs V8 its assumption that String.prototype
// is stable, and from then on optimised code calls String.prototype methods (charCodeAt, slice,
// indexOf, startsWith ...) without inlining them: 2-5x slower everywhere, measured as 4x on the
// byte writer of large REST answers. ioredis only compares against that class (replies are
// decoded to Buffers: DataHandler's legacyTypeMapping), so the module is provided here, before
// ioredis asks for it, with a constructor that builds the same String object without subclassing
// String. Must be imported before 'ioredis'.
import Module from 'node:module';

/** ioredis' VerbatimString without `extends String`: a String object with its format. */
function VerbatimString(format: string, value: string): object {
  return Object.assign(Object(String(value)) as object, { format });
}

let path: string | undefined;
try {
  path = require.resolve('ioredis/built/resp/verbatim-string.js');
} catch {
  path = undefined; // another ioredis layout: nothing to provide
}
if (path && !require.cache[path]) {
  const m = new Module(path);
  m.filename = path;
  m.loaded = true;
  m.exports = { VerbatimString };
  require.cache[path] = m;
}

/**
 * True when ioredis resolves this module to the replacement above.
 * @public test/unit/cache/ioredis-strings.test.ts calls it in a child process, by file path.
 */
export function verbatimStringReplaced(): boolean {
  return !!path && require.cache[path]?.exports?.VerbatimString === VerbatimString;
}
