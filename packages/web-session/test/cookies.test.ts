import { describe, expect, it } from 'vitest';
import { getCookieValues, parseCookieHeader, serializeCookie } from '../src/index.ts';

describe('parseCookieHeader', () => {
  it('when the header is absent or empty, then there are no cookies', () => {
    expect(parseCookieHeader(undefined).size).toBe(0);
    expect(parseCookieHeader('').size).toBe(0);
    expect(parseCookieHeader(';;  ; ').size).toBe(0);
  });

  it('when pairs are separated with odd spacing, then names and values are trimmed', () => {
    const c = parseCookieHeader(' a=1;b=2 ;   c = 3 ;d=');
    expect([...c]).toEqual([['a', '1'], ['b', '2'], ['c', '3'], ['d', '']]);
  });

  it('when a value contains "=", then only the first "=" splits', () => {
    expect(parseCookieHeader('t=v1.abc==.x=y').get('t')).toBe('v1.abc==.x=y');
  });

  it('when a value is quoted, then the quotes are removed', () => {
    expect(parseCookieHeader('a="hello"; b="').get('a')).toBe('hello');
    expect(parseCookieHeader('b="').get('b')).toBe('"');
  });

  it('when a value is percent-encoded, then it is decoded, and broken encoding is kept raw', () => {
    expect(parseCookieHeader('a=x%20y; b=%E0%A4%A; c=100%').get('a')).toBe('x y');
    expect(parseCookieHeader('b=%E0%A4%A').get('b')).toBe('%E0%A4%A');
    expect(parseCookieHeader('c=100%').get('c')).toBe('100%');
  });

  it('when a part has no "=" or an invalid name, then it is skipped and parsing goes on', () => {
    const c = parseCookieHeader('flag; =nameless; bad name=1; ok=2; (x)=3');
    expect([...c]).toEqual([['ok', '2']]);
  });

  it('when a name repeats, then the map keeps the first and getCookieValues returns all in order', () => {
    expect(parseCookieHeader('s=first; s=second').get('s')).toBe('first');
    expect(getCookieValues('s=first; x=1; s=second', 's')).toEqual(['first', 'second']);
  });

  it('when names look like object keys, then they are ordinary cookies', () => {
    const c = parseCookieHeader('__proto__=x; constructor=y');
    expect(c.get('__proto__')).toBe('x');
    expect(c.get('constructor')).toBe('y');
  });

  it('when several Cookie headers arrive as an array, then they are read as one', () => {
    expect([...parseCookieHeader(['a=1', 'b=2'])]).toEqual([['a', '1'], ['b', '2']]);
  });

  it('when the header is huge, then parsing stays bounded', () => {
    const header = Array.from({ length: 5000 }, (_, i) => `k${i}=v`).join('; ');
    expect(parseCookieHeader(header).size).toBeLessThanOrEqual(256);
  });
});

describe('serializeCookie', () => {
  it('when attributes are given, then they are emitted', () => {
    const s = serializeCookie('__Host-s', 'v1.abc.def', { maxAgeSeconds: 60, httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(s).toMatch(/^__Host-s=v1\.abc\.def; Path=\/; Max-Age=60; Expires=[^;]+ GMT; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('when max-age is 0, then the cookie expires in 1970', () => {
    expect(serializeCookie('s', '', { maxAgeSeconds: 0 })).toBe('s=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });

  it('when the name or value would be mangled, then it throws', () => {
    expect(() => serializeCookie('a b', 'v')).toThrow(TypeError);
    expect(() => serializeCookie('a', 'x;y')).toThrow(TypeError);
    expect(() => serializeCookie('a', 'x y')).toThrow(TypeError);
    expect(() => serializeCookie('a', 'v', { path: '/x;Domain=evil' })).toThrow(TypeError);
    expect(() => serializeCookie('__Host-a', 'v', { secure: false })).toThrow(TypeError);
  });
});
