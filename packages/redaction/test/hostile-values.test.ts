// Values built to make a backtracking matcher stall: each is 10^6 characters, and each redaction
// must finish (the test's time box is the bound: a quadratic scan of 10^6 characters takes minutes)
// with the right answer.
import { describe, expect, it } from 'vitest';
import { compileLinearPattern, compilePolicy } from '../src/index.ts';

const M = 1_000_000;
const all = compilePolicy({ version: 1, policy: { custom: [{ name: 'nested', pattern: '(a+)+$' }, { name: 'word', pattern: '([a-z]+[0-9]*)+@' }] } });
if (!all.ok) throw new Error(all.reason);
const redact = (s: string): { out: string; counts: Record<string, number> } => {
  const counts: Record<string, number> = {};
  return { out: all.redactor.redactText(s, counts), counts };
};

describe('hostile values', () => {
  it.each<[string, string]>([
    ['local-part characters and no @', 'a'.repeat(M)],
    ['long local parts before each @', ('a'.repeat(70) + '@').repeat(Math.floor(M / 71))],
    ['a domain that never ends in a TLD', `x@${'a1-'.repeat(M / 3)}`],
    ['digits only', '4'.repeat(M)],
    ['digits and separators', '1 2-'.repeat(M / 4)],
    ['phone characters', '(1) '.repeat(M / 4)],
    ['hex and colons', 'ab:'.repeat(M / 3)],
    ['dotted digits', '1.'.repeat(M / 2)],
    ['IBAN prefixes', 'DE89 '.repeat(M / 5)],
    ['bearer words', 'Bearer '.repeat(M / 7)],
    ['JWT-shaped parts', 'eyJ.'.repeat(M / 4)],
  ])('when a value of 10^6 characters is %s, then it is scanned to the end', (_what, value) => {
    const r = redact(value);
    expect(r.out.length).toBeGreaterThan(0);
    expect(r.counts.nested ?? 0).toBeLessThanOrEqual(1);
  });

  it('when an e-mail and a card follow 10^6 characters of noise, then both are still found', () => {
    const r = redact(`${'1.'.repeat(M / 2)} mail 42@y.io card 4111 1111 1111 1111`);
    expect(r.out.endsWith(' mail [EMAIL] card [CARD]')).toBe(true);
  });

  it('when a custom pattern with nested quantifiers meets 10^6 characters, then the linear engine answers', () => {
    expect(redact(`${'a'.repeat(M)}!`).counts).toEqual({});
    expect(redact('a'.repeat(M)).counts).toEqual({ nested: 1 });
  });
});

describe('custom patterns', () => {
  it.each<[string, string, RegExp]>([
    ['a backreference', '(a+)\\1', /linear time/],
    ['a lookahead', 'x(?=y)', /linear time/],
    ['a lookbehind', '(?<=x)y', /linear time/],
    ['a large counted repetition', '(ab){1,500}', /linear time/],
    ['invalid syntax', '(unclosed', /not a valid regular expression/],
    ['a pattern matching the empty string', 'a*', /empty string/],
    ['an empty pattern', '', /empty/],
    ['a pattern over 256 characters', 'a'.repeat(257), /longer than 256/],
  ])('when the pattern is %s, then it is refused', (_what, source, reason) => {
    const r = compileLinearPattern(source);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('when a pattern backtracks exponentially elsewhere, then it is accepted and runs on the linear engine', () => {
    const r = compileLinearPattern('(x+x+)+y');
    expect(r.ok).toBe(true);
    if (r.ok) expect('x'.repeat(M).replace(r.re, '[X]')).toHaveLength(M);
  });
});
