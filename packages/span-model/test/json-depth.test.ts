import { describe, expect, it } from 'vitest';
import { capJsonDepth, MAX_JSON_DEPTH, TOO_DEEP_MARKER, normalizeSpan, unflatten, type JsonValue } from '../src/index.ts';

const nested = (depth: number): JsonValue => {
  let v: JsonValue = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
  return v;
};

describe('json depth', () => {
  it('when a value is shallow enough, then it is returned as it is (same object)', () => {
    const v = { a: { b: [1, 2, { c: 'x' }] } };
    expect(capJsonDepth(v)).toBe(v);
  });

  it('when a value is nested a little deeper than the bound, then the deeper part is kept as its JSON text', () => {
    const capped = capJsonDepth(nested(MAX_JSON_DEPTH + 5)) as JsonValue;
    let node: JsonValue = capped;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) node = Array.isArray(node) ? node[0]! : (node as { k: JsonValue }).k;
    expect(typeof node).toBe('string');
    expect(JSON.stringify(JSON.parse(node as string))).toBe(JSON.stringify(nested(5)));
  });

  it('when a value is nested 100,000 levels deep, then it is cut at the bound with a marker and serialises', () => {
    const capped = capJsonDepth(nested(100_000));
    const text = JSON.stringify(capped);
    expect(text).toContain(TOO_DEEP_MARKER);
    const containers = text.replace(TOO_DEEP_MARKER, '').split(/[[{]/).length - 1;
    expect(containers).toBe(MAX_JSON_DEPTH);
  });

  it('when an attribute key has thousands of dot-separated segments, then the path is cut and the rest stays one key', () => {
    const key = Array.from({ length: 5_000 }, (_, i) => `s${i}`).join('.');
    const out = unflatten({ [key]: 1 });
    expect(() => JSON.stringify(out)).not.toThrow();
    let node: JsonValue = out;
    let depth = 0;
    while (node && typeof node === 'object' && !Array.isArray(node)) { node = Object.values(node)[0] as JsonValue; depth++; }
    expect(depth).toBeLessThanOrEqual(32);
  });

  it('when a span carries a deep attribute value and a many-segment key, then it normalises into something every reader can serialise', () => {
    const key = Array.from({ length: 3_000 }, () => 'a').join('.');
    const r = normalizeSpan({ trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', span_name: 'x', attributes: { deep: nested(50_000), [key]: 'v' } });
    expect(r.ok).toBe(true);
    expect(() => JSON.stringify(r)).not.toThrow();
  });
});
