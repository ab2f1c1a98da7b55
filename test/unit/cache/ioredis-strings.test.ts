// ioredis is loaded with its VerbatimString provided by src/cache/ioredis-strings.ts (no class
// extending String, which would slow every string method in the process), and RESP3 verbatim
// strings still decode to a String carrying its format. Run in a plain Node process: Jest's
// module registry ignores require.cache, so only a real process shows what `berth serve` loads.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

const SCRIPT = `
require('./src/cache/redis-cache.ts');
const { verbatimStringReplaced } = require('./src/cache/ioredis-strings.ts');
const { Decoder, RESP_TYPES } = require('ioredis/built/resp/decoder');
const { VerbatimString } = require('ioredis/built/resp/verbatim-string');
let reply;
const decoder = new Decoder({
  getTypeMapping: () => ({ [RESP_TYPES.VERBATIM_STRING]: VerbatimString }),
  onReply: (r) => { reply = r; },
  onErrorReply: () => {},
  onPush: () => {},
});
decoder.write(Buffer.from('=15\\r\\ntxt:Some string\\r\\n'));
console.log(JSON.stringify({
  replaced: verbatimStringReplaced(),
  extendsString: Object.getPrototypeOf(VerbatimString.prototype) === String.prototype,
  isString: reply instanceof String,
  value: String(reply),
  format: reply.format,
}));
`;

describe('ioredis without a String subclass', () => {
  it('loads the replacement VerbatimString and still decodes verbatim replies', () => {
    const out = execFileSync(
      process.execPath,
      ['-r', path.join(root, 'test/support/swc-register.cjs'), '-e', SCRIPT],
      { cwd: root, encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({
      replaced: true,
      extendsString: false,
      isString: true,
      value: 'Some string',
      format: 'txt',
    });
  });
});
