// The bounded primitives besides text (numbers.ts, dates.ts, boundedJson) and the saved-query
// bodies built from them (issue 24, finding 4): no number, date or nesting a client can send gets
// past a schema into SQL, and a hostile depth is refused before zod recurses.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  boundedJson, int, ints, projectUpdate, queryNumber, savedQueryLeafMap, savedQueryLog, savedQueryRevisionsQuery, savedQueryVariantsQuery, simpleSavedQueriesQuery,
  storedDateTime, TEXT_LIMITS,
} from '@llm/contracts';

const messages = (r: { success: boolean; error?: z.ZodError }): string[] => r.error?.issues.map((i) => i.message) ?? [];

/** `{k:{k:…'x'…}}`, `levels` objects deep, built without recursion. */
function nested(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = { k: v };
  return v;
}

describe('numbers', () => {
  it('when an integer is inside its bounds, then it is accepted; one past either bound, refused', () => {
    const n = int({ min: 1, max: 10, label: 'depth' });
    expect(n.safeParse(1).success).toBe(true);
    expect(n.safeParse(10).success).toBe(true);
    expect(messages(n.safeParse(0))).toEqual(['depth must be at least 1']);
    expect(messages(n.safeParse(11))).toEqual(['depth must be at most 10']);
    expect(messages(n.safeParse(1.5))).toEqual(['depth must be an integer']);
  });

  it.each([1e308, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, Number.MAX_VALUE])('when %d is sent as an int32, then it is refused', (v) => {
    expect(ints.int32.safeParse(v).success).toBe(false);
  });

  it.each(['1e308', 'NaN', 'Infinity', '-Infinity', '0x10', ' 1', '1 ', '', '99999999999999999999', '1'.repeat(40), '1.5', 'abc'])(
    'when %j is a query-string limit, then it is refused', (v) => {
      expect(queryNumber(ints.int32).safeParse(v).success).toBe(false);
    },
  );

  it('when a query-string number is plain decimal within bounds, then it is read as the number', () => {
    const q = queryNumber(ints.int32);
    expect(q.parse('25')).toBe(25);
    expect(q.parse('-3')).toBe(-3);
    expect(q.parse('1e3')).toBe(1000);
    expect(q.parse('-0')).toBe(-0);
    expect(q.parse(7)).toBe(7);
  });
});

describe('dates the stores hold', () => {
  it.each([
    ['99999-01-01'], ['+099999-01-01T00:00:00Z'], ['0000-01-01T00:00:00Z'], ['1899-12-31T23:59:59Z'], ['2300-01-01T00:00:00Z'],
    ['yesterday'], ['2025-13-01T00:00:00Z'], ['2025-01-01T00:00:00\u0000Z'], ['x'.repeat(TEXT_LIMITS.shortText + 1)],
  ])('when %j is a window bound, then it is refused', (v) => {
    expect(storedDateTime.safeParse(v).success).toBe(false);
  });

  it('when a bound is inside 1900-2299, then it is answered as UTC (a bare date is midnight UTC)', () => {
    expect(storedDateTime.parse('1900-01-01T00:00:00Z')).toBe('1900-01-01T00:00:00.000Z');
    expect(storedDateTime.parse('2299-12-31T23:59:59Z')).toBe('2299-12-31T23:59:59.000Z');
    expect(storedDateTime.parse('2025-06-01T02:00:00+02:00')).toBe('2025-06-01T00:00:00.000Z');
    expect(storedDateTime.parse('2025-06-01')).toBe('2025-06-01T00:00:00.000Z');
  });
});

describe('JSON nested deeper than a stack', () => {
  it('when a value nests 100,000 levels, then boundedJson refuses it without a stack overflow, naming the depth', () => {
    const leafy: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.record(z.string(), leafy)]));
    expect(() => leafy.safeParse(nested(100_000))).toThrow(RangeError);
    const r = boundedJson(leafy).safeParse(nested(100_000));
    expect(r.success).toBe(false);
    expect(messages(r)).toEqual([`nests deeper than ${TEXT_LIMITS.jsonDepth} levels`]);
  });

  it('when tags nest as deep as the limit, then they parse; one level deeper, refused', () => {
    expect(savedQueryLeafMap.safeParse(nested(TEXT_LIMITS.jsonDepth)).success).toBe(true);
    expect(savedQueryLeafMap.safeParse(nested(TEXT_LIMITS.jsonDepth + 1)).success).toBe(false);
  });

  it('when tags hold a number, then they are refused as before (leaves are strings, booleans and nulls)', () => {
    expect(savedQueryLeafMap.safeParse({ a: 1 }).success).toBe(false);
    expect(savedQueryLeafMap.safeParse({ a: { b: true, c: null, d: 'x' } }).success).toBe(true);
  });
});

describe('saved-query list bodies', () => {
  const deep = nested(20_000);
  it.each([
    ['simple queries, tags', simpleSavedQueriesQuery, { query: { tags: deep } }],
    ['simple queries, meta', simpleSavedQueriesQuery, { query: { meta: deep } }],
    ['variants, flags', savedQueryVariantsQuery, { query_variant: { flags: deep } }],
    ['revisions, tags', savedQueryRevisionsQuery, { query_revision: { tags: deep } }],
  ])('when %s nest 20,000 levels, then the body is refused (no throw)', (_, schema, body) => {
    const r = (schema as z.ZodType).safeParse(body);
    expect(r.success).toBe(false);
  });

  it.each([
    [{ windowing: { oldest: '99999-01-01' } }, ['windowing', 'oldest']],
    [{ windowing: { limit: 1e308 } }, ['windowing', 'limit']],
    [{ query_variant: { name: 'a\u0000b' } }, ['query_variant', 'name']],
    [{ query_variant: { slugs: ['\ud800'] } }, ['query_variant', 'slugs', 0]],
  ])('when a variants query holds %j, then it is refused at that path', (body, path) => {
    const r = savedQueryVariantsQuery.safeParse(body);
    expect(r.error?.issues.map((i) => i.path)).toContainEqual(path);
  });

  it('when a log depth is past int32, then it is refused', () => {
    expect(savedQueryLog.safeParse({ query_revisions: { depth: 1e300 } }).success).toBe(false);
    expect(savedQueryLog.safeParse({ query_revisions: { depth: 5 } }).success).toBe(true);
  });
});

describe('project retention (PATCH /projects/{id})', () => {
  it('when retention_minutes is a whole number from 1 to int32, or null, then it is accepted; 0, fractions, huge values, strings and other keys are refused', () => {
    for (const ok of [{ retention_minutes: 1 }, { retention_minutes: 10_080 }, { retention_minutes: null }]) expect(projectUpdate.safeParse(ok).success).toBe(true);
    for (const bad of [{ retention_minutes: 0 }, { retention_minutes: 1.5 }, { retention_minutes: 2 ** 31 }, { retention_minutes: '60' }, {}, { retention_minutes: 60, name: 'x' }]) {
      expect(projectUpdate.safeParse(bad).success).toBe(false);
    }
  });
});
