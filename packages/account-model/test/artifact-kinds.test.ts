// The pure parts of the testset and workflow kinds (E§2.2, E§2.7). Hash vectors were computed once
// with Python's hashlib (`blake2b(digest_size=16)`, `uuid.UUID(bytes=…, version=5)`,
// `json.dumps(data, sort_keys=True, separators=(",", ":"))`) on the same JSON texts, so equal
// answers mean ids equal to the reference's.
import { describe, expect, it } from 'vitest';
import {
  TESTSET_MAX_BYTES, applyTestsetDelta, dedupId, normaliseRows, pythonJson, rowHash, testcaseId, testsetRevisionDataSchema,
  type TestsetDeltaRow,
} from '../src/aggregates/artifact/kinds/testset.ts';
import {
  storedWorkflowData, inferRevisionFlags, parseWorkflowUri, workflowRevisionDataSchema, type FlagInput, type WorkflowRevisionFlags,
} from '../src/aggregates/artifact/kinds/workflow.ts';

const TESTSET = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
const parse = (text: string) => JSON.parse(text) as Record<string, unknown>;

const SIMPLE = String.raw`{"question":"What is 2+2?","answer":"4"}`;
const NESTED = String.raw`{"zeta":{"b":[1,2.5,null,true,false],"a":"caf\u00e9 \u2615 \ud834\udd1e"},"alpha":"\u65e5\u672c\u8a9e","n":-3,"e":1e-07,"big":1e16,"f":0.30000000000000004,"s":1.5e300,"t":0.0001,"u":123456789012.5}`;
const ESCAPES = String.raw`{"ctl":"a\nb\tc\u0001\u007f\"q\" \\ /","\uffff":1,"\ud834\udd1e":2,"B":3,"_":4,"a":[],"o":{}}`;

describe('pythonJson', () => {
  it('when data is nested with non-ASCII text and floats, then it writes Python\'s compact sorted form', () => {
    expect(pythonJson(parse(NESTED), { sortKeys: true, compact: true })).toBe(String.raw`{"alpha":"\u65e5\u672c\u8a9e","big":1e+16,"e":1e-07,"f":0.30000000000000004,"n":-3,"s":1.5e+300,"t":0.0001,"u":123456789012.5,"zeta":{"a":"caf\u00e9 \u2615 \ud834\udd1e","b":[1,2.5,null,true,false]}}`);
  });

  it('when strings hold controls, quotes and keys beyond the BMP, then escapes and key order are Python\'s', () => {
    // U+FFFF sorts before U+1D11E by code point, after it by UTF-16 unit.
    expect(pythonJson(parse(ESCAPES), { sortKeys: true, compact: true })).toBe(String.raw`{"B":3,"_":4,"a":[],"ctl":"a\nb\tc\u0001\u007f\"q\" \\ /","o":{},"\uffff":1,"\ud834\udd1e":2}`);
  });

  it('when not compact, then the separators are Python\'s defaults', () => {
    expect(pythonJson(parse(SIMPLE))).toBe('{"question": "What is 2+2?", "answer": "4"}');
  });

  it('when numbers need an exponent, then it is written as Python\'s repr', () => {
    expect(pythonJson([1e21, 5e-324, 1.7976931348623157e308, -0.5, 100.25, 1e15 + 0.5, 12345678.9, -0])).toBe('[1e+21, 5e-324, 1.7976931348623157e+308, -0.5, 100.25, 1000000000000000.5, 12345678.9, 0]');
  });
});

describe('testcaseId', () => {
  it.each([
    ['flat', SIMPLE, '3e5b16d2-bcfe-55c4-86fd-f83dc792764d'],
    ['nested, non-ASCII, floats', NESTED, 'c2629e33-6f05-5e36-9386-0e2a09573bd4'],
    ['escapes and astral keys', ESCAPES, '39d36415-9295-585a-b41e-97fcca1e41d9'],
    ['empty', '{}', '49e70ee7-9868-5ff7-933c-1886abf9062d'],
    ['with a dedup id', '{"question":"same","testcase_dedup_id":"abc123"}', 'e72c96a7-5c7b-505f-8bb6-6f894141335d'],
  ])('when the data is %s, then the id is Python\'s', (_name, text, id) => {
    expect(testcaseId(TESTSET, parse(text))).toBe(id);
  });

  it('when the testset id is spelled in upper case or without dashes, then the id is the same', () => {
    const id = testcaseId(TESTSET, parse(SIMPLE));
    expect(testcaseId(TESTSET.toUpperCase(), parse(SIMPLE))).toBe(id);
    expect(testcaseId(TESTSET.replace(/-/g, ''), parse(SIMPLE))).toBe(id);
  });

  it('when the key order differs, then the id is the same; in another testset it differs', () => {
    expect(testcaseId(TESTSET, { answer: '4', question: 'What is 2+2?' })).toBe(testcaseId(TESTSET, parse(SIMPLE)));
    expect(testcaseId('0192f3a4-5b6c-7d8e-9f01-23456789abce', parse(SIMPLE))).not.toBe(testcaseId(TESTSET, parse(SIMPLE)));
  });

  it('when the testset id is not a UUID, then it throws', () => {
    expect(() => testcaseId('nope', {})).toThrow(TypeError);
  });
});

describe('dedupId and rowHash', () => {
  it('when given a row hash and an index, then it is Python\'s BLAKE2b-48 of "<hash>:<index>"', () => {
    expect(dedupId(TESTSET, 0)).toBe('9717786a0677');
    expect(dedupId(TESTSET, 1)).toBe('d48358022858');
    expect(dedupId('c6e6408b-6c09-5e4a-806a-7f9b83aabba5', 7)).toBe('4383d2f3164f');
  });

  it('when the row has no UUID testcase_id, then its hash is the unscoped content hash', () => {
    expect(rowHash(parse(SIMPLE))).toBe('c6e6408b-6c09-5e4a-806a-7f9b83aabba5');
    expect(rowHash(parse(NESTED), 'not-a-uuid')).toBe('62d4bfa9-77f5-5df1-aaf3-1a7995761229');
    expect(rowHash({}, 'E72C96A7-5C7B-505F-8BB6-6F894141335D')).toBe('e72c96a7-5c7b-505f-8bb6-6f894141335d');
  });
});

describe('normaliseRows', () => {
  it('when rows repeat, carry ids or dedup ids, then each gets the reference\'s dedup id (vectors from Python)', () => {
    const rows = [
      { data: { q: 'same' } },
      { data: { q: 'same' } },
      { data: { q: 'x', testcase_id: '3E5B16D2-BCFE-55C4-86FD-F83DC792764D' }, tags: { t: 1 } },
      { data: { q: 'y', testcase_dedup_id: 'mine' } },
      { data: { q: 'z', testcase_dedup_id: '' } },
    ];
    const result = normaliseRows(rows);
    expect(result).toEqual({
      ok: true, count: 5, bytes: 239,
      rows: [
        { data: { q: 'same', testcase_dedup_id: 'fc83bc71cebf' } },
        { data: { q: 'same', testcase_dedup_id: '0e47bd9c39a7' } },
        { data: { q: 'x', testcase_dedup_id: 'e561c283d217' }, tags: { t: 1 } },
        { data: { q: 'y', testcase_dedup_id: 'mine' } },
        { data: { q: 'z', testcase_dedup_id: '8feb659d5c50' } },
      ],
    });
    expect(rows[2]?.data).toHaveProperty('testcase_id'); // the input is untouched
  });

  it('when two rows share an explicit testcase_id, then both are kept but counted once', () => {
    const id = '3e5b16d2-bcfe-55c4-86fd-f83dc792764d';
    const result = normaliseRows([{ data: { q: 'a', testcase_id: id } }, { data: { q: 'b', testcase_id: id } }]);
    expect(result.ok && [result.rows.length, result.count]).toEqual([2, 1]);
  });

  it('when there are 10,000 rows, then they pass; at 10,001 the count limit fails as a value', () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => ({ data: { i } }));
    expect(normaliseRows(rows.slice(0, 10_000)).ok).toBe(true);
    expect(normaliseRows(rows)).toEqual({
      ok: false, code: 'testset_too_many_testcases', limit: 10_000,
      message: 'Testset exceeds the maximum count of 10000 testcases per testset.',
    });
  }, 30_000);

  it('when the rows\' JSON is exactly 10 MiB, then they pass; one byte more fails the size limit', () => {
    // [{"v": "<s>", "testcase_dedup_id": "<12 hex>"}] is the string plus 48 bytes.
    const fits = normaliseRows([{ data: { v: 'a'.repeat(TESTSET_MAX_BYTES - 48) } }]);
    expect(fits.ok && fits.bytes).toBe(TESTSET_MAX_BYTES);
    expect(normaliseRows([{ data: { v: 'a'.repeat(TESTSET_MAX_BYTES - 47) } }])).toMatchObject({
      ok: false, code: 'testset_too_large', message: 'Testset exceeds the maximum size of 10 MB per testset.',
    });
  }, 30_000); // two 10 MiB rows hashed and serialised: about a second

  it('when a value is non-ASCII, then its size counts the escaped form, as Python does', () => {
    const ascii = normaliseRows([{ data: { v: 'e', testcase_dedup_id: 'x' } }]);
    const accented = normaliseRows([{ data: { v: 'é', testcase_dedup_id: 'x' } }]);
    expect(accented.ok && ascii.ok && accented.bytes - ascii.bytes).toBe(5); // \u00e9 is 6 bytes
  });
});

describe('applyTestsetDelta', () => {
  const base: TestsetDeltaRow[] = [
    { id: 'a0000000-0000-5000-8000-000000000001', data: { q: '1', a: 'x' } },
    { id: 'a0000000-0000-5000-8000-000000000002', data: { q: '2', a: 'y' } },
    { id: 'a0000000-0000-5000-8000-000000000003', data: { q: '3', a: 'z' } },
    { id: 'a0000000-0000-5000-8000-000000000002', data: { q: '2', a: 'y' } },
  ];

  it('when rows are replaced, removed and added, then replacements stay in place, removals go everywhere, additions come last', () => {
    const rows = applyTestsetDelta(base, {
      rows: {
        replace: [{ id: 'A0000000-0000-5000-8000-000000000003', data: { q: '3!', a: 'z!' } }],
        remove: ['a0000000-0000-5000-8000-000000000002', 'a0000000-0000-5000-8000-000000000099'],
        add: [{ data: { q: '4', a: 'w' } }],
      },
    });
    expect(rows).toEqual([
      base[0],
      { data: { q: '3!', a: 'z!' } },
      { data: { q: '4', a: 'w' } },
    ]);
  });

  it('when columns are renamed, removed and added, then every row follows, key order kept and new columns empty', () => {
    const rows = applyTestsetDelta(base.slice(0, 2), {
      rows: { add: [{ data: { question: '5' } }] },
      columns: { replace: [['q', 'question']], remove: ['a'], add: ['expected', 'question'] },
    });
    expect(rows).toEqual([
      { data: { question: '1', expected: '' } },
      { data: { question: '2', expected: '' } },
      { data: { question: '5', expected: '' } },
    ]);
    expect(Object.keys(applyTestsetDelta(base.slice(0, 1), { columns: { replace: [['q', 'b']] } })[0]?.data ?? {})).toEqual(['b', 'a']);
  });

  it('when a column op changes nothing in a row, then the row keeps its id', () => {
    const rows = applyTestsetDelta(base.slice(0, 1), { columns: { remove: ['missing'], add: ['q'], replace: [['nope', 'x']] } });
    expect(rows).toEqual([base[0]]);
  });

  it('when the delta is empty, then the rows are the base rows', () => {
    expect(applyTestsetDelta(base, {})).toEqual(base);
    expect(applyTestsetDelta(base, { rows: null, columns: null })).toEqual(base);
  });
});

describe('testsetRevisionDataSchema', () => {
  it('when data holds ids and testcases, then it parses and extra testcase fields are dropped', () => {
    const parsed = testsetRevisionDataSchema.parse({
      testcase_ids: ['3e5b16d2-bcfe-55c4-86fd-f83dc792764d'],
      testcases: [{ data: { q: 1 }, testset_id: TESTSET, created_at: 'now' }],
    });
    expect(parsed).toEqual({ testcase_ids: ['3e5b16d2-bcfe-55c4-86fd-f83dc792764d'], testcases: [{ data: { q: 1 } }] });
  });

  it('when data has an unknown key, then the error names it', () => {
    const result = testsetRevisionDataSchema.safeParse({ testcases: [], rows: [] });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['rows'], message: expect.stringContaining('rows') as unknown })]);
  });

  it('when an id is not a UUID or a testcase has no data, then it fails', () => {
    expect(testsetRevisionDataSchema.safeParse({ testcase_ids: ['x'] }).success).toBe(false);
    expect(testsetRevisionDataSchema.safeParse({ testcases: [{}] }).success).toBe(false);
  });
});

describe('parseWorkflowUri', () => {
  it.each([
    ['agenta:builtin:auto_exact_match:v0', { provider: 'agenta', kind: 'builtin', key: 'auto_exact_match', version: 'v0' }],
    ['user:custom:my-app:v3', { provider: 'user', kind: 'custom', key: 'my-app', version: 'v3' }],
    ['custom:mock:v0', { provider: 'agenta', kind: 'custom', key: 'mock', version: 'v0' }],
    ['echo:v1', { provider: 'agenta', kind: 'builtin', key: 'echo', version: 'v1' }],
    ['echo', { provider: 'agenta', kind: 'builtin', key: 'echo', version: 'latest' }],
    [':custom:hook:', { provider: 'agenta', kind: 'custom', key: 'hook', version: 'latest' }],
  ])('when the URI is %j, then the parts are filled with the defaults', (uri, parts) => {
    expect(parseWorkflowUri(uri)).toEqual(parts);
  });

  it.each(['', 'a:b:c:d:e', 'agenta:builtin::v0'])('when the URI is %j, then it does not parse', (uri) => {
    expect(parseWorkflowUri(uri)).toBeUndefined();
  });
});

describe('inferRevisionFlags', () => {
  const none: WorkflowRevisionFlags = {
    is_application: false, is_evaluator: false, is_snippet: false, is_managed: false, is_custom: false, is_llm: false,
    is_hook: false, is_code: false, is_match: false, is_feedback: false, is_agent: false, is_skill: false, is_chat: false,
    has_url: false, has_script: false, has_handler: false, is_static: false,
  };
  const managed = { ...none, is_managed: true, has_handler: true };

  it.each<[string, FlagInput, Partial<WorkflowRevisionFlags>]>([
    ['no URI', {}, { is_evaluator: true }],
    ['an exact-match evaluator', { uri: 'agenta:builtin:auto_exact_match:v0' }, { ...managed, is_evaluator: true, is_match: true }],
    ['a short builtin URI', { uri: 'auto_ai_critique' }, { ...managed, is_evaluator: true, is_llm: true }],
    ['semantic similarity', { uri: 'agenta:builtin:auto_semantic_similarity:v0' }, { ...managed, is_evaluator: true, is_match: true, is_llm: true }],
    ['a webhook evaluator', { uri: 'agenta:builtin:auto_webhook_test:v0' }, { ...managed, is_evaluator: true, is_hook: true }],
    ['a code evaluator', { uri: 'agenta:builtin:auto_custom_code_run:v0', script: 'def f(): ...' }, { ...managed, is_evaluator: true, is_code: true, has_script: true }],
    ['an archived template', { uri: 'agenta:builtin:auto_contains_any:v0' }, { ...managed, is_evaluator: true, is_match: true }],
    ['the chat application', { uri: 'agenta:builtin:chat:v0' }, { ...managed, is_application: true, is_llm: true, is_chat: true }],
    ['completion with a messages input', { uri: 'agenta:builtin:completion:v0', schemas: { inputs: { type: 'object', properties: { messages: { type: 'array' } } } } }, { ...managed, is_application: true, is_llm: true, is_chat: true }],
    ['an agent', { uri: 'agenta:builtin:agent:v0' }, { ...managed, is_application: true, is_llm: true, is_agent: true }],
    ['a skill', { uri: 'agenta:builtin:skill:v0' }, { ...managed, is_snippet: true, is_skill: true }],
    ['prompt', { uri: 'agenta:builtin:prompt:v0' }, { ...managed, is_application: true, is_evaluator: true, is_llm: true }],
    ['feedback', { uri: 'agenta:custom:feedback:v0' }, { ...managed, is_evaluator: true, is_custom: true, is_feedback: true }],
    ['the mock with a URL', { uri: 'agenta:custom:mock:v0', url: 'http://x/services/mock/v0' }, { ...managed, is_application: true, is_evaluator: true, is_custom: true, has_url: true }],
    ['a custom hook', { uri: 'agenta:custom:hook:v0' }, { ...managed, is_application: true, is_evaluator: true, is_custom: true, is_hook: true }],
    ['another provider', { uri: 'acme:custom:app:v1', url: ' ' }, { is_custom: true }],
    ['roles sent by the request', { uri: 'agenta:builtin:auto_exact_match:v0', requested: { is_application: true } }, { ...managed, is_application: true, is_match: true }],
    ['null roles in the request', { requested: { is_application: null, is_evaluator: null } }, { is_evaluator: true }],
    ['a static slug', { uri: 'agenta:builtin:echo:v0', slug: '__ag__echo' }, { ...managed, is_application: true, is_evaluator: true, is_static: true }],
  ])('when the revision is %s, then the flags follow', (_name, input, expected) => {
    expect(inferRevisionFlags(input)).toEqual({ ok: true, flags: { ...none, ...expected } });
  });

  it('when an agenta URI names no known handler, then the result is a typed failure', () => {
    expect(inferRevisionFlags({ uri: 'agenta:builtin:nonsense:v0' })).toMatchObject({ ok: false, code: 'workflow_handler_unknown', message: expect.stringContaining('nonsense') as unknown });
    // A known key under the wrong kind is not that handler.
    expect(inferRevisionFlags({ uri: 'agenta:custom:auto_exact_match:v0' })).toMatchObject({ ok: false, code: 'workflow_handler_unknown' });
    expect(inferRevisionFlags({ uri: 'a:b:c:d:e' })).toMatchObject({ ok: false, code: 'workflow_uri_invalid' });
  });
});

describe('storedWorkflowData', () => {
  it('when the handler is a skill, then only uri, parameters and schemas.parameters remain', () => {
    expect(storedWorkflowData({
      uri: 'agenta:builtin:skill:v0', url: 'http://x', headers: { a: 'b' }, script: 'x', parameters: { p: 1 },
      schemas: { parameters: { type: 'object' }, outputs: { type: 'object' } },
    })).toEqual({ uri: 'agenta:builtin:skill:v0', parameters: { p: 1 }, schemas: { parameters: { type: 'object' } } });
  });

  it('when the handler is anything else, then the data is stored as sent (no services url is derived)', () => {
    expect(storedWorkflowData({ uri: 'agenta:custom:mock:v0', parameters: { key: 'echo' } })).toEqual({ uri: 'agenta:custom:mock:v0', parameters: { key: 'echo' } });
    expect(storedWorkflowData({ uri: 'acme:custom:skill:v1', url: 'https://mine' })).toEqual({ uri: 'acme:custom:skill:v1', url: 'https://mine' });
  });
});

describe('workflowRevisionDataSchema', () => {
  it('when data holds the known keys, then it parses', () => {
    const data = {
      uri: 'agenta:custom:mock:v0', url: 'http://x', headers: { authorization: 'x' }, runtime: 'python', script: 'print(1)',
      schemas: { parameters: {}, inputs: {}, outputs: {} }, parameters: { key: 'echo' },
    };
    expect(workflowRevisionDataSchema.parse(data)).toEqual(data);
  });

  it('when data or its schemas have an unknown key, then the error names it and where', () => {
    const top = workflowRevisionDataSchema.safeParse({ uri: 'echo', service: {} });
    expect(top.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['service'], path: [] })]);
    const nested = workflowRevisionDataSchema.safeParse({ schemas: { input: {} } });
    expect(nested.error?.issues).toEqual([expect.objectContaining({ code: 'unrecognized_keys', keys: ['input'], path: ['schemas'] })]);
  });
});
