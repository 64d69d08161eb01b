import { describe, expect, it } from 'vitest';
import { allowsAddress, allowsHost, parseAllowEntry, parseAllowList } from '../src/allow-list.ts';
import { parseIp, type IpAddress } from '../src/ip-address.ts';

const ip = (s: string): IpAddress => parseIp(s) ?? (() => { throw new Error(s); })();

describe('parseAllowEntry', () => {
  it('when entries name hosts, addresses, ports or networks, then each is understood', () => {
    expect(parseAllowEntry('LocalHost.')).toEqual({ kind: 'host', host: 'localhost' });
    expect(parseAllowEntry('idp.internal:8443')).toEqual({ kind: 'host', host: 'idp.internal', port: 8443 });
    expect(parseAllowEntry('127.0.0.1')).toMatchObject({ kind: 'network', network: { prefix: 32 } });
    expect(parseAllowEntry('127.0.0.1:4000')).toMatchObject({ kind: 'network', port: 4000 });
    expect(parseAllowEntry('[::1]:4000')).toMatchObject({ kind: 'network', port: 4000, network: { prefix: 128 } });
    expect(parseAllowEntry('::1')).toMatchObject({ kind: 'network', network: { prefix: 128 } });
    expect(parseAllowEntry('10.0.0.0/8')).toMatchObject({ kind: 'network', network: { prefix: 8 } });
    expect(parseAllowEntry('::ffff:10.0.0.0/104')).toMatchObject({ kind: 'network', network: { prefix: 8, base: { version: 4 } } });
  });

  it('when an entry is malformed, then it is refused', () => {
    for (const bad of ['', 'http://x', 'a b', 'host:0', 'host:70000', 'host:x', '10.0.0.0/33', '[::1', '[::1]x', '*.example.com']) {
      expect(parseAllowEntry(bad), bad).toBeUndefined();
    }
    expect(() => parseAllowList(['localhost', 'bad entry'])).toThrow(/bad entry/);
  });
});

describe('matching', () => {
  const list = parseAllowList(['localhost', 'idp.test:8443', '127.0.0.1:4000', '10.1.0.0/16']);

  it('when a host entry has no port, then any port of that name matches', () => {
    expect(allowsHost(list, 'LOCALHOST', 1)).toBe(true);
    expect(allowsHost(list, 'idp.test', 8443)).toBe(true);
    expect(allowsHost(list, 'idp.test', 443)).toBe(false);
    expect(allowsHost(list, 'other.test', 8443)).toBe(false);
  });

  it('when an address entry has a port, then only that port matches; mapped IPv6 counts as IPv4', () => {
    expect(allowsAddress(list, ip('127.0.0.1'), 4000)).toBe(true);
    expect(allowsAddress(list, ip('::ffff:127.0.0.1'), 4000)).toBe(true);
    expect(allowsAddress(list, ip('127.0.0.1'), 4001)).toBe(false);
    expect(allowsAddress(list, ip('10.1.200.3'), 80)).toBe(true);
    expect(allowsAddress(list, ip('10.2.0.1'), 80)).toBe(false);
    expect(allowsAddress(list, ip('::1'), 4000)).toBe(false);
  });
});
