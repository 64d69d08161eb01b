import { describe, expect, it } from 'vitest';

import { ConditionSchema, FilteringSchema } from '../src/index.ts';

describe('FilteringSchema', () => {
  it('when a nested filtering object is parsed, then defaults are filled at every level', () => {
    const r = FilteringSchema.parse({
      conditions: [{ field: 'span_name', value: 'a' }, { operator: 'or', conditions: [{ field: 'trace_id', operator: 'in', value: [] }] }],
    });
    expect(r).toEqual({
      operator: 'and',
      conditions: [
        { field: 'span_name', value: 'a', operator: 'is' },
        { operator: 'or', conditions: [{ field: 'trace_id', operator: 'in', value: [] }] },
      ],
    });
  });

  it('when the filter is JSON text, then it is parsed as the object', () => {
    expect(FilteringSchema.parse('{"operator":"not","conditions":[{"field":"parent_id","value":null}]}')).toEqual({
      operator: 'not',
      conditions: [{ field: 'parent_id', value: null, operator: 'is' }],
    });
  });

  it('when the JSON text is broken, then it is refused as not an object', () => {
    expect(FilteringSchema.safeParse('{"operator":').success).toBe(false);
  });

  it('when an operator is unknown, then the message names it', () => {
    const r = FilteringSchema.safeParse({ conditions: [{ field: 'x', operator: 'like_regex' }] });
    // Inside the recursive union zod reports each alternative's issues under `invalid_union`.
    expect(JSON.stringify(r.error?.issues)).toContain("unknown operator 'like_regex'");
  });

  it('when a logical operator is unknown, then the message names it', () => {
    const r = FilteringSchema.safeParse({ operator: 'xor', conditions: [] });
    expect(r.error?.issues[0]?.message).toBe("unknown logical operator 'xor' (one of: and, or, not, nand, nor)");
  });
});

describe('ConditionSchema', () => {
  it('when value is null, then it is kept; when absent, then it stays absent', () => {
    expect(ConditionSchema.parse({ field: 'parent_id', value: null })).toEqual({ field: 'parent_id', value: null, operator: 'is' });
    expect('value' in ConditionSchema.parse({ field: 'links', operator: 'exists' })).toBe(false);
  });

  it('when options are given, then only the known ones are accepted', () => {
    expect(ConditionSchema.parse({ field: 'a', options: { case_sensitive: true, exact_match: false, all: true } }).options).toEqual({
      case_sensitive: true,
      exact_match: false,
      all: true,
    });
    expect(ConditionSchema.safeParse({ field: 'a', options: { regex: true } }).success).toBe(false);
  });

  it('when a condition has an unknown key, then it is refused', () => {
    expect(ConditionSchema.safeParse({ field: 'a', vaule: 1 }).success).toBe(false);
  });
});
