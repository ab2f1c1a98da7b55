// Table tests for the IP helpers shared by SimpleCIDRAffinityFilter and JsonFilter ($host_ip):
// strict address parsing, netaddr's reading of address + cidr, and the host IP trait convention.
import { buildHostView } from '../../src/scheduler/plugin-testing';
import { hostIpTrait, inNetwork, parseIp, parseNetwork, readHostIp } from './ip';

describe('host-state/ip', () => {
  it.each<[string, bigint | null]>([
    ['10.8.1.1', 0x0a080101n],
    [' 10.8.1.1 ', 0x0a080101n],
    ['0.0.0.0', 0n],
    ['255.255.255.255', 0xffffffffn],
    ['10.8.1', null],
    ['10.8.1.256', null],
    ['10.8.1.1.1', null],
    ['a.b.c.d', null],
    ['::', 0n],
    ['::1', 1n],
    ['fe80::1', 0xfe80_0000_0000_0000_0000_0000_0000_0001n],
    ['FE80::1', 0xfe80_0000_0000_0000_0000_0000_0000_0001n],
    ['1:2:3:4:5:6:7:8', 0x0001_0002_0003_0004_0005_0006_0007_0008n],
    ['1:2:3:4:5:6:7::', 0x0001_0002_0003_0004_0005_0006_0007_0000n],
    ['::ffff:10.8.1.1', 0xffff_0a08_0101n],
    ['1:2:3:4:5:6:7:8:9', null],
    ['1::2::3', null],
    ['fe80::1%eth0', null],
    ['10.8.1.1::', null],
    ['12345::1', null],
  ])('parses %j', (text, want) => {
    expect(parseIp(text)?.value ?? null).toBe(want);
  });

  it('reads a network as netaddr.IPNetwork(address + cidr) does', () => {
    expect(parseNetwork('10.8.1.100', '/24')).toEqual({
      version: 4,
      prefix: 24,
      first: 0x0a080100n,
      last: 0x0a0801ffn,
    });
    expect(parseNetwork('10.8.1.100', '/255.255.255.255')).toMatchObject({ prefix: 32 });
    expect(parseNetwork('10.8.1.100', '/0.0.0.0')).toMatchObject({ prefix: 0 });
    expect(parseNetwork('10.8.1.100', '/024')).toMatchObject({ prefix: 24 });
    expect(parseNetwork('10.8.1.100', '/ 24 ')).toMatchObject({ prefix: 24 });
    expect(parseNetwork('fe80::1', '/24')).toMatchObject({ version: 6, prefix: 24 });
    expect(parseNetwork('10.8.1.100', '/-1')).toEqual(
      '"/-1" is not a prefix length or netmask for 10.8.1.100',
    );
    expect(parseNetwork('10.8.1.100', '//24')).toEqual(expect.stringContaining('is not a prefix'));
  });

  it('never puts an address in a network of the other version', () => {
    const v4 = parseIp('10.8.1.1')!;
    const mapped = parseNetwork('::ffff:10.8.1.1', '/96') as Exclude<
      ReturnType<typeof parseNetwork>,
      string
    >;
    expect(inNetwork(v4, mapped)).toBe(false);
  });

  it.each([
    ['10.8.1.1', 'CUSTOM_HOST_IP_10_8_1_1'],
    ['fe80::1', 'CUSTOM_HOST_IP_FE80__1'],
    ['2001:db8::10:1', 'CUSTOM_HOST_IP_2001_DB8__10_1'],
  ])('writes %s as trait %s and reads it back', (ip, trait) => {
    expect(hostIpTrait(ip)).toBe(trait);
    const host = buildHostView({ providers: [{ uuid: 'h', traits: ['HW_CPU_X86_AVX', trait] }] });
    expect(readHostIp(host)).toEqual({ kind: 'ip', text: ip, ip: parseIp(ip) });
  });

  it('writes an IPv4 tail of an IPv6 address as hex groups, so the trait reads back the same address', () => {
    const trait = hostIpTrait('::ffff:10.8.1.1');
    expect(trait).toBe('CUSTOM_HOST_IP___FFFF_A08_101');
    const host = buildHostView({ providers: [{ uuid: 'h', traits: [trait] }] });
    expect(readHostIp(host)).toMatchObject({ kind: 'ip', ip: parseIp('::ffff:10.8.1.1') });
  });

  it('reads the root only, one address, and says what is wrong otherwise', () => {
    const child = buildHostView({
      providers: [{ uuid: 'h' }, { uuid: 'c', parentUuid: 'h', traits: [hostIpTrait('10.0.0.1')] }],
    });
    expect(readHostIp(child)).toEqual({ kind: 'none' });
    const same = buildHostView({
      providers: [
        { uuid: 'h', traits: ['CUSTOM_HOST_IP_FE80__1', 'CUSTOM_HOST_IP_FE80_0_0_0_0_0_0_1'] },
      ],
    });
    expect(readHostIp(same)).toMatchObject({ kind: 'ip', text: 'fe80::1' });
    const two = buildHostView({
      providers: [{ uuid: 'h', traits: [hostIpTrait('10.0.0.1'), hostIpTrait('10.0.0.2')] }],
    });
    expect(readHostIp(two)).toEqual({
      kind: 'invalid',
      problem:
        'traits CUSTOM_HOST_IP_10_0_0_1, CUSTOM_HOST_IP_10_0_0_2 name different IP addresses',
    });
  });
});
