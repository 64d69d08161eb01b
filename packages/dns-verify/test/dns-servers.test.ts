import { describe, expect, it } from 'vitest';
import { dnsServerProblem, dnsVerifyEnv, parseDnsServers } from '../src/dns-servers.ts';

describe('DNS server lists', () => {
  it('when entries are IP literals with optional ports, then they are accepted as given', () => {
    expect(parseDnsServers(' 127.0.0.1:5353, 1.1.1.1 ,[::1]:53,2001:4860:4860::8888,[::1],')).toEqual([
      '127.0.0.1:5353',
      '1.1.1.1',
      '[::1]:53',
      '2001:4860:4860::8888',
      '[::1]',
    ]);
    expect(parseDnsServers(undefined)).toEqual([]);
    expect(parseDnsServers(['8.8.8.8'])).toEqual(['8.8.8.8']);
  });

  it.each(['dns.google', 'localhost:53', '1.2.3', '999.1.1.1', '127.0.0.1:0', '127.0.0.1:70000', '[1.2.3.4]:53', '::1:53x', '[::1'])(
    'when the entry is %j, then it is refused',
    (entry) => {
      expect(dnsServerProblem(entry)).toBeDefined();
      expect(() => parseDnsServers([entry])).toThrow(TypeError);
    },
  );

  it('when read from the environment, then the list is split, validated and the timeout defaulted', () => {
    expect(dnsVerifyEnv.parse({})).toEqual({ DNS_SERVERS: [], DNS_TIMEOUT_MS: 5000 });
    expect(dnsVerifyEnv.parse({ DNS_SERVERS: '127.0.0.1:5300', DNS_TIMEOUT_MS: '800' })).toEqual({ DNS_SERVERS: ['127.0.0.1:5300'], DNS_TIMEOUT_MS: 800 });
    const bad = dnsVerifyEnv.safeParse({ DNS_SERVERS: '127.0.0.1,dns.example' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('dns.example');
  });
});
