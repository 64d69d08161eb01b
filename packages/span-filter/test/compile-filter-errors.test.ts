import { describe, expect, it } from 'vitest';

import { compileFilter, MAX_FILTER_CONDITIONS, MAX_FILTER_DEPTH } from '../src/index.ts';

const T1 = '0af7651916cd43dd8448eb211c80319c';

function errors(filtering: unknown, root?: string): string[] {
  const r = compileFilter(filtering, { projectParam: 'project', ...(root ? { root } : {}) });
  if (r.ok) throw new Error(`expected errors, compiled: ${r.sql}`);
  for (const e of r.errors) expect(e.message.startsWith(`${formatted(e.path)}: `)).toBe(true);
  return r.errors.map((e) => e.message);
}

function formatted(path: Array<string | number>): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

const one = (c: unknown): string[] => errors({ conditions: [c] });
const nest = (keys: string[], leaf: unknown): unknown => keys.reduceRight<unknown>((inner, k) => ({ [k]: inner }), leaf);

describe('compileFilter errors: structure', () => {
  it.each<[string, unknown, string]>([
    ['invalid JSON text', '{"conditions": [', 'filtering: is not valid JSON'],
    ['an array', [], 'filtering: Invalid input: expected object, received array'],
    ['a number', 3, 'filtering: Invalid input: expected object, received number'],
    ['an unknown key', { conditions: [], limit: 3 }, 'filtering: Unrecognized key: "limit"'],
    ['an unknown logical operator', { operator: 'xor', conditions: [] }, "filtering.operator: unknown logical operator 'xor' (one of: and, or, not, nand, nor)"],
    ['conditions that are not a list', { conditions: {} }, 'filtering.conditions: Invalid input: expected array, received object'],
    ['a condition that is not an object', { conditions: ['span_name'] }, 'filtering.conditions[0]: must be a condition ({field, operator, value, …}) or a filtering object ({operator, conditions})'],
    ['a condition and a level at once', { conditions: [{ field: 'span_name', conditions: [] }] }, "filtering.conditions[0]: has both 'field' and 'conditions': a condition or a filtering object, not both"],
    ['a condition without field', { conditions: [{ value: 'x' }] }, 'filtering.conditions[0].field: field is required'],
    ['a non-string field', { conditions: [{ field: 3 }] }, 'filtering.conditions[0].field: field must be a string'],
    ['an empty field', { conditions: [{ field: '' }] }, 'filtering.conditions[0].field: field must not be empty'],
    ['an unknown condition key', { conditions: [{ field: 'span_name', value: 'x', opertor: 'gt' }] }, 'filtering.conditions[0]: Unrecognized key: "opertor"'],
    ['an unknown option', { conditions: [{ field: 'span_name', value: 'x', options: { fuzzy: true } }] }, 'filtering.conditions[0].options: Unrecognized key: "fuzzy"'],
    ['a non-boolean option', { conditions: [{ field: 'span_name', value: 'x', options: { all: 'yes' } }] }, 'filtering.conditions[0].options.all: Invalid input: expected boolean, received string'],
  ])('when the filter has %s, then the error says so', (_, filtering, message) => {
    expect(errors(filtering)).toEqual([message]);
  });

  it("when 'not' wraps several conditions, then it is an error instead of an empty result", () => {
    const a = { field: 'span_name', value: 'a' };
    expect(errors({ operator: 'not', conditions: [a, a] })).toEqual([
      "filtering: operator 'not' needs exactly one condition, got 2 (use 'nand' or 'nor' to negate several)",
    ]);
    expect(errors({ conditions: [{ operator: 'not', conditions: [] }] })).toEqual([
      "filtering.conditions[0]: operator 'not' needs exactly one condition, got 0 (use 'nand' or 'nor' to negate several)",
    ]);
  });

  it.each(['nand', 'nor'])("when '%s' has no conditions, then it is an error", (operator) => {
    expect(errors({ operator, conditions: [] })).toEqual([`filtering: operator '${operator}' needs at least one condition`]);
  });

  it('when filtering objects nest deeper than the limit, then the error names the level', () => {
    let f: Record<string, unknown> = { conditions: [{ field: 'span_name', value: 'a' }] };
    for (let i = 0; i < MAX_FILTER_DEPTH; i++) f = { conditions: [f] };
    const path = `filtering${'.conditions[0]'.repeat(MAX_FILTER_DEPTH)}`;
    expect(errors(f)).toEqual([`${path}: filtering nests deeper than ${MAX_FILTER_DEPTH} levels`]);
  });

  it('when a hostile body nests thousands of levels, then it is refused without walking them', () => {
    let f: Record<string, unknown> = { conditions: [] };
    for (let i = 0; i < 100_000; i++) f = { conditions: [f] };
    expect(errors(f)).toHaveLength(1);
  });

  it('when there are more conditions than the limit, then one error names the first one over', () => {
    const a = { field: 'span_name', value: 'a' };
    expect(errors({ conditions: Array.from({ length: MAX_FILTER_CONDITIONS + 10 }, () => a) })).toEqual([
      `filtering.conditions[${MAX_FILTER_CONDITIONS}]: filter has more than ${MAX_FILTER_CONDITIONS} conditions`,
    ]);
  });

  it('when nested levels count toward the condition limit, then the limit applies across levels', () => {
    const a = { field: 'span_name', value: 'a' };
    const half = Array.from({ length: 200 }, () => a);
    expect(errors({ conditions: [{ conditions: half }, { conditions: half }] })[0]).toMatch(/filter has more than 256 conditions$/);
  });

  it('when several conditions are wrong, then every one is reported with its path', () => {
    expect(
      errors({
        operator: 'or',
        conditions: [
          { field: 'span_name', value: 'ok' },
          { operator: 'and', conditions: [{ field: 'trace_id', operator: 'gt', value: T1 }, { field: 'nope' }] },
          { field: 'span_kind', value: 'KIND' },
        ],
      }),
    ).toEqual([
      "filtering.conditions[1].conditions[0]: operator 'gt' is not allowed for field 'trace_id' (allowed: is, is_not, in, not_in)",
      expect.stringMatching(/^filtering\.conditions\[1\]\.conditions\[1\]: unknown field 'nope' \(known fields: trace_id, /),
      "filtering.conditions[2].value: 'KIND' is not a valid span_kind (one of: SPAN_KIND_UNSPECIFIED, SPAN_KIND_INTERNAL, SPAN_KIND_SERVER, SPAN_KIND_CLIENT, SPAN_KIND_PRODUCER, SPAN_KIND_CONSUMER)",
    ]);
  });

  it('when the root is named, then paths start with it', () => {
    expect(errors({ conditions: [{ field: 'nope' }] }, 'filter')[0]).toMatch(/^filter\.conditions\[0\]: unknown field 'nope'/);
  });

  it('when the filter is too large in values, then it is refused', () => {
    const big = { field: 'attributes', key: 'a', operator: 'in', value: Array.from({ length: 1000 }, (_, i) => i) };
    expect(errors({ conditions: [big, big, big] })).toEqual([
      'filtering: filter is too large (more than 4096 values and key segments)',
    ]);
  });
});

describe('compileFilter errors: fields, operators, keys, options', () => {
  it.each<[string, unknown, string]>([
    ['an unknown field', { field: 'project_id', value: 'other' }, "filtering.conditions[0]: unknown field 'project_id' (known fields: "],
    ['an unrecorded field', { field: 'agent_id', value: 'x' }, "filtering.conditions[0]: field 'agent_id' is not recorded by this service and cannot be filtered on"],
    ['an unrecorded time', { field: 'deleted_at', operator: 'exists' }, "filtering.conditions[0]: field 'deleted_at' is not recorded"],
    ['an unknown operator', { field: 'span_name', operator: 'regex', value: 'x' }, "filtering.conditions[0].operator: unknown operator 'regex' (one of: is, is_not, eq, "],
    ['an operator not allowed', { field: 'trace_id', operator: 'gt', value: T1 }, "filtering.conditions[0]: operator 'gt' is not allowed for field 'trace_id' (allowed: is, is_not, in, not_in)"],
    ['dict operators on attributes', { field: 'attributes', key: 'a', operator: 'has', value: 'x' }, "filtering.conditions[0]: operator 'has' is not allowed for field 'attributes'"],
    ['content with another operator', { field: 'content', operator: 'is', value: 'x' }, "filtering.conditions[0]: operator 'is' is not allowed for field 'content' (allowed: contains)"],
    ['attributes without a key', { field: 'attributes', value: 'x' }, "filtering.conditions[0]: field 'attributes' needs a key: a dotted path inside attributes, e.g. 'ag.data.inputs.country'"],
    ['a key with an empty segment', { field: 'attributes', key: 'a..b', operator: 'exists' }, "filtering.conditions[0].key: 'a..b' has an empty segment"],
    ['a key with too many segments', { field: 'attributes', key: Array(33).fill('a').join('.'), operator: 'exists' }, 'filtering.conditions[0].key: has more than 32 segments'],
    ['a key on a plain field', { field: 'span_name', key: 'x', value: 'x' }, "filtering.conditions[0]: field 'span_name' takes no key with operator 'is'"],
    ['a key on links with in', { field: 'links', key: 'x', operator: 'in', value: [{ trace_id: T1 }] }, "filtering.conditions[0]: field 'links' takes no key with operator 'in'"],
    ['an attribute path both in field and key', { field: 'attributes.a', key: 'b', operator: 'exists' }, 'filtering.conditions[0]: give the attribute path either in field or in key, not both'],
    ['has without a key', { field: 'links', operator: 'has', value: 'x' }, "filtering.conditions[0]: operator 'has' needs a key, e.g. 'attributes.key'"],
    ['exists with a value', { field: 'links', operator: 'exists', value: true }, "filtering.conditions[0]: operator 'exists' takes no value"],
    ['case_sensitive on is', { field: 'span_name', value: 'x', options: { case_sensitive: true } }, 'filtering.conditions[0]: options.case_sensitive applies only to string operators'],
    ['exact_match on contains', { field: 'span_name', operator: 'contains', value: 'x', options: { exact_match: true } }, "filtering.conditions[0]: options.exact_match applies only to operator 'matches'"],
    ['all on a plain column', { field: 'span_name', operator: 'in', value: ['x'], options: { all: true } }, "filtering.conditions[0]: options.all applies only to operator 'in' on attributes, links, references, events and hashes"],
    ['all on not_in', { field: 'links', operator: 'not_in', value: [{ trace_id: T1 }], options: { all: true } }, "filtering.conditions[0]: options.all applies only to operator 'in'"],
  ])('when a condition has %s, then the error names it', (_, condition, message) => {
    const [got] = one(condition);
    expect(got?.startsWith(message)).toBe(true);
  });
});

describe('compileFilter errors: values', () => {
  it.each<[string, unknown, string]>([
    ['an unparsable trace id', { field: 'trace_id', value: 'not-an-id' }, "filtering.conditions[0].value: 'not-an-id' is not a trace id (32 hex characters or a UUID)"],
    ['an unparsable span id in a list', { field: 'span_id', operator: 'in', value: ['b7ad6b7169203331', 'zz'] }, "filtering.conditions[0].value[1]: 'zz' is not a span id"],
    ['an unparsable parent id', { field: 'parent_id', value: 123 }, 'filtering.conditions[0].value: must be a string'],
    ['a null trace id', { field: 'trace_id', value: null }, "filtering.conditions[0].value: field 'trace_id' is never null; give a value"],
    ['a null in a trace id list', { field: 'trace_id', operator: 'in', value: [null] }, "filtering.conditions[0].value[0]: field 'trace_id' is never null"],
    ['no value for is', { field: 'trace_id' }, "filtering.conditions[0]: operator 'is' needs a value"],
    ['no value for an attribute is', { field: 'attributes', key: 'a' }, "filtering.conditions[0]: operator 'is' needs a value (use 'exists' to test presence)"],
    ['an invalid enum value', { field: 'status_code', value: 'ok' }, "filtering.conditions[0].value: 'ok' is not a valid status_code (one of: STATUS_CODE_UNSET, STATUS_CODE_OK, STATUS_CODE_ERROR)"],
    ['an invalid enum value in a list', { field: 'span_type', operator: 'in', value: ['chat', 'robot'] }, "filtering.conditions[0].value[1]: 'robot' is not a valid span_type"],
    ['a non-string for is on text', { field: 'span_name', value: 3 }, 'filtering.conditions[0].value: value must be a string'],
    ['a boolean for a numeric op on text', { field: 'span_name', operator: 'gt', value: true }, 'filtering.conditions[0].value: value must be a string or a number'],
    ['a non-string for a string op', { field: 'span_name', operator: 'contains', value: 3 }, "filtering.conditions[0].value: operator 'contains' needs a string value"],
    ['a list that is empty', { field: 'span_name', operator: 'in', value: [] }, "filtering.conditions[0].value: operator 'in' needs a non-empty list value"],
    ['a list that is not a list', { field: 'span_name', operator: 'not_in', value: 'x' }, "filtering.conditions[0].value: operator 'not_in' needs a non-empty list value"],
    ['a list that is too long', { field: 'span_name', operator: 'in', value: Array(1001).fill('x') }, 'filtering.conditions[0].value: lists are limited to 1000 items'],
    ['btwn with one bound', { field: 'start_time', operator: 'btwn', value: ['2024-01-01'] }, "filtering.conditions[0].value: operator 'btwn' needs a value [low, high]"],
    ['btwn with mixed types on attributes', { field: 'attributes', key: 'a', operator: 'btwn', value: [1, 'b'] }, "filtering.conditions[0].value: operator 'btwn' needs two numbers or two strings"],
    ['a boolean for a numeric op on attributes', { field: 'attributes', key: 'a', operator: 'gt', value: true }, 'filtering.conditions[0].value: value must be a number or a string'],
    ['a non-string for a string op on attributes', { field: 'attributes', key: 'a', operator: 'like', value: 1 }, "filtering.conditions[0].value: operator 'like' needs a string value"],
    ['an ambiguous timestamp', { field: 'start_time', operator: 'gt', value: 123456789012 }, 'filtering.conditions[0].value: Timestamp 123456789012 is ambiguous.'],
    ['an ambiguous timestamp in btwn', { field: 'start_time', operator: 'btwn', value: ['2024-01-01', '12345'] }, 'filtering.conditions[0].value[1]: Timestamp 12345 is ambiguous.'],
    ['an unparsable timestamp', { field: 'end_time', value: 'yesterday' }, "filtering.conditions[0].value: Invalid timestamp 'yesterday'."],
    ['a timestamp out of range', { field: 'created_at', operator: 'lt', value: '1850-01-01' }, 'filtering.conditions[0].value: timestamp 1850-01-01 is outside 1900-2299'],
    ['a null timestamp', { field: 'start_time', value: null }, "filtering.conditions[0].value: field 'start_time' is never null; give a value"],
    ['a boolean timestamp', { field: 'start_time', operator: 'lt', value: true }, 'filtering.conditions[0].value: a timestamp must be an ISO-8601 string or an integer'],
    ['a non-string time text match', { field: 'start_time', operator: 'startswith', value: 2024 }, "filtering.conditions[0].value: operator 'startswith' needs a string value"],
    ['an attribute value nested too deep', { field: 'attributes', key: 'a', value: nest(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'], 1) }, 'filtering.conditions[0].value.a.b.c.d.e.f.g.h.i: value nests deeper than 8 levels'],
    ['an empty content search', { field: 'content', operator: 'contains', value: '' }, "filtering.conditions[0].value: operator 'contains' on 'content' needs a non-empty string value"],
    ['a non-string content search', { field: 'content', operator: 'contains', value: ['a'] }, "filtering.conditions[0].value: operator 'contains' on 'content' needs a non-empty string value"],
    ['a key on content', { field: 'content', key: 'a', operator: 'contains', value: 'a' }, "filtering.conditions[0]: field 'content' takes no key with operator 'contains'"],
  ])('when a condition has %s, then the error names the value', (_, condition, message) => {
    const [got] = one(condition);
    expect(got?.startsWith(message), got).toBe(true);
  });
});

describe('compileFilter errors: probes', () => {
  it.each<[string, unknown, string]>([
    ['a link probe that is not an object', { field: 'links', operator: 'in', value: ['x'] }, 'filtering.conditions[0].value[0]: a links probe must be an object with some of: trace_id, span_id, attributes'],
    ['an empty probe', { field: 'references', operator: 'in', value: [{}] }, 'filtering.conditions[0].value[0]: a references probe must name at least one of: id, slug, version, attributes'],
    ['an unknown probe field', { field: 'links', operator: 'in', value: [{ trace: T1 }] }, "filtering.conditions[0].value[0].trace: unknown links probe field 'trace' (allowed: trace_id, span_id, attributes)"],
    ['a prototype key as probe field', { field: 'links', operator: 'in', value: [JSON.parse('{"__proto__": 1}')] }, "filtering.conditions[0].value[0].__proto__: unknown links probe field '__proto__'"],
    ['an invalid link trace id', { field: 'links', operator: 'in', value: [{ trace_id: 'x' }] }, "filtering.conditions[0].value[0].trace_id: 'x' is not a trace id"],
    ['an invalid reference id', { field: 'references', operator: 'not_in', value: [{ id: 'app' }] }, "filtering.conditions[0].value[0].id: 'app' is not a UUID"],
    ['a non-object probe attributes', { field: 'hashes', operator: 'in', value: [{ attributes: 'x' }] }, 'filtering.conditions[0].value[0].attributes: must be an object'],
    ['a non-string event name', { field: 'events', operator: 'in', value: [{ name: 1 }] }, 'filtering.conditions[0].value[0].name: must be a string'],
    ['an invalid id in has', { field: 'links', operator: 'has', key: 'span_id', value: 'nope' }, "filtering.conditions[0].value: 'nope' is not a span id"],
    ['an empty list of probes', { field: 'events', operator: 'in', value: [] }, "filtering.conditions[0].value: operator 'in' needs a non-empty list value"],
  ])('when a probe has %s, then the error names it', (_, condition, message) => {
    const [got] = one(condition);
    expect(got?.startsWith(message), got).toBe(true);
  });
});
