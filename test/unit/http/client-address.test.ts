import { clientAddress, parseTrustedProxies } from '../../../src/http/client-address';

const trusted = parseTrustedProxies('10.0.0.0/8, 127.0.0.1, fd00::/8');
if (typeof trusted === 'string') {
  throw new Error(trusted);
}

describe('clientAddress', () => {
  it.each([
    ['no trusted proxies: the peer', '127.0.0.1', '192.0.2.1', undefined, '127.0.0.1'],
    ['untrusted peer: the header is ignored', '192.0.2.9', '198.51.100.1', trusted, '192.0.2.9'],
    ['trusted peer, no header: the peer', '127.0.0.1', undefined, trusted, '127.0.0.1'],
    ['trusted peer: the right-most hop', '127.0.0.1', '6.6.6.6, 192.0.2.1', trusted, '192.0.2.1'],
    ['trusted hops are skipped', '10.1.1.1', '192.0.2.1, 10.2.2.2', trusted, '192.0.2.1'],
    ['IPv4-mapped peer is trusted', '::ffff:127.0.0.1', '192.0.2.1', trusted, '192.0.2.1'],
    ['IPv6 ranges', 'fd00::1', '2001:db8::1', trusted, '2001:db8::1'],
    ['several headers', '127.0.0.1', ['6.6.6.6', '192.0.2.1'], trusted, '192.0.2.1'],
    ['all hops trusted: the left-most', '127.0.0.1', '10.0.0.1, 10.0.0.2', trusted, '10.0.0.1'],
    ['a malformed right-most hop: the peer', '127.0.0.1', '192.0.2.1, junk', trusted, '127.0.0.1'],
    ['a malformed hop behind trusted ones', '127.0.0.1', 'junk, 10.0.0.2', trusted, '10.0.0.2'],
  ] as const)('%s', (_what, peer, header, list, expected) => {
    expect(clientAddress(peer, header, list)).toBe(expected);
  });
});

describe('parseTrustedProxies', () => {
  it.each(['10.0.0.0/33', 'example.com', '10.0.0.1/8/2', '::1/129', '10.0.0.0/x'])(
    'refuses %s',
    (spec) => {
      expect(parseTrustedProxies(spec)).toMatch(/is not an IP address or CIDR range/);
    },
  );
  it('accepts an empty list', () => {
    expect(typeof parseTrustedProxies(' , ')).toBe('object');
  });
});
