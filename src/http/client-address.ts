// The client's address behind trusted reverse proxies. The failed-authentication and anonymous
// rate limits count per client address; behind HAProxy or nginx the socket's peer is the proxy,
// so every client would share one count. When the peer is a proxy the operator trusts
// (BERTH_TRUSTED_PROXIES: addresses and CIDR ranges), the client is the right-most address of
// X-Forwarded-For that is not itself a trusted proxy (each proxy appends the address it saw, so
// entries a client wrote itself sit to the left and are never believed). From an untrusted peer
// the header is ignored: a client cannot choose its own rate-limit bucket.
import { BlockList, isIP } from 'node:net';

/** Parses `10.0.0.0/8, 127.0.0.1, ::1`; a message naming the bad entry when one is not valid. */
export function parseTrustedProxies(spec: string): BlockList | string {
  const list = new BlockList();
  for (const entry of spec.split(',').map((e) => e.trim())) {
    if (entry === '') {
      continue;
    }
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const max = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      extra !== undefined ||
      (bits !== undefined && (!/^\d+$/.test(prefix ?? '') || bits > max))
    ) {
      return `'${entry}' is not an IP address or CIDR range (e.g. 10.0.0.0/8, 127.0.0.1, ::1)`;
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) {
      list.addAddress(address, type);
    } else {
      list.addSubnet(address, bits, type);
    }
  }
  return list;
}

function trusts(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The address to count a request against.
 * @param peer the socket's remote address
 * @param forwardedFor the X-Forwarded-For header(s), if any
 * @param trusted the proxies whose X-Forwarded-For is believed (undefined: none)
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  trusted: BlockList | undefined,
): string {
  const socket = peer ?? 'unknown';
  if (!trusted || forwardedFor === undefined || !trusts(trusted, socket)) {
    return socket;
  }
  const hops = (typeof forwardedFor === 'string' ? [forwardedFor] : forwardedFor)
    .flatMap((h) => h.split(','))
    .map((h) => h.trim())
    .filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) {
      // A malformed hop was not written by a proxy we trust: the last trusted hop's peer is all
      // we know for sure.
      return i === hops.length - 1 ? socket : hops[i + 1]!;
    }
    if (!trusts(trusted, hop)) {
      return hop;
    }
  }
  return hops[0] ?? socket;
}
