import { describe, expect, it } from 'vitest';
import { formatIp, parseIp } from '../src/ip-address.ts';
import { specialAddressClass } from '../src/special-addresses.ts';

const classOf = (text: string): string | undefined => {
  const ip = parseIp(text);
  if (!ip) throw new Error(`test input is not an IP: ${text}`);
  return specialAddressClass(ip);
};

describe('parseIp', () => {
  it('when given IPv4, IPv6, bracketed or zoned literals, then it yields their bytes', () => {
    expect(Array.from(parseIp('10.1.2.3')?.bytes ?? [])).toEqual([10, 1, 2, 3]);
    expect(formatIp(parseIp('[::1]') ?? fail())).toBe('0:0:0:0:0:0:0:1');
    expect(formatIp(parseIp('fe80::1%eth0') ?? fail())).toBe('fe80:0:0:0:0:0:0:1');
    expect(formatIp(parseIp('::ffff:127.0.0.1') ?? fail())).toBe('0:0:0:0:0:ffff:7f00:1');
    expect(formatIp(parseIp('2001:db8:0:0:1::') ?? fail())).toBe('2001:db8:0:0:1:0:0:0');
  });

  it('when given something that is not a canonical literal, then it yields nothing', () => {
    for (const s of ['example.com', '0177.0.0.1', '1.2.3', '256.1.1.1', '::g', '']) expect(parseIp(s)).toBeUndefined();
  });
});

describe('specialAddressClass', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.254', 'link_local'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'link_local'],
    ['::127.0.0.1', 'reserved'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link_local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['2002:7f00:1::', 'reserved'],
    ['100::1', 'reserved'],
    ['fec0::1', 'reserved'],
  ])('when the address is %s, then it is %s', (ip, cls) => {
    expect(classOf(ip)).toBe(cls);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '93.184.216.34', '::ffff:8.8.8.8', '64:ff9b::808:808', '2606:4700:4700::1111', '2a00:1450:4001::200e'])(
    'when the address %s is a public host, then it has no class',
    (ip) => {
      expect(classOf(ip)).toBeUndefined();
    },
  );
});

function fail(): never {
  throw new Error('unexpected parse failure');
}
