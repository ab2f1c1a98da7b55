// Table tests for the img_hv_requested_version parser (ports of Python's distutils
// versionpredicate / StrictVersion and oslo_utils.versionutils.convert_version_to_str). Every
// expected answer was produced by Python 3.11 on Debian (setuptools' distutils, as Nova loads it):
//   VersionPredicate('image_prop (%s)' % pred).satisfied_by(convert_version_to_str(hv))
import {
  compareStrict,
  parsePredicate,
  parseStrictVersion,
  satisfiedBy,
  versionToString,
} from './version-predicate';

/** What Python answers: satisfied or not, or the ValueError of the predicate or of the host. */
type Want = { ok: boolean } | { prederr: string } | { hosterr: string };

function evaluate(pred: string, hv: number): Want {
  const p = parsePredicate(pred);
  if ('error' in p) {
    return { prederr: p.error };
  }
  const v = parseStrictVersion(versionToString(BigInt(hv)));
  return 'error' in v ? { hosterr: v.error } : { ok: satisfiedBy(p.clauses, v) };
}

describe('img_hv_requested_version as Python reads it', () => {
  it.each<[string, number, string, Want]>([
    ['>=6.0,<6.2', 6000000, '6.0.0', { ok: true }],
    ['>=6.2', 6000000, '6.0.0', { ok: false }],
    ['>=6.0', 5000, '5.0', { ok: false }],
    ['>= 6.0, < 8.0', 8000000, '8.0.0', { ok: false }],
    ['>= 6.0, < 8.0', 7999999, '7.999.999', { ok: true }],
    ['==6.0', 6000000, '6.0.0', { ok: true }],
    ['== 6.0.0', 6000000, '6.0.0', { ok: true }],
    ['!=6.0', 6000001, '6.0.1', { ok: true }],
    ['<6.0.1', 6000000, '6.0.0', { ok: true }],
    ['>6.0a1', 6000000, '6.0.0', { ok: true }],
    ['<6.0b1', 6000000, '6.0.0', { ok: false }],
    ['>6.0a9', 6000000, '6.0.0', { ok: true }],
    ['<=1.0', 999999, '999.999', { ok: false }],
    ['>=6.0 ,<=8.0', 8000000, '8.0.0', { ok: true }],
    ['\u00a0>=\u20036.0\u3000', 6000000, '6.0.0', { ok: true }],
    ['>=10.0', 9000000, '9.0.0', { ok: false }],
    ['>=010.0', 10000000, '10.0.0', { ok: true }],
    ['>=1.0', 5, '5', { hosterr: "invalid version number '5'" }],
    ['>=1.0', 1000000000, '1.0.0.0', { hosterr: "invalid version number '1.0.0.0'" }],
    ['>= 6.0, < 8', 6000000, '6.0.0', { prederr: "invalid version number '8'" }],
    ['=>6.0', 6000000, '6.0.0', { prederr: "bad package restriction syntax: '=>6.0'" }],
    ['>=6.0,', 6000000, '6.0.0', { prederr: "bad package restriction syntax: ''" }],
    ['', 6000000, '6.0.0', { prederr: "bad package restriction syntax: ''" }],
    ['>=6.0c1', 6000000, '6.0.0', { prederr: "invalid version number '6.0c1'" }],
    ['> = 6.0', 6000000, '6.0.0', { prederr: "bad package restriction syntax: '> = 6.0'" }],
    ['>=6.0)', 6000000, '6.0.0', { prederr: "invalid version number '6.0)'" }],
    ['>=6.0\n', 6000000, '6.0.0', { prederr: "expected parenthesized list: '(>=6.0'" }],
    ['>=6.0) , (<7.0', 6000000, '6.0.0', { prederr: "invalid version number '6.0)'" }],
    ['>=6.0\ufeff', 6000000, '6.0.0', { prederr: "invalid version number '6.0\ufeff'" }],
    ['>=6.0\u001c', 6000000, '6.0.0', { ok: true }],
    ['>=6.0\r', 6000000, '6.0.0', { ok: true }],
    ['>=\u0663.0', 6000000, '6.0.0', { prederr: "invalid version number '\u0663.0'" }],
  ])('%j against %d (%s)', (pred, hv, dotted, want) => {
    expect(versionToString(BigInt(hv))).toBe(dotted);
    expect(evaluate(pred, hv)).toEqual(want);
  });

  it('orders StrictVersions as Python: pre-releases before the release, a before b', () => {
    const order = ['0.4', '0.4.1', '0.5a1', '0.5b3', '0.5', '0.9.6', '1.0', '1.0.4a3', '1.0.4b1'];
    const parsed = order.map((v) => parseStrictVersion(v));
    for (let i = 1; i < parsed.length; i++) {
      const [a, b] = [parsed[i - 1]!, parsed[i]!];
      if ('error' in a || 'error' in b) {
        throw new Error('unparsed');
      }
      expect(compareStrict(a, b)).toBe(-1);
      expect(compareStrict(b, a)).toBe(1);
    }
    const [x, y] = [parseStrictVersion('0.4'), parseStrictVersion('0.4.0')];
    expect('error' in x || 'error' in y ? null : compareStrict(x, y)).toBe(0);
  });

  it('reads version numbers of any length, as Python int()', () => {
    const p = parsePredicate('>99999999999999999999.0');
    expect('clauses' in p && p.clauses[0]!.version.version[0]).toBe(99999999999999999999n);
  });
});
