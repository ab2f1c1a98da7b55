// Microversion negotiation (mirrors gabbits microversion.yaml and microversion_parse behaviour).
import type { HttpError } from '../../../src/rest/http-error';
import {
  negotiateVersionOrThrow,
  parseVersionOrThrow,
  requestedVersion,
} from '../../../src/rest/microversion';

function statusOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return (err as HttpError).status;
  }
  return undefined;
}

describe('negotiateVersionOrThrow', () => {
  it.each([
    { name: 'defaults to 1.0 without a header', header: undefined, want: '1.0' },
    { name: "maps 'latest' to 1.39", header: 'placement latest', want: '1.39' },
    { name: 'accepts a listed version', header: 'placement 1.17', want: '1.17' },
    { name: 'ignores other services', header: 'compute 2.1, placement 1.5', want: '1.5' },
    {
      name: 'takes the first placement entry',
      header: 'placement 1.2, placement 1.9',
      want: '1.2',
    },
    { name: 'is case-insensitive on the service', header: 'Placement 1.3', want: '1.3' },
  ])('$name', ({ header, want }) => {
    expect(String(negotiateVersionOrThrow(header))).toBe(want);
  });

  it('returns 406 with Unacceptable version header when the version is unknown', () => {
    expect(statusOf(() => negotiateVersionOrThrow('placement 0.5'))).toBe(406);
    expect(statusOf(() => negotiateVersionOrThrow('placement 1.40'))).toBe(406);
    expect(() => negotiateVersionOrThrow('placement 0.5')).toThrow(
      'Invalid microversion: Unacceptable version header: 0.5',
    );
  });

  it('returns 400 with invalid version string when the version is malformed', () => {
    expect(statusOf(() => negotiateVersionOrThrow('placement pony.horse'))).toBe(400);
    expect(() => negotiateVersionOrThrow('placement 1.2.3')).toThrow(
      'invalid version string: 1.2.3',
    );
  });
});

describe('parseVersionOrThrow', () => {
  it('compares and matches like microversion_parse.Version', () => {
    const v = parseVersionOrThrow('1.15');
    expect(v.matches('1.15')).toBe(true);
    expect(v.matches('1.16')).toBe(false);
    expect(v.matches('1.2', '1.6')).toBe(false);
    expect(parseVersionOrThrow('1.5').matches('1.2', '1.6')).toBe(true);
  });

  it('throws 400 when the minor part is missing', () => {
    expect(statusOf(() => parseVersionOrThrow('1'))).toBe(400);
  });
});

describe('requestedVersion', () => {
  it('is undefined when placement is not named', () => {
    expect(requestedVersion('compute 2.1')).toBeUndefined();
    expect(requestedVersion(undefined)).toBeUndefined();
  });
});
