import { describe, expect, it } from 'vitest';

import { compileFilter, CONDITION_OPERATORS, FIELDS } from '../src/index.ts';
import { render } from './render-sql.ts';

const T1 = '0af7651916cd43dd8448eb211c80319c';
const S1 = 'b7ad6b7169203331';
const PREFIX = '(project_id = {project:String}) AND (';

/** The user part of the compiled SQL, values inlined. */
function body(filtering: unknown): string {
  const r = compileFilter(filtering, { projectParam: 'project' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  expect(r.sql.startsWith(PREFIX) && r.sql.endsWith(')')).toBe(true);
  return render(r.sql.slice(PREFIX.length, -1), r.params);
}

const one = (c: Record<string, unknown>) => body({ conditions: [c] });

describe('compileFilter: empty filters', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty string', ''],
    ['the JSON text null', 'null'],
    ['no conditions', {}],
    ['an empty condition list', { conditions: [] }],
    ['null conditions', { conditions: null }],
    ['an empty or', { operator: 'or', conditions: [] }],
  ])('when the filter is %s, then it matches every span of the project', (_, f) => {
    const r = compileFilter(f, { projectParam: 'project' });
    expect(r).toEqual({ ok: true, sql: '(project_id = {project:String}) AND (1)', params: {} });
  });
});

describe('compileFilter: ids', () => {
  it.each([
    ['32 hex', T1],
    ['a dashed uppercase UUID', '0AF76519-16CD-43DD-8448-EB211C80319C'],
    ['0x + hex', `0x${T1}`],
  ])('when trace_id is given as %s, then it is compared as stored lowercase hex', (_, value) => {
    expect(one({ field: 'trace_id', value })).toBe(`trace_id = "${T1}"`);
  });

  it('when the operator is omitted, then it is `is`', () => {
    expect(one({ field: 'span_id', value: S1.toUpperCase() })).toBe(`span_id = "${S1}"`);
  });

  it('when span ids are listed with in / not_in, then each is normalised into one array parameter', () => {
    expect(one({ field: 'span_id', operator: 'in', value: [S1, `0x${S1}`] })).toBe(`span_id IN ["${S1}","${S1}"]`);
    expect(one({ field: 'trace_id', operator: 'not_in', value: [T1] })).toBe(`trace_id NOT IN ["${T1}"]`);
  });

  it('when trace_id is_not a value, then it is inequality', () => {
    expect(one({ field: 'trace_id', operator: 'is_not', value: T1 })).toBe(`trace_id != "${T1}"`);
  });

  it('when parent_id is (not) null or (not) exists, then it tests for root spans', () => {
    expect(one({ field: 'parent_id', value: null })).toBe('empty(parent_id)');
    expect(one({ field: 'parent_id', operator: 'is_not', value: null })).toBe('notEmpty(parent_id)');
    expect(one({ field: 'parent_id', operator: 'exists' })).toBe('notEmpty(parent_id)');
    expect(one({ field: 'parent_id', operator: 'not_exists' })).toBe('empty(parent_id)');
    expect(one({ field: 'parent_id', operator: 'in', value: [null, S1] })).toBe(`parent_id IN ["","${S1}"]`);
  });
});

describe('compileFilter: enums', () => {
  it.each([
    ['span_kind', 'SPAN_KIND_CLIENT'],
    ['status_code', 'STATUS_CODE_ERROR'],
    ['span_type', 'chat'],
    ['trace_type', 'annotation'],
  ])('when %s is a valid value, then it is compared exactly', (field, value) => {
    expect(one({ field, value })).toBe(`${field} = "${value}"`);
    expect(one({ field, operator: 'is_not', value })).toBe(`${field} != "${value}"`);
    expect(one({ field, operator: 'in', value: [value] })).toBe(`${field} IN ["${value}"]`);
    expect(one({ field, operator: 'not_in', value: [value] })).toBe(`${field} NOT IN ["${value}"]`);
  });
});

describe('compileFilter: text fields', () => {
  it.each(['span_name', 'status_message', 'session_id', 'user_id'])('when %s is compared, then every family compiles', (field) => {
    expect(one({ field, value: 'x' })).toBe(`${field} = "x"`);
    expect(one({ field, value: null })).toBe(`empty(${field})`);
    expect(one({ field, operator: 'is_not', value: null })).toBe(`notEmpty(${field})`);
    expect(one({ field, operator: 'exists' })).toBe(`notEmpty(${field})`);
    expect(one({ field, operator: 'not_exists' })).toBe(`empty(${field})`);
    expect(one({ field, operator: 'in', value: ['a', 'b'] })).toBe(`${field} IN ["a","b"]`);
  });

  it.each([
    ['eq', '='],
    ['neq', '!='],
    ['gt', '>'],
    ['lt', '<'],
    ['gte', '>='],
    ['lte', '<='],
  ])('when a numeric operator %s is used on text, then it compares as text (numbers as their text)', (operator, sql) => {
    expect(one({ field: 'span_name', operator, value: 'm' })).toBe(`span_name ${sql} "m"`);
    expect(one({ field: 'span_name', operator, value: 5 })).toBe(`span_name ${sql} "5"`);
  });

  it('when btwn is used on text, then it is an inclusive BETWEEN', () => {
    expect(one({ field: 'span_name', operator: 'btwn', value: ['a', 'f'] })).toBe('span_name BETWEEN "a" AND "f"');
  });

  it.each([
    ['startswith', 'startsWith(lowerUTF8(span_name), lowerUTF8("Ab"))', 'startsWith(span_name, "Ab")'],
    ['endswith', 'endsWith(lowerUTF8(span_name), lowerUTF8("Ab"))', 'endsWith(span_name, "Ab")'],
    ['contains', 'positionCaseInsensitiveUTF8(span_name, "Ab") > 0', 'position(span_name, "Ab") > 0'],
    ['matches', 'positionCaseInsensitiveUTF8(span_name, "Ab") > 0', 'position(span_name, "Ab") > 0'],
    ['like', 'ilike(span_name, "Ab")', 'like(span_name, "Ab")'],
  ])('when %s is used, then it is case-insensitive unless options.case_sensitive', (operator, insensitive, sensitive) => {
    expect(one({ field: 'span_name', operator, value: 'Ab' })).toBe(insensitive);
    expect(one({ field: 'span_name', operator, value: 'Ab', options: { case_sensitive: false } })).toBe(insensitive);
    expect(one({ field: 'span_name', operator, value: 'Ab', options: { case_sensitive: true } })).toBe(sensitive);
  });

  it('when matches has exact_match, then it is (case-insensitive) equality', () => {
    expect(one({ field: 'span_name', operator: 'matches', value: 'Ab', options: { exact_match: true } })).toBe('lowerUTF8(span_name) = lowerUTF8("Ab")');
    expect(one({ field: 'span_name', operator: 'matches', value: 'Ab', options: { exact_match: true, case_sensitive: true } })).toBe('span_name = "Ab"');
  });

  it('when a client sends the default options on any operator, then they are accepted', () => {
    const options = { case_sensitive: false, exact_match: false, all: false };
    expect(one({ field: 'span_name', operator: 'is', value: 'x', options })).toBe('span_name = "x"');
  });
});

describe('compileFilter: times', () => {
  it.each([
    ['an ISO string with offset', '2024-01-15T11:00:00+01:00'],
    ['an ISO string without offset (UTC)', '2024-01-15T10:00:00'],
    ['unix seconds', 1705312800],
    ['unix milliseconds', 1705312800000],
    ['unix microseconds as a string', '1705312800000000'],
    ['unix nanoseconds as a string', '1705312800000000000'],
  ])('when start_time is given as %s, then it becomes a DateTime64 parameter', (_, value) => {
    const r = compileFilter({ conditions: [{ field: 'start_time', operator: 'gte', value }] }, { projectParam: 'project' });
    expect(r).toEqual({
      ok: true,
      sql: "(project_id = {project:String}) AND (start_time >= {f0:DateTime64(6,'UTC')})",
      params: { f0: { type: "DateTime64(6,'UTC')", value: '2024-01-15 10:00:00.000000' } },
    });
  });

  it.each(['start_time', 'end_time', 'created_at'])('when %s is compared, then every allowed family compiles', (field) => {
    const t = '2024-01-15T10:00:00.123456Z';
    const v = '"2024-01-15 10:00:00.123456"';
    expect(one({ field, value: t })).toBe(`${field} = ${v}`);
    expect(one({ field, operator: 'is_not', value: t })).toBe(`${field} != ${v}`);
    expect(one({ field, operator: 'lt', value: t })).toBe(`${field} < ${v}`);
    expect(one({ field, operator: 'btwn', value: [t, t] })).toBe(`${field} BETWEEN ${v} AND ${v}`);
    expect(one({ field, operator: 'in', value: [t] })).toBe(`${field} IN [${v}]`);
    expect(one({ field, operator: 'startswith', value: '2024-01' })).toBe(`startsWith(lowerUTF8(toString(${field})), lowerUTF8("2024-01"))`);
  });
});

describe('compileFilter: attributes', () => {
  const attr = (operator: string, value?: unknown, key = 'a.b', options?: object) =>
    one({ field: 'attributes', key, operator, ...(value === undefined ? {} : { value }), ...(options ? { options } : {}) });
  const A = 'attributes, "a", "b"';

  it('when the key is dotted, then each segment is its own parameter', () => {
    const r = compileFilter({ conditions: [{ field: 'attributes', key: 'ag.data.inputs', operator: 'exists' }] }, { projectParam: 'project' });
    expect(r.ok && r.sql).toBe('(project_id = {project:String}) AND (JSONHas(attributes, {f0:String}, {f1:String}, {f2:String}))');
    expect(r.ok && r.params).toEqual({ f0: { type: 'String', value: 'ag' }, f1: { type: 'String', value: 'data' }, f2: { type: 'String', value: 'inputs' } });
  });

  it('when is compares scalars, then type and value must both match', () => {
    expect(attr('is', 'x')).toBe(`JSONType(${A}) = 'String' AND JSONExtractString(${A}) = "x"`);
    expect(attr('is', 1.5)).toBe(`JSONType(${A}) IN ('Int64', 'UInt64', 'Double') AND JSONExtractFloat(${A}) = 1.5`);
    expect(attr('is', true)).toBe(`JSONType(${A}) = 'Bool' AND JSONExtractBool(${A}) = 1`);
    expect(attr('is', null)).toBe(`JSONHas(${A}) AND JSONType(${A}) = 'Null'`);
  });

  it('when is compares an object, then it matches partially, key by key', () => {
    expect(attr('is', { c: 'x' })).toBe(
      `JSONType(${A}) = 'Object' AND JSONType(${A}, "c") = 'String' AND JSONExtractString(${A}, "c") = "x"`,
    );
  });

  it('when is compares an array, then each element must be in the stored array', () => {
    expect(attr('is', ['x'])).toBe(
      `JSONType(${A}) = 'Array' AND arrayExists(x0 -> JSONType(x0) = 'String' AND JSONExtractString(x0) = "x", JSONExtractArrayRaw(${A}))`,
    );
  });

  it('when is_not is used, then it negates is (so a missing key matches)', () => {
    expect(attr('is_not', 'x')).toBe(`NOT (JSONType(${A}) = 'String' AND JSONExtractString(${A}) = "x")`);
  });

  it('when a numeric operator gets a number, then the leaf is cast to a float and never NULL', () => {
    const leaf = `if(JSONType(${A}) = 'String', JSONExtractString(${A}), JSONExtractRaw(${A}))`;
    expect(attr('gt', 3)).toBe(`ifNull(toFloat64OrNull(${leaf}) > 3, 0)`);
    expect(attr('btwn', [1, 2])).toBe(`ifNull(toFloat64OrNull(${leaf}) BETWEEN 1 AND 2, 0)`);
  });

  it('when a numeric operator gets a string, then the leaf is compared as text and must exist', () => {
    const leaf = `if(JSONType(${A}) = 'String', JSONExtractString(${A}), JSONExtractRaw(${A}))`;
    expect(attr('lte', '2024-01-15')).toBe(`JSONHas(${A}) AND ${leaf} <= "2024-01-15"`);
    expect(attr('btwn', ['a', 'b'])).toBe(`JSONHas(${A}) AND ${leaf} BETWEEN "a" AND "b"`);
  });

  it.each(['eq', 'neq', 'gt', 'lt', 'gte', 'lte'])('when %s is used on an attribute, then it compiles for numbers and strings', (op) => {
    expect(attr(op, 1)).toContain('toFloat64OrNull');
    expect(attr(op, 'x')).toContain('JSONHas');
  });

  it.each(['startswith', 'endswith', 'contains', 'matches', 'like'])('when %s is used on an attribute, then the key must exist and case is honoured', (op) => {
    const insensitive = attr(op, 'x');
    const sensitive = attr(op, 'x', 'a.b', { case_sensitive: true });
    expect(insensitive.startsWith(`JSONHas(${A}) AND `)).toBe(true);
    expect(insensitive).not.toBe(sensitive);
  });

  it('when in is used, then a scalar leaf or any element of an array leaf may match', () => {
    const r = attr('in', ['x', 'y']);
    expect(r.split(' OR (').length).toBeGreaterThan(1);
    expect(r).toContain(`JSONType(${A}) = 'Array' AND arrayExists(`);
    expect(attr('in', ['x', 'y'], 'a.b', { all: true })).toContain(') AND (');
    expect(attr('not_in', ['x'])).toMatch(/^JSONHas\(attributes, "a", "b"\) AND NOT \(/);
  });

  it('when exists / not_exists is used, then it tests the key', () => {
    expect(attr('exists')).toBe(`JSONHas(${A})`);
    expect(attr('not_exists')).toBe(`NOT JSONHas(${A})`);
    expect(attr('exists', null)).toBe(`JSONHas(${A})`);
  });

  it('when the field is `attributes.<path>`, then the path is the key', () => {
    expect(one({ field: 'attributes.a.b', operator: 'exists' })).toBe(`JSONHas(${A})`);
  });

  it('when nested arrays are compared, then each lambda gets its own variable', () => {
    expect(attr('is', [['x']])).toContain('arrayExists(x0 -> JSONType(x0) = \'Array\' AND arrayExists(x1 -> ');
  });
});

describe('compileFilter: links, references, events, hashes', () => {
  it('when links are probed, then ids are normalised and all fields of one probe must match', () => {
    expect(one({ field: 'links', operator: 'in', value: [{ trace_id: T1.toUpperCase(), span_id: S1 }] })).toBe(
      `arrayExists(x0 -> JSONType(x0) = 'Object' AND JSONType(x0, "trace_id") = 'String' AND JSONExtractString(x0, "trace_id") = "${T1}"` +
        ` AND JSONType(x0, "span_id") = 'String' AND JSONExtractString(x0, "span_id") = "${S1}", JSONExtractArrayRaw(links))`,
    );
  });

  it('when several probes are given, then any matches, or every one with options.all', () => {
    const value = [{ slug: 'a' }, { slug: 'b' }];
    expect(one({ field: 'references', operator: 'in', value }).split(') OR arrayExists(')).toHaveLength(2);
    expect(one({ field: 'references', operator: 'in', value, options: { all: true } }).split(') AND arrayExists(')).toHaveLength(2);
    expect(one({ field: 'references', operator: 'not_in', value })).toMatch(/^NOT \(arrayExists/);
  });

  it('when a reference probe has an id and a numeric version, then the id is dashed lowercase and the version text', () => {
    const r = one({ field: 'references', operator: 'in', value: [{ id: '6F9619FF8B86D011B42D00C04FC964FF', version: 3 }] });
    expect(r).toContain('= "6f9619ff-8b86-d011-b42d-00c04fc964ff"');
    expect(r).toContain('= "3"');
  });

  it('when events or hashes are probed with bare strings, then they are names and ids', () => {
    expect(one({ field: 'events', operator: 'in', value: ['exception'] })).toContain('JSONExtractString(x0, "name") = "exception"');
    expect(one({ field: 'hashes', operator: 'in', value: ['6f9619ff8b86d011b42d00c04fc964ff'] })).toContain(
      'JSONExtractString(x0, "id") = "6f9619ff-8b86-d011-b42d-00c04fc964ff"',
    );
  });

  it.each(['links', 'references', 'events', 'hashes'])('when %s uses has / has_not / exists / not_exists, then they compile', (field) => {
    expect(one({ field, operator: 'has', key: 'attributes.key', value: 'k' })).toBe(
      `arrayExists(x0 -> JSONType(x0, "attributes", "key") = 'String' AND JSONExtractString(x0, "attributes", "key") = "k", JSONExtractArrayRaw(${field}))`,
    );
    expect(one({ field, operator: 'has_not', key: 'attributes.key', value: 'k' })).toMatch(/^NOT arrayExists/);
    expect(one({ field, operator: 'has', key: 'attributes.key' })).toBe(`arrayExists(x0 -> JSONHas(x0, "attributes", "key"), JSONExtractArrayRaw(${field}))`);
    expect(one({ field, operator: 'exists' })).toBe(`JSONLength(${field}) > 0`);
    expect(one({ field, operator: 'not_exists' })).toBe(`JSONLength(${field}) = 0`);
  });

  it('when has names an id field, then the value is normalised like a probe', () => {
    expect(one({ field: 'links', operator: 'has', key: 'trace_id', value: `0x${T1.toUpperCase()}` })).toContain(`= "${T1}"`);
  });
});

describe('compileFilter: content', () => {
  it('when content contains text, then attributes and events are searched case-insensitively', () => {
    expect(one({ field: 'content', operator: 'contains', value: 'hello' })).toBe(
      'positionCaseInsensitiveUTF8(attributes, "hello") > 0 OR positionCaseInsensitiveUTF8(events, "hello") > 0',
    );
  });

  it('when the text has quotes or newlines, then it is searched in its JSON-escaped form', () => {
    const r = compileFilter({ conditions: [{ field: 'content', operator: 'contains', value: 'say "hi"\n' }] }, { projectParam: 'p' });
    expect(r.ok && Object.values(r.params)[0]?.value).toBe('say \\"hi\\"\\n');
  });

  it('when case_sensitive is set, then the search is case-sensitive', () => {
    expect(one({ field: 'content', operator: 'contains', value: 'Hi', options: { case_sensitive: true } })).toBe(
      'position(attributes, "Hi") > 0 OR position(events, "Hi") > 0',
    );
  });
});

describe('compileFilter: every operator on every field', () => {
  // A value each operator accepts, per field family.
  const sample = (kind: string, op: string): Record<string, unknown> => {
    const id = kind === 'trace' ? T1 : S1;
    const time = '2024-01-01T00:00:00Z';
    const scalar: Record<string, unknown> = { trace: id, id, enum: undefined, text: 'x', time, attributes: 1, content: 'x' };
    if (op === 'exists' || op === 'not_exists') return {};
    if (op === 'btwn') return { value: kind === 'time' ? [time, time] : [1, 2] };
    if (op === 'in' || op === 'not_in') {
      if (kind === 'collection') return { value: [{ attributes: { key: 'k' } }] };
      return { value: [scalar[kind]] };
    }
    if (op === 'has' || op === 'has_not') return { key: 'attributes.key', value: 'k' };
    if (['startswith', 'endswith', 'contains', 'matches', 'like'].includes(op)) return { value: '2024' };
    return { value: scalar[kind] };
  };
  const kindOf = (field: string): string => {
    const spec = FIELDS.get(field)!;
    if (spec.kind === 'id') return field === 'trace_id' ? 'trace' : 'id';
    return spec.kind;
  };
  const enumValue: Record<string, string> = {
    span_kind: 'SPAN_KIND_SERVER',
    status_code: 'STATUS_CODE_OK',
    span_type: 'chat',
    trace_type: 'annotation',
  };
  const cases = [...FIELDS.keys()].flatMap((field) => CONDITION_OPERATORS.map((operator) => [field, operator] as const));

  it.each(cases)('when field %s meets operator %s, then it compiles if allowed and is refused by name otherwise', (field, operator) => {
    const spec = FIELDS.get(field)!;
    let extra = sample(kindOf(field), operator);
    if (spec.kind === 'enum' && 'value' in extra) extra = { value: Array.isArray(extra.value) ? [enumValue[field]] : enumValue[field] };
    if (spec.kind === 'attributes') extra = { key: 'a.b', ...extra };
    const r = compileFilter({ conditions: [{ field, operator, ...extra }] }, { projectParam: 'project' });
    const allowed = (() => {
      switch (spec.kind) {
        case 'id':
          return ['is', 'is_not', 'in', 'not_in', ...(field === 'parent_id' ? ['exists', 'not_exists'] : [])];
        case 'enum':
          return ['is', 'is_not', 'in', 'not_in'];
        case 'text':
          return CONDITION_OPERATORS.filter((o) => o !== 'has' && o !== 'has_not');
        case 'time':
          return CONDITION_OPERATORS.filter((o) => !['has', 'has_not', 'exists', 'not_exists'].includes(o));
        case 'attributes':
          return CONDITION_OPERATORS.filter((o) => o !== 'has' && o !== 'has_not');
        case 'collection':
          return ['in', 'not_in', 'has', 'has_not', 'exists', 'not_exists'];
        case 'content':
          return ['contains'];
      }
    })();
    if (allowed.includes(operator)) {
      expect(r.ok ? 'ok' : r.errors[0]?.message).toBe('ok');
    } else {
      expect(r.ok ? 'ok' : r.errors[0]?.message).toMatch(
        new RegExp(`^filtering\\.conditions\\[0\\]: operator '${operator}' is not allowed for field '${field}' \\(allowed: `),
      );
    }
  });
});

describe('compileFilter: logical operators', () => {
  const a = { field: 'span_name', value: 'a' };
  const b = { field: 'span_name', value: 'b' };

  it.each([
    ['and (default)', undefined, '(span_name = "a") AND (span_name = "b")'],
    ['and', 'and', '(span_name = "a") AND (span_name = "b")'],
    ['or', 'or', '(span_name = "a") OR (span_name = "b")'],
    ['nand', 'nand', 'NOT ((span_name = "a") AND (span_name = "b"))'],
    ['nor', 'nor', 'NOT ((span_name = "a") OR (span_name = "b"))'],
  ])('when two conditions are combined with %s, then each is parenthesised', (_, operator, sql) => {
    expect(body({ ...(operator ? { operator } : {}), conditions: [a, b] })).toBe(sql);
  });

  it('when not wraps one condition, then it is negated', () => {
    expect(body({ operator: 'not', conditions: [a] })).toBe('NOT (span_name = "a")');
    expect(body({ operator: 'nand', conditions: [a] })).toBe('NOT (span_name = "a")');
  });

  it('when filtering objects nest, then the structure is preserved', () => {
    expect(body({ operator: 'or', conditions: [a, { operator: 'not', conditions: [{ operator: 'and', conditions: [a, b] }] }] })).toBe(
      '(span_name = "a") OR (NOT ((span_name = "a") AND (span_name = "b")))',
    );
  });

  it('when a nested level has no conditions, then it constrains nothing', () => {
    expect(body({ conditions: [a, { operator: 'or', conditions: [] }] })).toBe('(span_name = "a") AND (1)');
  });

  it('when a nested level has only an operator, then it is still a level', () => {
    expect(body({ conditions: [{ operator: 'and' }] })).toBe('1');
  });

  it('when the filter is JSON text, then it is parsed', () => {
    expect(body(JSON.stringify({ operator: 'or', conditions: [a, b] }))).toBe('(span_name = "a") OR (span_name = "b")');
  });

  it('when nesting is exactly at the limit, then it compiles', () => {
    let f: Record<string, unknown> = { conditions: [a] };
    for (let i = 1; i < 16; i++) f = { conditions: [f] };
    expect(body(f)).toBe('span_name = "a"');
  });

  it('when 256 conditions are given, then they compile', () => {
    expect(body({ conditions: Array.from({ length: 256 }, () => a) }).split(' AND ')).toHaveLength(256);
  });
});

describe('compileFilter: parameters', () => {
  it('when a prefix is given, then parameters use it', () => {
    const r = compileFilter({ conditions: [{ field: 'span_name', value: 'a' }] }, { projectParam: 'project', paramPrefix: 'q' });
    expect(r).toEqual({ ok: true, sql: '(project_id = {project:String}) AND (span_name = {q0:String})', params: { q0: { type: 'String', value: 'a' } } });
  });

  it('when the project parameter name could collide or is not an identifier, then compiling throws (a programming error)', () => {
    expect(() => compileFilter(undefined, { projectParam: 'f0' })).toThrow(/collides/);
    expect(() => compileFilter(undefined, { projectParam: 'p}; DROP' })).toThrow(/not a valid/);
    expect(() => compileFilter(undefined, { projectParam: 'p', paramPrefix: 'a-b' })).toThrow(/not a valid/);
  });
});
