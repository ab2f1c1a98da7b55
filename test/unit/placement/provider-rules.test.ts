// The value rules of a provider's own fields (src/placement/provider-rules.ts), shared by the API
// and `berth import placement`: names counted in characters as Placement and PostgreSQL count
// them, no NUL; generations as berth stores them.
import {
  assertGenerationOrThrow,
  assertProviderNameOrThrow,
  characters,
} from '../../../src/placement/provider-rules';

describe('assertProviderNameOrThrow', () => {
  it.each([
    { name: 'one character', value: 'a' },
    { name: '200 characters', value: 'x'.repeat(200) },
    { name: '200 emoji (400 UTF-16 units)', value: '💥'.repeat(200) },
    { name: 'spaces only', value: ' ' },
    { name: 'control characters (escaped where printed)', value: 'a\tb\u001b[2J' },
  ])('accepts $name', ({ value }) => {
    expect(() => assertProviderNameOrThrow(value)).not.toThrow();
  });

  it.each([
    { name: 'an empty name', value: '', want: /1 to 200 characters/ },
    { name: '201 characters', value: 'x'.repeat(201), want: /1 to 200 characters/ },
    { name: '201 emoji', value: '💥'.repeat(201), want: /1 to 200 characters/ },
    { name: 'NUL', value: 'a\u0000b', want: /NUL/ },
  ])('refuses $name with berth.invalid_name', ({ value, want }) => {
    expect(() => assertProviderNameOrThrow(value)).toThrow(want);
    expect(() => assertProviderNameOrThrow(value)).toThrow(
      expect.objectContaining({ code: 'berth.invalid_name' }),
    );
  });

  it('counts code points', () => {
    expect(characters('a💥b')).toBe(3);
  });
});

describe('assertGenerationOrThrow', () => {
  it.each([0, 1, 2147483647])('accepts %p', (g) => {
    expect(() => assertGenerationOrThrow('generation', g)).not.toThrow();
  });

  it.each([-1, 2147483648, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %p', (g) => {
    expect(() => assertGenerationOrThrow('generation', g)).toThrow(
      expect.objectContaining({ code: 'berth.invalid_input' }),
    );
  });
});
