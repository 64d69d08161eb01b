import { describe, expect, it } from 'vitest';
import { domainName, normalizeDomain } from '../src/domain-name.ts';

describe('normalizeDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['example.com.', 'example.com'],
    ['Sub-1.Example.co.uk', 'sub-1.example.co.uk'],
    ['Bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['acme.test', 'acme.test'],
    ['123.example', '123.example'],
  ])('when the input is %j, then the name is %j', (input, expected) => {
    expect(normalizeDomain(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['localhost', 'two labels'],
    ['com', 'two labels'],
    ['1.2.3.4', 'IP address'],
    ['[::1]', 'IP address'],
    ['::1', 'IP address'],
    ['0x7f.1', 'numeric'],
    ['example.123', 'numeric'],
    ['example.com..', 'label'],
    ['.example.com', 'label'],
    ['a..example.com', 'label'],
    ['-bad.example.com', 'label'],
    ['bad-.example.com', 'label'],
    ['under_score.example.com', 'letters, digits'],
    ['*.example.com', 'letters, digits'],
    ['example.com/path', 'letters, digits'],
    ['user@example.com', 'letters, digits'],
    ['example.com:443', 'letters, digits'],
    ['https://example.com', 'letters, digits'],
    ['exa mple.com', 'letters, digits'],
    ['xn--zz.example', 'internationalised'],
    [`${'a'.repeat(64)}.example.com`, 'label'],
    [`${'abcdefghi.'.repeat(25)}example.com`, '253'],
  ])('when the input is %j, then it is refused (%s)', (input, why) => {
    const r = normalizeDomain(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(why);
  });

  it('when used as a zod schema, then it yields the normalised name or the reason', () => {
    expect(domainName.parse('Example.COM.')).toBe('example.com');
    const r = domainName.safeParse('1.2.3.4');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toContain('IP address');
  });
});
