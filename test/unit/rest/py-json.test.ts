// Python float formatting of the REST facade (json.dumps of a float is float.__repr__); the
// expected strings are what `python3 -c 'print(repr(float(x)))'` prints.
import { intRatioLiterals } from '../../../src/rest/handlers/inventory-format';
import { jsonWithFloats, pyFloat } from '../../../src/rest/py-json';

describe('pyFloat', () => {
  it.each([
    [4, '4.0'],
    [1.5, '1.5'],
    [1, '1.0'],
    [0, '0.0'],
    [-0, '-0.0'],
    [16, '16.0'],
    [-2, '-2.0'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [2.5e-7, '2.5e-07'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [123456789012345.6, '123456789012345.6'],
    [1e100, '1e+100'],
    [0.1, '0.1'],
    [1 / 3, '0.3333333333333333'],
  ])('%p -> %s', (n, text) => {
    expect(pyFloat(n)).toBe(text);
  });
});

describe('jsonWithFloats', () => {
  it('writes JSON.stringify text except for float keys and bigints', () => {
    const v = { a: 1, allocation_ratio: 4, b: [1.5, 'x', null], c: { allocation_ratio: 2n } };
    expect(jsonWithFloats(v, new Set(['allocation_ratio']))).toBe(
      '{"a":1,"allocation_ratio":4.0,"b":[1.5,"x",null],"c":{"allocation_ratio":2}}',
    );
    expect(jsonWithFloats({ u: undefined, s: 'é"' }, new Set())).toBe(
      JSON.stringify({ u: undefined, s: 'é"' }),
    );
  });
});

describe('intRatioLiterals', () => {
  it('tells integer from float literals in document order', () => {
    const body =
      '{"inventories": {"A": {"allocation_ratio": 16}, "B": {"allocation_ratio":1.0}, "C": {"allocation_ratio": 2e0}}}';
    expect(intRatioLiterals(body, 3)).toEqual([true, false, false]);
  });
  it('counts every ratio a float when the text and the parsed body disagree', () => {
    expect(intRatioLiterals('{"allocation_ratio": 1, "allocation_ratio": 2}', 1)).toEqual([false]);
  });
});
