// Injection and tenancy: no user text ever reaches the SQL text, and the project clause cannot be
// escaped by anything the filter says.
import { describe, expect, it } from 'vitest';

import { compileFilter, CONDITION_OPERATORS, LOGICAL_OPERATORS, type CompileResult } from '../src/index.ts';

const MARK = 'ZQXJ';
const HOSTILE = [
  `${MARK}' OR 1=1 --`,
  `${MARK}') OR ('1'='1`,
  `${MARK}{f0:String}`,
  `${MARK}}) OR 1=1 OR ({`,
  `${MARK}\\' OR 1 --`,
  `${MARK}); DROP TABLE llm.spans; --`,
  `${MARK}{project:String}`,
  `${MARK}\`; "x" /* */`,
  `${MARK}\n\t\r`,
];

/** Quoted literals the compiler itself writes: JSON type names, nothing else. */
const OWN_LITERALS = new Set(["'String'", "'Null'", "'Array'", "'Object'", "'Bool'", "'Int64'", "'UInt64'", "'Double'", "'UTC'"]);
const PLACEHOLDER = /\{([A-Za-z_]\w*):([^{}]*)\}/g;
const TYPES = new Set(['String', 'Array(String)', 'Float64', 'UInt8', "DateTime64(6,'UTC')", "Array(DateTime64(6,'UTC'))"]);

/** Every invariant of a successful compile that keeps user text out of the SQL text. */
function expectSafe(r: CompileResult): void {
  if (!r.ok) return;
  expect(r.sql).not.toContain(MARK);
  const placeholders = [...r.sql.matchAll(PLACEHOLDER)];
  for (const [, name, type] of placeholders) {
    if (name === 'project') continue;
    expect(TYPES.has(type!), type).toBe(true);
    expect(r.params[name!]?.type).toBe(type);
  }
  const rest = r.sql.replace(PLACEHOLDER, '?');
  for (const literal of rest.match(/'[^']*'/g) ?? []) expect(OWN_LITERALS.has(literal), literal).toBe(true);
  expect(rest).not.toMatch(/["`\\;]|--|\/\*/);
  expectProjectFirst(r.sql);
}

/** The SQL is `(project_id = …) AND (<user part>)` and the user part's parenthesis closes at the very end. */
function expectProjectFirst(sql: string): void {
  const head = '(project_id = ?) AND ';
  const flat = sql.replace(PLACEHOLDER, '?');
  expect(sql.startsWith('(project_id = {project:String}) AND (')).toBe(true);
  const userPart = flat.slice(head.length);
  let depth = 0;
  for (let i = 0; i < userPart.length; i++) {
    if (userPart[i] === '(') depth++;
    else if (userPart[i] === ')') depth--;
    if (depth === 0) expect(i).toBe(userPart.length - 1);
  }
  expect(depth).toBe(0);
}

const compile = (f: unknown): CompileResult => compileFilter(f, { projectParam: 'project' });

describe('compileFilter: injection', () => {
  const slots = (h: string): Array<[string, unknown]> => [
    ['a text value', { field: 'span_name', value: h }],
    ['a text list', { field: 'session_id', operator: 'in', value: [h, 'x'] }],
    ['a like pattern', { field: 'span_name', operator: 'like', value: h }],
    ['a text comparison', { field: 'user_id', operator: 'gt', value: h }],
    ['a time text match', { field: 'start_time', operator: 'contains', value: h }],
    ['an attribute key', { field: 'attributes', key: `ag.${h}.x`, operator: 'exists' }],
    ['an attribute path in the field', { field: `attributes.${h}`, value: 1 }],
    ['an attribute string value', { field: 'attributes', key: 'a', value: h }],
    ['an attribute object key', { field: 'attributes', key: 'a', value: { [h]: { [h]: [h] } } }],
    ['an attribute list', { field: 'attributes', key: 'a', operator: 'in', value: [h, { [h]: h }] }],
    ['an attribute text comparison', { field: 'attributes', key: h, operator: 'btwn', value: [h, h] }],
    ['an attribute string match', { field: 'attributes', key: 'a', operator: 'matches', value: h, options: { exact_match: true } }],
    ['a has key', { field: 'links', operator: 'has', key: `attributes.${h}`, value: h }],
    ['a has key without value', { field: 'events', operator: 'has', key: h }],
    ['a reference slug', { field: 'references', operator: 'in', value: [{ slug: h, version: h, attributes: { [h]: h } }] }],
    ['an event name', { field: 'events', operator: 'not_in', value: [h] }],
    ['a content search', { field: 'content', operator: 'contains', value: h }],
  ];

  const cases = HOSTILE.flatMap((h, i) => slots(h).map(([slot, c]) => [slot, i, c] as const));
  it.each(cases)('when %s carries hostile text #%i, then the text is only in the parameters', (_, __, condition) => {
    const r = compile({ conditions: [condition] });
    expect(r.ok ? 'ok' : r.errors[0]?.message).toBe('ok');
    if (!r.ok) return;
    expectSafe(r);
    expect(JSON.stringify(r.params)).toContain(MARK);
  });

  // NUL and lone surrogates are refused wherever text goes (the stores cannot hold them; see
  // @llm/contracts text.ts), so they never reach the parameters either.
  const unstorable = (['\u0000', '\ud800', '\udc00'] as const).flatMap((bad) => slots(`${MARK}${bad}`).map(([slot, c]) => [slot, JSON.stringify(bad), c] as const));
  it.each(unstorable)('when %s carries %s, then it is an error naming the position and no SQL is produced', (_, __, condition) => {
    const r = compile({ conditions: [condition] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]!.message).toMatch(/^filtering\.conditions\[0\][.\w[\]]*: .*(NUL|surrogate)/);
  });

  it('when a field name or operator is hostile, then it is an error and no SQL is produced', () => {
    for (const h of HOSTILE) {
      expect(compile({ conditions: [{ field: h, value: 'x' }] }).ok).toBe(false);
      expect(compile({ conditions: [{ field: 'span_name', operator: h, value: 'x' }] }).ok).toBe(false);
      expect(compile({ operator: h, conditions: [] }).ok).toBe(false);
    }
  });

  it('when an error message echoes user text, then it is clipped', () => {
    const r = compile({ conditions: [{ field: 'x'.repeat(100_000) }] });
    expect(!r.ok && r.errors[0]!.message.length).toBeLessThan(1000);
  });
});

describe('compileFilter: tenancy', () => {
  const others = { field: 'span_name', value: 'x' };
  it.each<[string, unknown]>([
    ['a top-level or', { operator: 'or', conditions: [others, others] }],
    ['a nested or', { conditions: [{ operator: 'or', conditions: [others, { field: 'span_name', operator: 'exists' }] }] }],
    ['a nor', { operator: 'nor', conditions: [others, others] }],
    ['a not', { operator: 'not', conditions: [others] }],
    ['an attribute in list', { operator: 'or', conditions: [{ field: 'attributes', key: 'a', operator: 'in', value: [1, 2, 3] }, others] }],
  ])('when the filter is %s, then the project clause comes first and wraps nothing of the user', (_, f) => {
    const r = compile(f);
    expect(r.ok).toBe(true);
    expectSafe(r);
  });

  it('when a condition names project_id, then it is refused', () => {
    const r = compile({ operator: 'or', conditions: [{ field: 'project_id', value: 'other' }, others] });
    expect(!r.ok && r.errors[0]!.message).toMatch(/^filtering\.conditions\[0\]: unknown field 'project_id'/);
  });
});

describe('compileFilter: fuzz', () => {
  // A small deterministic PRNG (mulberry32): the same "random" filters on every run.
  function rng(seed: number): () => number {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const FIELDS = ['trace_id', 'span_id', 'parent_id', 'span_name', 'session_id', 'span_kind', 'start_time', 'attributes', 'links', 'references', 'events', 'hashes', 'content'];

  function randomFilter(r: () => number, depth: number): unknown {
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const text = (): string => pick([...HOSTILE, 'a', 'b.c', '0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', '2024-01-01']);
    const value = (d: number): unknown => {
      const k = r();
      if (d > 2 || k < 0.4) return text();
      if (k < 0.55) return Math.floor(r() * 100) / 4;
      if (k < 0.6) return r() < 0.5;
      if (k < 0.65) return null;
      if (k < 0.85) return [value(d + 1), value(d + 1)];
      return { [text()]: value(d + 1) };
    };
    if (depth < 4 && r() < 0.3) {
      return { operator: pick(LOGICAL_OPERATORS), conditions: Array.from({ length: 1 + Math.floor(r() * 3) }, () => randomFilter(r, depth + 1)) };
    }
    const c: Record<string, unknown> = { field: pick(FIELDS), operator: pick(CONDITION_OPERATORS) };
    if (r() < 0.8) c.value = value(0);
    if (r() < 0.5) c.key = text();
    return c;
  }

  it('when 3000 random filters with hostile text are compiled, then every success is safe and every failure is a named error', () => {
    const r = rng(42);
    let compiled = 0;
    for (let i = 0; i < 3000; i++) {
      const f = randomFilter(r, 0);
      const res = compile({ conditions: [f] });
      if (res.ok) {
        compiled++;
        expectSafe(res);
      } else {
        for (const e of res.errors) expect(e.message).toMatch(/^filtering(\.|\[|:)/);
      }
    }
    expect(compiled).toBeGreaterThan(100);
  });
});
