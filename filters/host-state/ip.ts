// IP addresses and networks for the plugins that read a host's IP (upstream: what Nova's
// SimpleCIDRAffinityFilter asks of netaddr.IPNetwork / IPAddress in
// nova/scheduler/filters/affinity_filter.py, and HostState.host_ip in nova/scheduler/host_manager.py).
// Placement holds no host IP: berth reads it from a root provider trait, CUSTOM_HOST_IP_ followed by
// the address with every `.` and `:` written `_` (10.8.1.1 -> CUSTOM_HOST_IP_10_8_1_1,
// fe80::1 -> CUSTOM_HOST_IP_FE80__1; an IPv6 address in hex groups only, since four decimal groups
// read as IPv4). Parsing is strict: dotted-quad IPv4 (decimal octets, no
// inet_aton short forms), RFC 4291 IPv6 text (`::`, an embedded IPv4 tail), no zone ids.
import type { HostView } from '../../src/scheduler/plugin-api';

/** An IP address as a number. */
export interface IpAddress {
  readonly version: 4 | 6;
  readonly value: bigint;
}

/** An IP network: every address from `first` to `last` of one version. */
export interface IpNetwork {
  readonly version: 4 | 6;
  readonly prefix: number;
  readonly first: bigint;
  readonly last: bigint;
}

/** The trait prefix naming a host's IP. */
export const HOST_IP_TRAIT_PREFIX = 'CUSTOM_HOST_IP_';

const BITS = { 4: 32, 6: 128 } as const;

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return null;
  }
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

function parseGroups(text: string, ipv4Tail: boolean): bigint[] | null {
  if (text === '') {
    return [];
  }
  const groups: bigint[] = [];
  const parts = text.split(':');
  for (const [i, part] of parts.entries()) {
    if (ipv4Tail && i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === null) {
        return null;
      }
      groups.push(v4 >> 16n, v4 & 0xffffn);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(BigInt(`0x${part}`));
    } else {
      return null;
    }
  }
  return groups;
}

function parseIpv6(text: string): bigint | null {
  const halves = text.split('::');
  if (halves.length > 2) {
    return null;
  }
  const head = parseGroups(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1]!, true) : [];
  if (head === null || tail === null) {
    return null;
  }
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) {
    return null;
  }
  const groups = [...head, ...Array<bigint>(missing).fill(0n), ...tail];
  return groups.reduce((acc, g) => (acc << 16n) | g, 0n);
}

/** Parses an IPv4 or IPv6 address (blanks around it allowed); `null` when it is not one. */
export function parseIp(raw: string): IpAddress | null {
  const text = raw.trim();
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === null ? null : { version: 6, value };
  }
  const value = parseIpv4(text);
  return value === null ? null : { version: 4, value };
}

/** The prefix length a dotted IPv4 netmask (255.255.255.0) or hostmask (0.0.0.255) stands for. */
function maskPrefix(text: string): number | null {
  const mask = parseIpv4(text);
  if (mask === null) {
    return null;
  }
  for (let prefix = 0; prefix <= 32; prefix++) {
    const ones = ((1n << BigInt(prefix)) - 1n) << BigInt(32 - prefix);
    if (mask === ones) {
      return prefix;
    }
  }
  for (let prefix = 0; prefix <= 32; prefix++) {
    if (mask === (1n << BigInt(32 - prefix)) - 1n) {
      return prefix;
    }
  }
  return null;
}

/**
 * The network `address` + `cidr` names, as netaddr.IPNetwork(address + cidr) reads it: `cidr` is
 * `/<prefix length>` (or, for IPv4, `/<netmask>` or `/<hostmask>`), or empty for the address alone.
 * Returns an error message when either part is not valid.
 */
export function parseNetwork(address: string, cidr: string): IpNetwork | string {
  const text = (address + cidr).trim();
  const slash = text.indexOf('/');
  const ip = parseIp(slash < 0 ? text : text.slice(0, slash));
  if (ip === null) {
    return `"${address}" is not an IP address`;
  }
  const bits = BITS[ip.version];
  let prefix: number | null = bits;
  if (slash >= 0) {
    const rest = text.slice(slash + 1).trim();
    if (/^\+?\d+$/.test(rest)) {
      prefix = Number(rest) <= bits ? Number(rest) : null;
    } else {
      prefix = ip.version === 4 ? maskPrefix(rest) : null;
    }
  }
  if (prefix === null) {
    return `"${cidr}" is not a prefix length or netmask for ${address}`;
  }
  const size = 1n << BigInt(bits - prefix);
  const first = (ip.value / size) * size;
  return { version: ip.version, prefix, first, last: first + size - 1n };
}

/** Whether `ip` is inside `network` (never, across versions). */
export function inNetwork(ip: IpAddress, network: IpNetwork): boolean {
  return ip.version === network.version && ip.value >= network.first && ip.value <= network.last;
}

/**
 * The trait that gives a host the IP `address` (`10.8.1.1` -> `CUSTOM_HOST_IP_10_8_1_1`). An IPv6
 * address's dotted IPv4 tail is written as two hex groups (`::ffff:10.8.1.1` ->
 * `CUSTOM_HOST_IP__FFFF_A08_101`): four decimal groups always read as IPv4.
 */
export function hostIpTrait(address: string): string {
  let text = address.trim();
  const tail = /:(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail !== null) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
    text = `${text.slice(0, tail.index)}:${hex(a, b)}:${hex(c, d)}`;
  }
  return HOST_IP_TRAIT_PREFIX + text.toUpperCase().replace(/[.:]/g, '_');
}

/** What a host's IP traits say: nothing, one address, or a problem. */
export type HostIpReading =
  | { readonly kind: 'none' }
  | { readonly kind: 'ip'; readonly text: string; readonly ip: IpAddress }
  | { readonly kind: 'invalid'; readonly problem: string };

function ipTextOfTrait(trait: string): string {
  const suffix = trait.slice(HOST_IP_TRAIT_PREFIX.length);
  return /^\d{1,3}(?:_\d{1,3}){3}$/.test(suffix)
    ? suffix.replace(/_/g, '.')
    : suffix.replace(/_/g, ':').toLowerCase();
}

/**
 * The host's IP (Nova `HostState.host_ip`): the root provider's `CUSTOM_HOST_IP_<address>` trait.
 * A trait that is not an address, or traits naming different addresses, make it `invalid`.
 */
export function readHostIp(host: HostView): HostIpReading {
  const traits = host.root.traits.filter((t) => t.startsWith(HOST_IP_TRAIT_PREFIX));
  if (traits.length === 0) {
    return { kind: 'none' };
  }
  const found = new Map<bigint, { text: string; ip: IpAddress }>();
  for (const trait of traits) {
    const text = ipTextOfTrait(trait);
    const ip = parseIp(text);
    if (ip === null) {
      return { kind: 'invalid', problem: `trait ${trait} does not name an IP address` };
    }
    const key = ip.value * 2n + (ip.version === 6 ? 1n : 0n);
    if (!found.has(key)) {
      found.set(key, { text, ip });
    }
  }
  if (found.size > 1) {
    return { kind: 'invalid', problem: `traits ${traits.join(', ')} name different IP addresses` };
  }
  const [only] = found.values();
  return { kind: 'ip', ...only! };
}
