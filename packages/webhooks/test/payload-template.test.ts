import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/canonical-json.ts';
import { MAX_PAYLOAD_BYTES, PayloadTooLargeError, jsonPath, jsonPointer, resolvePayload, templateProblem } from '../src/payload-template.ts';

const context = {
  event: { event_id: 'e1', event_type: 'traces.queried', attributes: { user: { id: 'u1' }, items: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], 'a/b': 1, 'm~n': 2, 'x.y': 3 } },
  subscription: { id: 's1', name: null, tags: { env: 'prod' } },
  scope: { project_id: 'p1' },
};

describe('resolvePayload', () => {
  it('when there is no template, then the payload is the whole context', () => {
    expect(resolvePayload(undefined, context)).toBe(context);
    expect(resolvePayload(null, context)).toBe(context);
  });

  it('when leaves are paths, pointers and literals, then each resolves as §9.6 says', () => {
    const template = {
      type: '$.event.event_type',
      user: '/event/attributes/user/id',
      ids: '$.event.attributes.items[*].id',
      first: '$.event.attributes.items[0]',
      last: "$['event']['attributes']['items'][-1].id",
      missing: '$.event.nope',
      missingPointer: '/event/nope/deeper',
      literal: 'hello',
      number: 7,
      list: ['$.scope.project_id', 'x', null, true],
      nested: { deeper: { name: '$.subscription.name' } },
    };
    expect(resolvePayload(template, context)).toEqual({
      type: 'traces.queried',
      user: 'u1',
      ids: ['a', 'b', 'c'],
      first: { id: 'a' },
      last: 'c',
      missing: null,
      missingPointer: null,
      literal: 'hello',
      number: 7,
      list: ['p1', 'x', null, true],
      nested: { deeper: { name: null } },
    });
  });

  it('when a template key is __proto__, then it stays a plain key of the payload', () => {
    const out = resolvePayload(JSON.parse('{"__proto__":"$.scope.project_id"}'), context) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('p1');
  });

  it('when the template nests deeper than 10 levels, then the deep part is null and templateProblem reports it', () => {
    let ten: unknown = '$.scope.project_id';
    for (let i = 0; i < 10; i++) ten = { k: ten };
    expect(templateProblem(ten)).toBeUndefined();
    expect(JSON.stringify(resolvePayload(ten, context))).toContain('"p1"');
    const eleven = [ten];
    expect(templateProblem(eleven)).toMatch(/deeper than 10/);
    let hostile: unknown = 'x';
    for (let i = 0; i < 100_000; i++) hostile = [hostile];
    expect(templateProblem(hostile)).toMatch(/deeper than 10/);
    expect(() => resolvePayload(hostile, context)).not.toThrow();
    expect(templateProblem(null)).toBeUndefined();
    expect(templateProblem('$.event')).toBeUndefined();
    expect(templateProblem(Array.from({ length: 20_000 }, () => 1))).toMatch(/more than/);
  });
});

describe('resolvePayload size budget', () => {
  // An event with 1,000 ids: about 40 KB of context.
  const big = {
    event: { event_id: 'e1', event_type: 'traces.queried', attributes: { ids: Array.from({ length: 1000 }, (_, i) => `0190a5b2-7c3e-7a10-8000-${String(i).padStart(12, '0')}`) } },
    subscription: { id: 's1', name: null, tags: null, meta: null },
    scope: { project_id: 'p1' },
  };
  // How long these refusals take is measured by test/bench/bounded-work.bench.ts, not asserted here.
  const thrown = (f: () => unknown): unknown => {
    try {
      f();
      return undefined;
    } catch (error) {
      return error;
    }
  };

  it('when 9,000 leaves each copy the whole context, then it fails fast with PayloadTooLargeError instead of building the payload', () => {
    const template = Object.fromEntries(Array.from({ length: 9000 }, (_, i) => [`k${i}`, '$']));
    const error = thrown(() => resolvePayload(template, big));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect((error as PayloadTooLargeError).code).toBe('400');
    expect((error as Error).message).toMatch(/^payload too large: .* exceeds 1048576 bytes$/);
  });

  it('when a 1 MB meta is copied by 2,000 leaves (paths or pointers), then it fails fast', () => {
    const ctx = { ...big, subscription: { ...big.subscription, meta: { blob: 'm'.repeat(1_000_000) } } };
    for (const leaf of ['$.subscription.meta', '/subscription/meta', '$..blob']) {
      const error = thrown(() => resolvePayload(Array.from({ length: 2000 }, () => leaf), ctx));
      expect(error).toBeInstanceOf(PayloadTooLargeError);
    }
  });

  it('when there is no template and the context itself is over the budget, then it is refused too', () => {
    const ctx = { ...big, subscription: { ...big.subscription, tags: { t: 'é'.repeat(200_000) } } };
    // 200,000 characters, each 6 bytes once escaped: 1.2 MB of canonical JSON.
    expect(() => resolvePayload(undefined, ctx)).toThrow(PayloadTooLargeError);
    expect(resolvePayload(undefined, big)).toBe(big);
  });

  it('when the payload is just within the budget, then it resolves, and one byte more is refused', () => {
    const overhead = canonicalJson({ a: '' }).length;
    const fits = { s: 'x'.repeat(MAX_PAYLOAD_BYTES - overhead) };
    expect(canonicalJson(resolvePayload({ a: '$.s' }, fits)).length).toBe(MAX_PAYLOAD_BYTES);
    expect(() => resolvePayload({ a: '$.s' }, { s: `${fits.s}x` })).toThrow(PayloadTooLargeError);
    // The count covers the template's keys, literals and punctuation too: the limit is exact.
    const template = { z: ['$.event.event_type', 'lit\u00e9ral', 7, null, true, { deep: '/scope/project_id', '': [] }], a: '$.subscription', 'k"ey': 1.5e-7 };
    const exact = canonicalJson(resolvePayload(template, big)).length;
    expect(() => resolvePayload(template, big, exact)).not.toThrow();
    expect(() => resolvePayload(template, big, exact - 1)).toThrow(PayloadTooLargeError);
    // Many small copies of the same subtree are fine while the total fits.
    const out = resolvePayload(Array.from({ length: 9000 }, () => '$.event.event_type'), big) as unknown[];
    expect(out).toHaveLength(9000);
  });
});

describe('jsonPath', () => {
  it('when recursive descent and wildcards are used, then all matches come back in document order', () => {
    expect(jsonPath(context, '$..id')).toEqual(['u1', 'a', 'b', 'c', 's1']);
    expect(jsonPath(context, '$.scope.*')).toBe('p1');
    expect(jsonPath(context, '$.subscription.tags.*')).toBe('prod');
    expect(jsonPath(context, '$..items[1].id')).toBe('b');
    expect(jsonPath(context, '$')).toBe(context);
    expect(jsonPath(context, '$["event"]["attributes"]["x.y"]')).toBe(3);
    expect(jsonPath(context, "$.event.attributes['a/b']")).toBe(1);
  });

  it('when the path is invalid or hostile, then the answer is null, never an exception', () => {
    for (const p of ['$.', '$..', '$[', '$[abc]', "$['open", '$.a[?(@.x)]', '$.a[(1+1)]', '$ .a', '$5 off', '$.a..', '$.' + 'a.'.repeat(2000), '$[99999999999999999999]']) {
      expect(jsonPath(context, p)).toBeNull();
    }
    expect(jsonPath(context, '$.event.attributes.items[7]')).toBeNull();
    expect(jsonPath(context, '$.event.attributes.items[-4]')).toBeNull();
    expect(jsonPath(context, '$.constructor')).toBeNull();
    expect(jsonPath(context, '$.event.attributes.items.length')).toBeNull();
  });

  it('when recursive descent meets a huge document, then work is bounded and the answer is null', () => {
    // Each item counts its reads: an unbounded descent would read all 300,000 of them.
    let reads = 0;
    const wide = { list: Array.from({ length: 300_000 }, (_, i) => ({ get i() { reads++; return i; } })) };
    expect(jsonPath(wide, '$..i')).toBeNull();
    expect(reads).toBeLessThan(wide.list.length);
    // (How long it takes: test/bench/bounded-work.bench.ts.)
  });
});

describe('jsonPointer', () => {
  it('when tokens are escaped, then ~1 is / and ~0 is ~ (RFC 6901)', () => {
    expect(jsonPointer(context, '/event/attributes/a~1b')).toBe(1);
    expect(jsonPointer(context, '/event/attributes/m~0n')).toBe(2);
    expect(jsonPointer(context, '/event/attributes/items/2/id')).toBe('c');
    expect(jsonPointer(context, '')).toBe(context);
  });

  it('when the target is missing or the pointer malformed, then null', () => {
    for (const p of ['/event/attributes/items/3', '/event/attributes/items/-', '/event/attributes/items/01', '/x~2', '/', '/event/event_id/0', '/__proto__', '/constructor']) {
      expect(jsonPointer(context, p)).toBeNull();
    }
  });
});
