// The probe's key goes out in a request header, so the contract admits only what Node can write
// there and every provider issues: printable ASCII without spaces (or nothing at all).
import { describe, expect, it } from 'vitest';
import { probeProviderRequest } from '../src/provider-probe.ts';

const KEY = 'sk-live-TOPSECRET-0123456789';
const parse = (key: unknown) => probeProviderRequest.safeParse({ kind: 'openai', provider: { key } });

describe('probeProviderRequest: provider.key', () => {
  it.each([
    ['CR/LF (header injection)', `${KEY}\r\nX-Injected: 1`], ['a trailing LF', `${KEY}\n`], ['a leading CR', `\r${KEY}`],
    ['a space inside', 'sk-live TOPSECRET'], ['a trailing space', `${KEY} `], ['a tab', `${KEY}\t`], ['DEL', `${KEY}\u007f`],
    ['a C0 control', `${KEY}\u0001`], ['Latin-1 (é)', `${KEY}é`], ['a no-break space', `${KEY}\u00a0`], ['U+0100', `${KEY}\u0100`],
    ['a BMP symbol', `${KEY}\u2603`], ['an astral emoji', `${KEY}\u{1f511}`], ['only spaces', '   '],
  ])('when the key holds %s, then it is refused naming the rule, never the value', (_, key) => {
    const r = parse(key);
    expect(r.success).toBe(false);
    const issues = r.error!.issues;
    expect(issues.map((i) => [i.path, i.message])).toContainEqual([['provider', 'key'], 'key must contain only printable ASCII characters without spaces']);
    for (const i of issues) expect(i.message).not.toContain('TOPSECRET');
  });

  it('when the key is printable ASCII (every character 0x21-0x7E), empty, null or absent, then it parses unchanged', () => {
    const printable = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    for (const key of [KEY, printable, 'sk-ant-api03-AbC_dEf-123==', '', null, undefined]) {
      const r = parse(key);
      expect(r.success, JSON.stringify(key)).toBe(true);
      expect(r.data!.provider.key).toBe(key);
    }
  });

  it('when the key also holds NUL or a lone surrogate, then those reasons are still given', () => {
    expect(parse(`${KEY}\u0000`).error!.issues.map((i) => i.message)).toContain('key must not contain NUL (U+0000)');
    expect(parse(`${KEY}\ud800`).error!.issues.map((i) => i.message)).toEqual(expect.arrayContaining([expect.stringMatching(/^key must not contain a lone UTF-16 surrogate/)]));
  });
});
