import { describe, expect, it } from 'vitest';
import { OutboundError } from '../src/outbound-error.ts';
import { isLocalhostName, parseTarget } from '../src/target-url.ts';

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
    return undefined;
  } catch (err) {
    return err instanceof OutboundError ? err.code : 'not-outbound';
  }
};

describe('parseTarget', () => {
  it('when the URL is https, then host and default port are taken and the fragment dropped', () => {
    const t = parseTarget('HTTPS://Issuer.Example.COM./realms/a?x=1#frag', { allowInsecure: false });
    expect(t).toMatchObject({ hostname: 'issuer.example.com', port: 443, literal: undefined });
    expect(t.url.href).toBe('https://issuer.example.com./realms/a?x=1');
  });

  it('when the host is an IP in any spelling, then it becomes a canonical literal', () => {
    expect(parseTarget('http://0x7f.1:8080/', { allowInsecure: true })).toMatchObject({ hostname: '127.0.0.1', port: 8080 });
    expect(parseTarget('http://2130706433/', { allowInsecure: true }).hostname).toBe('127.0.0.1');
    expect(parseTarget('https://[::ffff:127.0.0.1]/', { allowInsecure: false })).toMatchObject({ hostname: '::ffff:7f00:1', literal: { version: 6 } });
  });

  it.each([
    ['ftp://example.com/x'],
    ['file:///etc/passwd'],
    ['javascript:alert(1)'],
    ['gopher://example.com/'],
    ['not a url'],
    ['//example.com/relative'],
    ['https://user:pass@example.com/'],
    ['https://user@example.com/'],
    ['https://:secret@example.com/'],
    ['http://example.com/'],
    [`https://example.com/${'a'.repeat(9000)}`],
  ])('when the URL is %s, then it is a bad_url', (url) => {
    expect(code(() => parseTarget(url, { allowInsecure: false }))).toBe('bad_url');
  });

  it('when insecure http is allowed, then http URLs pass and other schemes still fail', () => {
    expect(code(() => parseTarget('http://example.com/', { allowInsecure: true }))).toBeUndefined();
    expect(code(() => parseTarget('ws://example.com/', { allowInsecure: true }))).toBe('bad_url');
  });

  it('when a redirect location is relative, then it resolves against the current URL', () => {
    const base = new URL('https://a.example/x/y');
    expect(parseTarget('../z', { allowInsecure: false, base }).url.href).toBe('https://a.example/z');
    expect(code(() => parseTarget('http://a.example/', { allowInsecure: false, base }))).toBe('bad_url');
  });
});

describe('isLocalhostName', () => {
  it('when the name means this machine, then it is recognised', () => {
    for (const n of ['localhost', 'localhost.localdomain', 'app.localhost', 'ip6-localhost']) expect(isLocalhostName(n)).toBe(true);
    for (const n of ['localhost.example.com', 'mylocalhost', 'example.com']) expect(isLocalhostName(n)).toBe(false);
  });
});
