// Expected strings are Python 3's `json.dumps(v, sort_keys=True, separators=(",", ":"))` output
// for the same values (computed with CPython and pasted here).
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonLength, compareCodePoints } from '../src/canonical-json.ts';

describe('canonicalJson', () => {
  it('when keys are nested, then every level is sorted and no spaces are written', () => {
    expect(canonicalJson({ b: 1, a: [1, 2, { d: null, c: true }], é: 'ü' })).toBe('{"a":[1,2,{"c":true,"d":null}],"b":1,"\\u00e9":"\\u00fc"}');
    expect(canonicalJson({ nested: { z: { y: [], x: {} }, a: '日本' } })).toBe('{"nested":{"a":"\\u65e5\\u672c","z":{"x":{},"y":[]}}}');
  });

  it('when strings hold an emoji, control characters and </script>, then they are escaped as Python does', () => {
    const v = { emoji: '😀', text: '</script>', ctrl: '\x00\x01\x1f\x7f\b\f\n\r\t"\\' };
    expect(canonicalJson(v)).toBe('{"ctrl":"\\u0000\\u0001\\u001f\\u007f\\b\\f\\n\\r\\t\\"\\\\","emoji":"\\ud83d\\ude00","text":"</script>"}');
    expect(canonicalJson('\u2028\u2029')).toBe('"\\u2028\\u2029"');
  });

  it('when keys include astral and private-use characters, then they sort by code point, not UTF-16 unit', () => {
    // JS's default sort would put "😀" (0xd83d…) before "\ue000".
    expect(canonicalJson({ '\ue000': 1, '😀': 2, z: 3, A: 4, é: 5 })).toBe('{"A":4,"z":3,"\\u00e9":5,"\\ue000":1,"\\ud83d\\ude00":2}');
    expect(compareCodePoints('\ue000', '😀')).toBeLessThan(0);
    expect(compareCodePoints('a😀', 'a\ue000')).toBeGreaterThan(0);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });

  it('when numbers are written, then integers keep their digits and floats use Python repr', () => {
    expect(canonicalJson([1, -2, 3.5, 0, 0.1, 1e-7, 1e-5, -2.5e-7, 1.2345e-10, 0.0001, 0.00012, 5e-324, 123.456, 1e15 + 0.5, 1e20]))
      .toBe('[1,-2,3.5,0,0.1,1e-07,1e-05,-2.5e-07,1.2345e-10,0.0001,0.00012,5e-324,123.456,1000000000000000.5,100000000000000000000]');
  });

  it('when a value parsed from JSON is serialized, then the Python bytes come back', () => {
    const text = '{"z":[true,false,null],"a":{"k":"v\\u00e9","\\ud83d\\ude00":"x"},"m":-12.75}';
    expect(canonicalJson(JSON.parse(text))).toBe('{"a":{"k":"v\\u00e9","\\ud83d\\ude00":"x"},"m":-12.75,"z":[true,false,null]}');
  });

  it('when members are undefined, then they are left out (objects) or null (arrays), as JSON.stringify does', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  });

  it('when nesting is very deep, then it does not overflow the stack', () => {
    let v: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) v = [v];
    const s = canonicalJson(v);
    expect(s.length).toBe(200_000 + 6);
  });

  it('when shared (non-circular) references appear, then both are written; a cycle is refused', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyc: Record<string, unknown> = {};
    cyc.self = cyc;
    expect(() => canonicalJson(cyc)).toThrow(/circular/);
    expect(() => canonicalJson(Number.NaN)).toThrow(/non-finite/);
  });

  it('when a key is __proto__ (as JSON.parse creates it), then it is an ordinary key', () => {
    expect(canonicalJson(JSON.parse('{"__proto__":{"a":1},"b":2}'))).toBe('{"__proto__":{"a":1},"b":2}');
  });
});

describe('canonicalJsonLength', () => {
  const values: unknown[] = [
    null, true, false, 0, -1.5, 1e-7, 0.00001, 123456789012, 'plain', '', 'é😀\u0000\n"\\</script>\x7f',
    { b: 1, a: [1, 2, { d: null, c: true }], é: 'ü', skipped: undefined },
    [undefined, () => 1, [], {}, [[[]]]],
    { when: new Date('2024-07-01T10:00:00Z'), nested: { z: { y: [], x: {} }, a: '日本' } },
  ];

  it('when a value fits the limit, then the length is exactly that of canonicalJson', () => {
    for (const v of values) expect(canonicalJsonLength(v, 1_000_000)).toBe(canonicalJson(v).length);
    expect(canonicalJsonLength(values, 1_000_000)).toBe(canonicalJson(values).length);
  });

  it('when a subtree is met again, then the memoized length is reused and stays exact', () => {
    const shared = { ids: Array.from({ length: 100 }, (_, i) => `id-${i}`) };
    const memo = new WeakMap<object, number>();
    const one = canonicalJsonLength(shared, 1_000_000, memo);
    expect(memo.get(shared)).toBe(one);
    const twice = { a: shared, b: shared };
    expect(canonicalJsonLength(twice, 1_000_000, memo)).toBe(canonicalJson(twice).length);
  });

  it('when a value is far larger than the limit, then counting stops early with a number above it', () => {
    // Each item counts its reads: a count that went on to the end would read all million of them.
    let reads = 0;
    const huge = { list: Array.from({ length: 1_000_000 }, (_, i) => ({ get i() { reads++; return i; } })), text: 'x'.repeat(50_000_000) };
    const n = canonicalJsonLength(huge, 1024);
    expect(n).toBeGreaterThan(1024);
    // Stopped within one value past the limit, not at the document's length (about 60 MB).
    expect(n).toBeLessThan(1024 + 16);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(1024);
    expect(canonicalJsonLength('y'.repeat(10_000_000), 1024)).toBeGreaterThan(1024);
    // (How long it takes: test/bench/bounded-work.bench.ts.)
  });
});
