import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonObject, jsonProblem, jsonValue, openObject, TEXT_LIMITS, text, textKey, textRecord, texts } from '@llm/contracts';

const messages = (r: { success: boolean; error?: z.ZodError }): string[] => r.error?.issues.map((i) => i.message) ?? [];

/** Nested arrays, `levels` deep, around `leaf`. */
function nested(levels: number, leaf: unknown = 'x'): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe('text', () => {
  const s = text({ max: 5 });

  it('when a string holds NUL, then it is refused naming NUL', () => {
    expect(messages(s.safeParse('a\u0000b'))).toEqual(['must not contain NUL (U+0000)']);
    expect(s.safeParse('\u0000').success).toBe(false);
  });

  it.each([
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone high surrogate at the end', 'ab\ud83d'],
    ['a lone low surrogate', 'a\udc00b'],
    ['a lone low surrogate at the start', '\ude00ab'],
    ['a pair in the wrong order', '\ude00\ud83d'],
  ])('when a string holds %s, then it is refused naming the surrogate', (_, v) => {
    expect(messages(s.safeParse(v))).toEqual(['must not contain a lone UTF-16 surrogate (U+D800-U+DFFF without its pair)']);
  });

  it('when a string holds valid surrogate pairs (emoji, astral characters), then it is accepted', () => {
    for (const v of ['😀', 'a😀b', '𝔘𝔫', '👍🏽', 'é€']) expect(s.safeParse(v).success, v).toBe(true);
  });

  it('when a string is at the maximum, then it is accepted, and one more character is refused', () => {
    expect(s.safeParse('abcde').success).toBe(true);
    expect(messages(s.safeParse('abcdef'))).toEqual(['must be at most 5 characters']);
  });

  it('when an emoji is counted, then it counts one (code points, not UTF-16 units)', () => {
    const two = text({ max: 2 });
    expect(two.safeParse('a😀').success).toBe(true);
    expect(two.safeParse('a😀b').success).toBe(false);
    expect(jsonProblem({ ['😀'.repeat(TEXT_LIMITS.key)]: '😀'.repeat(3) })).toBeUndefined();
    expect(jsonProblem({ ['😀'.repeat(TEXT_LIMITS.key + 1)]: 1 })).toBeDefined();
  });

  it('when a string is too long and holds NUL, then both problems are reported', () => {
    expect(messages(s.safeParse('abcde\u0000'))).toEqual(['must be at most 5 characters', 'must not contain NUL (U+0000)']);
  });

  it('when a label and a minimum are given, then the messages name the field', () => {
    const field = text({ min: 1, max: 3, label: 'field' });
    expect(messages(field.safeParse(undefined))).toEqual(['field is required']);
    expect(messages(field.safeParse(3))).toEqual(['field must be a string']);
    expect(messages(field.safeParse(''))).toEqual(['field must not be empty']);
    expect(messages(field.safeParse('abcd'))).toEqual(['field must be at most 3 characters']);
    expect(messages(field.safeParse('a\u0000'))).toEqual(['field must not contain NUL (U+0000)']);
  });

  it('when a preset is used, then its documented limit holds at the boundary and it refuses NUL', () => {
    const presets = [
      [texts.id, TEXT_LIMITS.id], [texts.slug, TEXT_LIMITS.slug], [texts.name, TEXT_LIMITS.name], [texts.url, TEXT_LIMITS.url],
      [texts.shortText, TEXT_LIMITS.shortText], [texts.secret, TEXT_LIMITS.secret], [texts.description, TEXT_LIMITS.description],
      [texts.longText, TEXT_LIMITS.longText], [textKey, TEXT_LIMITS.key],
    ] as const;
    for (const [schema, max] of presets) {
      expect(schema.safeParse('x'.repeat(max)).success, `${max}`).toBe(true);
      expect(schema.safeParse('x'.repeat(max + 1)).success, `${max + 1}`).toBe(false);
      expect(schema.safeParse('x\u0000').success).toBe(false);
      expect(schema.safeParse('x\ud800').success).toBe(false);
    }
    const local = 'a'.repeat(64);
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(TEXT_LIMITS.email - 64 - 1 - 63 * 3 - 3)}`;
    expect(`${local}@${domain}`.length).toBe(TEXT_LIMITS.email);
    expect(texts.email.safeParse(`${local}@${domain}x`).success).toBe(false);
    expect(texts.email.safeParse('a\u0000@example.com').success).toBe(false);
    expect(texts.email.safeParse('me@example.com').success).toBe(true);
  });
});

describe('textRecord and textKey', () => {
  const r = textRecord(z.number());

  it('when a key holds NUL or a lone surrogate, then the record is refused with the reason in the message', () => {
    const nul = r.safeParse({ ok: 1, 'a\u0000b': 2 });
    expect(nul.error?.issues.map((i) => [i.path, i.message])).toEqual([[['a\u0000b'], 'key must not contain NUL (U+0000)']]);
    expect(messages(r.safeParse({ 'a\udc00': 1 }))).toEqual(['key must not contain a lone UTF-16 surrogate (U+D800-U+DFFF without its pair)']);
  });

  it('when a key is at the key limit, then it is accepted, and one more is refused', () => {
    expect(r.safeParse({ ['k'.repeat(TEXT_LIMITS.key)]: 1 }).success).toBe(true);
    expect(messages(r.safeParse({ ['k'.repeat(TEXT_LIMITS.key + 1)]: 1 }))).toEqual([`key must be at most ${TEXT_LIMITS.key} characters`]);
  });

  it('when keys hold emoji, then they are accepted', () => {
    expect(r.safeParse({ '😀': 1, 'a.😀.b': 2 }).success).toBe(true);
  });

  it('when a plain z.record uses textKey, then bad keys are refused too', () => {
    expect(z.record(textKey, z.number()).safeParse({ 'a\u0000': 1 }).success).toBe(false);
  });
});

describe('jsonValue', () => {
  it('when any JSON without unstorable text is given, then it is accepted as is', () => {
    const v = { a: [1, 'two', null, true, { 'b😀': '😀', c: [[[]]] }], d: 1.5, e: '' };
    expect(jsonValue.parse(v)).toBe(v);
    for (const scalar of [null, 1, 'x', true, undefined]) expect(jsonValue.safeParse(scalar).success).toBe(true);
  });

  it('when a string deep inside holds NUL, then the issue points at it', () => {
    const r = z.object({ attributes: jsonValue }).safeParse({ attributes: { a: [1, { b: 'x\u0000' }] } });
    expect(r.error?.issues.map((i) => [i.path, i.message])).toEqual([[['attributes', 'a', 1, 'b'], 'must not contain NUL (U+0000)']]);
  });

  it.each([
    ['a lone high surrogate', 'x\ud800'],
    ['a lone low surrogate', '\udc00x'],
  ])('when a string holds %s, then it is refused', (_, bad) => {
    expect(jsonProblem({ a: [bad] })).toEqual({ path: ['a', 0], message: 'must not contain a lone UTF-16 surrogate (U+D800-U+DFFF without its pair)' });
  });

  it('when a key holds NUL, then the issue is on its object and the key is shown escaped', () => {
    const p = jsonProblem({ outer: { 'k\u0000': 1 } });
    expect(p).toEqual({ path: ['outer'], message: 'key "k\\u0000" must not contain NUL (U+0000)' });
    // The message itself is storable text.
    expect(p?.message.includes('\u0000')).toBe(false);
    expect(jsonProblem({ 'k\ud800': 1 })?.message).toBe('key "k\\ud800" must not contain a lone UTF-16 surrogate (U+D800-U+DFFF without its pair)');
  });

  it('when a key is at the key limit, then it is accepted, and one more is refused', () => {
    expect(jsonProblem({ ['k'.repeat(TEXT_LIMITS.key)]: 1 })).toBeUndefined();
    expect(jsonProblem({ x: { ['k'.repeat(TEXT_LIMITS.key + 1)]: 1 } })).toEqual({
      path: ['x'], message: `key "${'k'.repeat(37)}..." is longer than ${TEXT_LIMITS.key} characters`,
    });
  });

  it('when a string is at the long-text limit, then it is accepted, and one more is refused', () => {
    expect(jsonProblem('x'.repeat(TEXT_LIMITS.longText))).toBeUndefined();
    expect(jsonProblem(['x'.repeat(TEXT_LIMITS.longText + 1)])?.message).toBe(`must be at most ${TEXT_LIMITS.longText} characters`);
  });

  it('when the value nests exactly the depth limit, then it is accepted, and one more level is refused', () => {
    expect(jsonProblem(nested(TEXT_LIMITS.jsonDepth))).toBeUndefined();
    expect(jsonProblem(nested(TEXT_LIMITS.jsonDepth + 1))?.message).toBe(`nests deeper than ${TEXT_LIMITS.jsonDepth} levels`);
  });

  it('when a hostile value nests 100,000 levels, then it is refused without exhausting the stack', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 100_000; i++) { const next = {}; deep.a = next; deep = next; }
    expect(jsonValue.safeParse(root).error?.issues[0]?.message).toBe(`nests deeper than ${TEXT_LIMITS.jsonDepth} levels`);
  });

  it('when the first problem is reported, then it is the first in document order', () => {
    expect(jsonProblem({ a: 'ok', b: ['\u0000', '\ud800'], c: '\u0000' })?.path).toEqual(['b', 0]);
  });
});

describe('jsonObject', () => {
  it('when keys and values are storable, then it is accepted', () => {
    expect(jsonObject.safeParse({ 'gen_ai.prompt': 'hi 😀', n: 1, nested: { deep: ['x'] } }).success).toBe(true);
  });

  it('when a top-level key or a nested value is unstorable, then it is refused', () => {
    expect(jsonObject.safeParse({ 'a\u0000': 1 }).success).toBe(false);
    expect(jsonObject.safeParse({ a: { b: 'c\udfff' } }).success).toBe(false);
    expect(jsonObject.safeParse([]).success).toBe(false);
  });
});

describe('openObject', () => {
  const o = openObject({ name: texts.name });

  it('when a body carries fields the schema does not name, then they are kept', () => {
    expect(o.parse({ name: 'n', extra: { a: ['b'] } })).toEqual({ name: 'n', extra: { a: ['b'] } });
  });

  it('when an unnamed field has an unstorable key or value, then it is refused', () => {
    expect(messages(o.safeParse({ name: 'n', 'x\u0000': 1 }))).toEqual(['key "x\\u0000" must not contain NUL (U+0000)']);
    expect(o.safeParse({ name: 'n', extra: { a: 'b\ud800' } }).error?.issues[0]?.path).toEqual(['extra', 'a']);
    expect(o.safeParse({ name: 'n', ['k'.repeat(TEXT_LIMITS.key + 1)]: 1 }).success).toBe(false);
  });
});
