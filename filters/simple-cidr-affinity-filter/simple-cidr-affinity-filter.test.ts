// Table tests for SimpleCIDRAffinityFilter (after nova/tests/unit/scheduler/filters/
// test_affinity_filters.py TestSimpleCIDRAffinityFilter): the host's IP trait against the network
// of hints build_near_host_ip + cidr, read as netaddr does.
import { buildHostView, buildRequestSpec } from '../../src/scheduler/plugin-testing';
import { buildPlugin, verdictOf } from '../../test/support/plugin';
import { hostIpTrait } from '../host-state/ip';
import {
  CODE_INVALID_HINT,
  CODE_NO_HOST_IP,
  CODE_OUTSIDE,
  create,
  NAME,
  REASON_INVALID_HINT,
  REASON_NO_HOST_IP,
  REASON_OUTSIDE,
} from './index';

function verdict(traits: string[], hints: Record<string, string[]>) {
  const host = buildHostView({ providers: [{ uuid: 'h1', name: 'host1', traits }] });
  return verdictOf(buildPlugin(create, NAME), host, buildRequestSpec({ hints }));
}

const at = (ip: string) => [hostIpTrait(ip)];

describe(NAME, () => {
  it.each<[string, string[], Record<string, string[]>, boolean]>([
    // Nova's cases
    ['passes /24', at('10.8.1.1'), { cidr: ['/24'], build_near_host_ip: ['10.8.1.100'] }, true],
    ['fails /32', at('10.8.1.1'), { cidr: ['/32'], build_near_host_ip: ['10.8.1.100'] }, false],
    ['no hints', at('10.8.1.1'), {}, true],
    // berth
    ['no hints, no host IP', [], {}, true],
    ['cidr defaults to /24', at('10.8.1.1'), { build_near_host_ip: ['10.8.1.100'] }, true],
    [
      'cidr defaults to /24: outside',
      at('10.8.2.1'),
      { build_near_host_ip: ['10.8.1.100'] },
      false,
    ],
    ['an empty address is no hint', [], { build_near_host_ip: [''] }, true],
    [
      'an empty cidr is the address alone',
      at('10.8.1.100'),
      { cidr: [''], build_near_host_ip: ['10.8.1.100'] },
      true,
    ],
    [
      'an empty cidr: another address',
      at('10.8.1.1'),
      { cidr: [''], build_near_host_ip: ['10.8.1.100'] },
      false,
    ],
    [
      '/0 takes every IPv4 host',
      at('192.0.2.7'),
      { cidr: ['/0'], build_near_host_ip: ['10.8.1.100'] },
      true,
    ],
    [
      'netmask form',
      at('10.8.1.1'),
      { cidr: ['/255.255.255.0'], build_near_host_ip: ['10.8.1.100'] },
      true,
    ],
    [
      'hostmask form',
      at('10.8.2.1'),
      { cidr: ['/0.0.0.255'], build_near_host_ip: ['10.8.1.100'] },
      false,
    ],
    ['/16', at('10.8.200.3'), { cidr: ['/16'], build_near_host_ip: ['10.8.1.100'] }, true],
    ['IPv6 /64', at('fe80::2'), { cidr: ['/64'], build_near_host_ip: ['fe80::1'] }, true],
    [
      'IPv6 /64: outside',
      at('fe80:0:0:1::2'),
      { cidr: ['/64'], build_near_host_ip: ['fe80::1'] },
      false,
    ],
    [
      'IPv4 host, IPv6 network',
      at('10.0.0.1'),
      { cidr: ['/0'], build_near_host_ip: ['::'] },
      false,
    ],
    [
      'IPv6 written in full',
      at('2001:db8:0:0:0:0:0:1'),
      { cidr: ['/128'], build_near_host_ip: ['2001:db8::1'] },
      true,
    ],
  ])('%s -> %p', (_name, traits, hints, want) => {
    const v = verdict(traits, hints);
    expect(v.fits).toBe(want);
    expect(!v.fits && v.code).toBe(!want && CODE_OUTSIDE);
  });

  it('names the host IP and the network when it is outside', () => {
    expect(verdict(at('10.8.1.1'), { cidr: ['/32'], build_near_host_ip: ['10.8.1.100'] })).toEqual({
      fits: false,
      reason: `${REASON_OUTSIDE}: 10.8.1.1, not in 10.8.1.100/32`,
      code: 'cidr_affinity.outside',
    });
  });

  it.each<[string, string[]]>([
    ['no IP trait', []],
    ['a trait that is no address', ['CUSTOM_HOST_IP_FOO']],
    ['two different addresses', [...at('10.8.1.1'), ...at('10.8.1.2')]],
  ])('rejects a host with %s', (_name, traits) => {
    const v = verdict(traits, { build_near_host_ip: ['10.8.1.100'] });
    expect(!v.fits && v.reason.startsWith(`${REASON_NO_HOST_IP}: `)).toBe(true);
    expect(!v.fits && v.code).toBe(CODE_NO_HOST_IP);
  });

  it.each<[string, Record<string, string[]>]>([
    ['an address that is none', { build_near_host_ip: ['10.8.1'] }],
    ['a prefix too long', { build_near_host_ip: ['10.8.1.100'], cidr: ['/33'] }],
    ['a cidr without slash', { build_near_host_ip: ['10.8.1.100'], cidr: ['24'] }],
    ['a netmask for IPv6', { build_near_host_ip: ['fe80::1'], cidr: ['/255.255.0.0'] }],
    ['a non-contiguous netmask', { build_near_host_ip: ['10.8.1.100'], cidr: ['/255.0.255.0'] }],
    ['two addresses', { build_near_host_ip: ['10.8.1.100', '10.8.1.101'] }],
    ['two cidrs', { build_near_host_ip: ['10.8.1.100'], cidr: ['/24', '/16'] }],
  ])('rejects every host for %s', (_name, hints) => {
    const v = verdict(at('10.8.1.1'), hints);
    expect(!v.fits && v.reason.startsWith(REASON_INVALID_HINT)).toBe(true);
    expect(!v.fits && v.code).toBe(CODE_INVALID_HINT);
  });
});
