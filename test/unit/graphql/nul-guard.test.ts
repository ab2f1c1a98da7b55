// documentHasNul: string literals with U+0000 are found, once per parsed document.
import { parse } from 'graphql';
import { documentHasNul } from '../../../src/graphql/nul-guard';

describe('documentHasNul', () => {
  it('finds U+0000 in any string literal, however deep', () => {
    expect(documentHasNul(parse('{ a(x: "ok") { b(y: ["fine", "a\\u0000b"]) } }'))).toBe(true);
    expect(documentHasNul(parse('mutation { m(input: { s: { t: "\\u0000" } }) }'))).toBe(true);
    expect(documentHasNul(parse('{ a(x: "ok") { b(y: ["fine"]) } }'))).toBe(false);
  });

  it('answers the same for the same document every time (each is walked once)', () => {
    const bad = parse('{ a(x: "a\\u0000") }');
    const good = parse('{ a(x: "a") }');
    for (let i = 0; i < 3; i++) {
      expect(documentHasNul(bad)).toBe(true);
      expect(documentHasNul(good)).toBe(false);
    }
    // Another parse of the same text is another document, walked on its own.
    expect(documentHasNul(parse('{ a(x: "a\\u0000") }'))).toBe(true);
  });
});
