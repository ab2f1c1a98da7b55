// BERTH_SCHEDULER_EXTENDERS is validated once at start-up: every bad entry stops start-up with
// one line naming the variable, the entry and the field (src/scheduler/runtime/extender-config.ts).
import { ConfigError, loadConfig } from '../../../src/config/config';
import { parseExtenders } from '../../../src/scheduler/runtime/extender-config';

describe('BERTH_SCHEDULER_EXTENDERS validation', () => {
  const load = (value: string) => {
    try {
      loadConfig({ BERTH_SCHEDULER_EXTENDERS: value });
      return 'loaded';
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
  };
  const ok = {
    name: 'X',
    urlPrefix: 'http://127.0.0.1:1/x',
    filterVerb: 'f',
    timeoutMs: 100,
    ignorable: true,
  };

  it.each([
    [
      'not JSON',
      '[{',
      /^invalid BERTH_SCHEDULER_EXTENDERS: it is not JSON \(error at character \d+\)$/,
    ],
    ['not a list', '{}', /^invalid BERTH_SCHEDULER_EXTENDERS: must be a JSON list/],
    [
      'no verb',
      JSON.stringify([{ ...ok, filterVerb: undefined }]),
      /\[0\]: needs filterVerb or prioritizeVerb/,
    ],
    [
      'a bad URL',
      JSON.stringify([{ ...ok, urlPrefix: 'ftp://x' }]),
      /\[0\]\.urlPrefix: must be an http/,
    ],
    ['no timeout', JSON.stringify([{ ...ok, timeoutMs: undefined }]), /\[0\]\.timeoutMs: /],
    ['an unknown key', JSON.stringify([{ ...ok, ignorabel: true }]), /\[0\]: Unrecognized key/],
    ['a duplicate name', JSON.stringify([ok, ok]), /\[1\]: plugin name X is used twice/],
    [
      'a missing file',
      '@/nonexistent/extenders.json',
      /cannot read \/nonexistent\/extenders\.json/,
    ],
  ])('refuses %s, naming the variable', (_what, value, message) => {
    expect(load(value)).toMatch(message);
  });

  it('accepts a valid list', () => {
    expect(load(JSON.stringify([ok]))).toBe('loaded');
  });

  it('reads at most 8 MiB of an answer unless maxResponseBytes says otherwise (1 KiB to 256 MiB)', () => {
    const [plain] = parseExtenders(JSON.stringify([ok]));
    expect(plain!.maxResponseBytes).toBe(8 * 1024 * 1024);
    const [small] = parseExtenders(JSON.stringify([{ ...ok, maxResponseBytes: 65536 }]));
    expect(small!.maxResponseBytes).toBe(65536);
    for (const bad of [100, 2 ** 30, 1.5, '1MB']) {
      expect(load(JSON.stringify([{ ...ok, maxResponseBytes: bad }]))).toMatch(
        /^invalid BERTH_SCHEDULER_EXTENDERS\[0\]\.maxResponseBytes: /,
      );
    }
  });
});
