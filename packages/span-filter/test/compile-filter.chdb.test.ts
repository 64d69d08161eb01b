// The compiled SQL runs on the embedded ClickHouse engine (chDB) against the real span table: proof
// that it is valid ClickHouse and means what the unit tests say it means.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateClickhouse, openClickhouse, type Clickhouse } from '@llm/clickhouse';

import { compileFilter, compileWindowing, spanCursor, traceCursor, type SqlParams } from '../src/index.ts';
import { HASH_ID, PROJECT, REF_ID, s, SPANS, T1, T2, T3, toRow } from './fixtures/span-rows.ts';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../services/projector-spans/migrations/');
const dashed = (hex: string): string => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`.toUpperCase();
const ALL = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const except = (...n: number[]): number[] => ALL.filter((x) => !n.includes(x));

let dir: string;
let ch: Clickhouse;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'span-filter-chdb-'));
  ch = await openClickhouse({ dataDir: dir, database: 'llm' });
  await migrateClickhouse(ch, MIGRATIONS);
  await ch.client.insert({ table: 'llm.spans', values: SPANS.map(toRow), format: 'JSONEachRow' });
}, 60_000);

afterAll(async () => {
  await ch?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function values(params: SqlParams): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v.value]));
}

async function rows<T>(query: string, params: Record<string, unknown>): Promise<T[]> {
  const r = await ch.client.query({ query, query_params: params, format: 'JSONEachRow' });
  return r.json<T>();
}

async function matching(filtering: unknown): Promise<number[]> {
  const r = compileFilter(filtering, { projectParam: 'project' });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  const out = await rows<{ span_id: string }>(`SELECT span_id FROM llm.spans WHERE ${r.sql} ORDER BY span_id`, {
    ...values(r.params),
    project: PROJECT,
  });
  return out.map((x) => parseInt(x.span_id, 16));
}

const cond = (field: string, operator: string, value?: unknown, extra: Record<string, unknown> = {}) => ({
  conditions: [{ field, operator, ...(value === undefined ? {} : { value }), ...extra }],
});

describe('compiled filters on chDB', () => {
  it.each<[string, unknown, number[]]>([
    ['no filter', undefined, ALL],
    ['trace_id is a dashed uppercase UUID', cond('trace_id', 'is', dashed(T1)), [1, 2]],
    ['trace_id in hex and 0x forms', cond('trace_id', 'in', [T2, `0x${T3}`]), [3, 4, 5, 6]],
    ['trace_id is_not', cond('trace_id', 'is_not', T1), except(1, 2)],
    ['span_id is', cond('span_id', 'is', s(2)), [2]],
    ['span_id not_in', cond('span_id', 'not_in', [s(1), s(2)]), except(1, 2)],
    ['parent_id is null (roots)', cond('parent_id', 'is', null), [1, 3, 5, 7]],
    ['parent_id is_not null', cond('parent_id', 'is_not', null), [2, 4, 6, 8, 9]],
    ['parent_id is', cond('parent_id', 'is', s(7)), [8, 9]],
    ['parent_id exists', cond('parent_id', 'exists'), [2, 4, 6, 8, 9]],
    ['parent_id in [null, id]', cond('parent_id', 'in', [null, s(3)]), [1, 3, 4, 5, 7]],
    ['span_kind is', cond('span_kind', 'is', 'SPAN_KIND_SERVER'), [1]],
    ['status_code in', cond('status_code', 'in', ['STATUS_CODE_ERROR', 'STATUS_CODE_OK']), [1, 2]],
    ['trace_type is', cond('trace_type', 'is', 'annotation'), [3]],
    ['span_type is_not', cond('span_type', 'is_not', 'task'), [1, 2]],
    ['span_name startswith, any case', cond('span_name', 'startswith', 'root'), [1]],
    ['span_name startswith, case-sensitive miss', cond('span_name', 'startswith', 'root', { options: { case_sensitive: true } }), []],
    ['span_name startswith, case-sensitive hit', cond('span_name', 'startswith', 'Root', { options: { case_sensitive: true } }), [1]],
    ['span_name endswith', cond('span_name', 'endswith', 'CALL'), [1, 2]],
    ['span_name contains', cond('span_name', 'contains', 'TIE'), [4, 5, 6]],
    ['span_name matches (substring)', cond('span_name', 'matches', 'call'), [1, 2]],
    ['span_name matches exact', cond('span_name', 'matches', 'llm CALL', { options: { exact_match: true } }), [2]],
    ['span_name like', cond('span_name', 'like', 'tie _'), [4, 5, 6]],
    ['span_name like with an escaped %', cond('span_name', 'like', '%50\\%%'), [8]],
    ['span_name is, with a quote', cond('span_name', 'is', "it's 50% off"), [8]],
    ['span_name gt (text order)', cond('span_name', 'gt', 'tie'), [4, 5, 6]],
    ['span_name btwn', cond('span_name', 'btwn', ['a', 'f']), [3, 9]],
    ['span_name in', cond('span_name', 'in', ['events', 'metrics']), [7, 9]],
    ['status_message contains', cond('status_message', 'contains', 'rate limit'), [2]],
    ['status_message exists', cond('status_message', 'exists'), [2]],
    ['status_message not_exists', cond('status_message', 'not_exists'), except(2)],
    ['session_id is', cond('session_id', 'is', 'sess-1'), [1]],
    ['session_id is null', cond('session_id', 'is', null), except(1, 8)],
    ['user_id in', cond('user_id', 'in', ['user-1']), [1]],
    ['start_time gte ISO date', cond('start_time', 'gte', '2024-01-17'), [4, 5, 6, 7, 8, 9]],
    ['start_time lt unix seconds', cond('start_time', 'lt', 1705449600), [1, 2, 3]],
    ['start_time is', cond('start_time', 'is', '2024-01-17T00:00:00Z'), [4, 5, 6]],
    ['start_time btwn', cond('start_time', 'btwn', ['2024-01-15T10:00:00.05Z', '2024-01-16']), [2, 3]],
    ['start_time in ISO and ms', cond('start_time', 'in', ['2024-01-16T00:00:00Z', 1705536000000]), [3, 7]],
    ['start_time startswith (text form)', cond('start_time', 'startswith', '2024-01-18'), [7, 8, 9]],
    ['created_at gt', cond('created_at', 'gt', '2024-01-31T12:00:00Z'), [9]],
    ['end_time eq', cond('end_time', 'eq', '2024-01-16T00:00:00Z'), [3]],
  ])('when filtering by %s, then the expected spans match', async (_, filtering, expected) => {
    expect(await matching(filtering)).toEqual(expected);
  });

  const attr = (key: string, operator: string, value?: unknown, options?: object) =>
    cond('attributes', operator, value, { key, ...(options ? { options } : {}) });

  it.each<[string, unknown, number[]]>([
    ['is a string leaf', attr('ag.data.inputs.country', 'is', 'France'), [1]],
    ['is a partial object', attr('ag.data.inputs', 'is', { country: 'France' }), [1]],
    ['is an array subset', attr('tags.list', 'is', ['b']), [1]],
    ['is a scalar (arrays do not match)', attr('tags.env', 'is', 'prod'), [1]],
    ['is null (explicit null only)', attr('tags.nothing', 'is', null), [3]],
    ['is true', attr('tags.flag', 'is', true), [3]],
    ['is a number', attr('n', 'is', 2), [5]],
    ['is a number written as a float', attr('n', 'is', 2.0), [5]],
    ['is a numeric string', attr('n', 'is', '10'), [6]],
    ['is a number against a numeric string', attr('n', 'is', 10), []],
    ['is_not (missing keys included)', attr('n', 'is_not', 1), except(4)],
    ['gt a number', attr('ag.metrics.costs.cumulative.total', 'gt', 0.3), [1]],
    ['lte a number', attr('ag.metrics.costs.cumulative.total', 'lte', 0.25), [2]],
    ['btwn numbers', attr('ag.metrics.costs.cumulative.total', 'btwn', [0.2, 0.6]), [1, 2]],
    ['neq a number (missing keys excluded)', attr('ag.metrics.costs.cumulative.total', 'neq', 0.5), [2]],
    ['gte a number, numeric strings cast', attr('n', 'gte', 4), [6, 8, 9]],
    ['gt on a numeric string leaf', attr('score', 'gt', 7), [8]],
    ['gt on a non-numeric leaf', attr('ag.metrics.duration.cumulative', 'gt', 1), []],
    ['gt a string (text order)', attr('tags.created_at', 'gt', '2024-01-15T00:00:00Z'), [2, 3]],
    ['gte a string', attr('tags.created_at', 'gte', '2024-01-15T00:00:00Z'), [1, 2, 3]],
    ['lt a string', attr('tags.created_at', 'lt', '2024-01-25T00:00:00Z'), [1, 2]],
    ['lte a string', attr('tags.created_at', 'lte', '2024-01-15T00:00:00Z'), [1]],
    ['btwn strings', attr('tags.created_at', 'btwn', ['2024-01-15T00:00:00Z', '2024-01-20T00:00:00Z']), [1, 2]],
    ['contains, any case, decoded string', attr('ag.data.inputs.prompt', 'contains', 'SAY "HI"'), [2]],
    ['startswith', attr('ag.data.inputs.prompt', 'startswith', 'say'), [2]],
    ['contains on a string leaf', attr('ag.data.outputs', 'contains', 'WORLD'), [1]],
    ['contains on an object leaf (its JSON)', attr('ag.data.outputs', 'contains', 'score'), [3]],
    ['contains, case-sensitive', attr('ag.data.outputs', 'contains', 'World', { case_sensitive: true }), []],
    ['like', attr('tags.created_at', 'like', '2024-01-2%'), [2, 3]],
    ['matches exact, any case', attr('tags.env', 'matches', 'PROD', { exact_match: true }), [1]],
    ['in (scalar or array element)', attr('tags.env', 'in', ['prod']), [1, 2]],
    ['in with all', attr('tags.env', 'in', ['eu', 'prod'], { all: true }), [2]],
    ['not_in (key must exist)', attr('tags.env', 'not_in', ['eu']), [1]],
    ['in numbers', attr('n', 'in', [1, 2]), [4, 5]],
    ['in objects inside arrays', attr('list', 'in', [{ k: 'u' }]), [7]],
    ['in a numeric string', attr('n', 'in', ['10']), [6]],
    ['exists', attr('tags.nothing', 'exists'), [3]],
    ['not_exists', attr('n', 'not_exists'), [1, 2, 3, 7]],
  ])('when filtering attributes: %s, then the expected spans match', async (_, filtering, expected) => {
    expect(await matching(filtering)).toEqual(expected);
  });

  it('when the attribute path is given in the field, then it works as the key', async () => {
    expect(await matching({ conditions: [{ field: 'attributes.tags.env', value: 'prod' }] })).toEqual([1]);
  });

  it.each<[string, unknown, number[]]>([
    ['links exists', cond('links', 'exists'), [3]],
    ['links not_exists', cond('links', 'not_exists'), except(3)],
    ['links in by trace id (dashed)', cond('links', 'in', [{ trace_id: dashed(T1) }]), [3]],
    ['links in, both ids must match', cond('links', 'in', [{ trace_id: T1, span_id: s(2) }]), []],
    ['links in by span id', cond('links', 'in', [{ span_id: s(1) }]), [3]],
    ['links in by attributes', cond('links', 'in', [{ attributes: { key: 'invocation' } }]), [3]],
    ['links not_in', cond('links', 'not_in', [{ trace_id: T1 }]), except(3)],
    ['links has attributes.key', cond('links', 'has', 'invocation', { key: 'attributes.key' }), [3]],
    ['links has_not attributes.key', cond('links', 'has_not', 'invocation', { key: 'attributes.key' }), except(3)],
    ['references in by slug', cond('references', 'in', [{ slug: 'app-one' }]), [1]],
    ['references in, slug and version ANDed', cond('references', 'in', [{ slug: 'app-one', version: 2 }]), []],
    ['references in, numeric version', cond('references', 'in', [{ slug: 'app-one', version: 1 }]), [1]],
    ['references in by id (any case)', cond('references', 'in', [{ id: REF_ID.toUpperCase() }]), [1]],
    ['references in, any probe', cond('references', 'in', [{ slug: 'app-one' }, { slug: 'evaluator-x' }]), [1, 3]],
    ['references in, all probes', cond('references', 'in', [{ slug: 'app-one' }, { slug: 'evaluator-x' }], { options: { all: true } }), []],
    ['references has attributes.key', cond('references', 'has', 'evaluator', { key: 'attributes.key' }), [3]],
    ['references has a key (no value)', cond('references', 'has', undefined, { key: 'slug' }), [1, 3]],
    ['references exists', cond('references', 'exists'), [1, 3]],
    ['events in by name (string)', cond('events', 'in', ['exception']), [2]],
    ['events in by name (object)', cond('events', 'in', [{ name: 'log' }]), [9]],
    ['events in, all', cond('events', 'in', [{ name: 'start' }, { name: 'log' }], { options: { all: true } }), [9]],
    ['events has attributes.level', cond('events', 'has', 'info', { key: 'attributes.level' }), [9]],
    ['events exists', cond('events', 'exists'), [2, 9]],
    ['hashes in by id', cond('hashes', 'in', [HASH_ID]), [1]],
    ['hashes has attributes.key', cond('hashes', 'has', 'indirect', { key: 'attributes.key' }), [1]],
    ['content contains, any case', cond('content', 'contains', 'HELLO'), [1]],
    ['content contains quotes', cond('content', 'contains', 'say "hi"'), [2]],
    ['content contains a newline', cond('content', 'contains', 'hi"\nplease'), [2]],
    ['content contains, in events', cond('content', 'contains', 'ratelimit'), [2]],
    ['content contains, event names', cond('content', 'contains', 'log'), [9]],
  ])('when filtering by %s, then the expected spans match', async (_, filtering, expected) => {
    expect(await matching(filtering)).toEqual(expected);
  });

  const is = (field: string, value: unknown) => ({ field, value });
  it.each<[string, unknown, number[]]>([
    ['or', { operator: 'or', conditions: [is('trace_id', T3), is('span_name', 'events')] }, [5, 6, 9]],
    ['not', { operator: 'not', conditions: [is('trace_id', T1)] }, except(1, 2)],
    ['nand', { operator: 'nand', conditions: [is('trace_id', T1), is('parent_id', null)] }, except(1)],
    ['nor', { operator: 'nor', conditions: [is('trace_id', T1), is('trace_id', T2)] }, [5, 6, 7, 8, 9]],
    [
      'nested and/or/not',
      {
        conditions: [
          { operator: 'or', conditions: [is('span_type', 'chat'), is('span_type', 'workflow')] },
          { operator: 'not', conditions: [is('status_code', 'STATUS_CODE_OK')] },
        ],
      },
      [2],
    ],
    ['not around a numeric attribute test on a non-numeric leaf', { operator: 'not', conditions: [cond('attributes', 'gt', 1, { key: 'n' }).conditions[0]] }, [1, 2, 3, 4, 7]],
    ['JSON text form', JSON.stringify({ operator: 'or', conditions: [is('span_id', s(1)), is('span_id', s(9))] }), [1, 9]],
  ])('when combining with %s, then the expected spans match', async (_, filtering, expected) => {
    expect(await matching(filtering)).toEqual(expected);
  });

  it("when an `or` matches rows of another project, then only the caller's project is returned", async () => {
    expect(await matching({ operator: 'or', conditions: [is('trace_id', T1), is('span_name', 'Root Call')] })).toEqual([1, 2]);
    const r = compileFilter(undefined, { projectParam: 'project' });
    if (!r.ok) throw new Error('unreachable');
    const p2 = await rows<{ span_id: string }>(`SELECT span_id FROM llm.spans WHERE ${r.sql}`, { project: 'p2' });
    expect(p2.map((x) => x.span_id)).toEqual([s(10)]);
  });

  it.each([
    ['a value', cond('span_name', 'is', "x') OR 1=1 OR ('")],
    ['an attribute key', cond('attributes', 'exists', undefined, { key: "a') OR 1=1 OR ('b" })],
    ['a like pattern', cond('span_name', 'like', "%' OR '1'='1")],
    ['a content search', cond('content', 'contains', "'); DROP TABLE llm.spans; --")],
  ])('when %s carries SQL, then the query runs and matches nothing', async (_, filtering) => {
    expect(await matching(filtering)).toEqual([]);
    expect(await matching(undefined)).toEqual(ALL);
  });
});

describe('windowing on chDB', () => {
  // Aliases must not reuse column names the SQL refers to: in ClickHouse a SELECT alias shadows the
  // column in WHERE/ORDER BY (unless prefer_column_name_to_alias = 1).
  type Row = { span_id: string; trace_id: string; start: string };

  async function spanPage(windowing: Record<string, unknown>): Promise<Row[]> {
    const f = compileFilter(undefined, { projectParam: 'project' });
    const w = compileWindowing(windowing, 'span');
    if (!f.ok || !w.ok) throw new Error('invalid');
    return rows<Row>(
      `SELECT span_id, trace_id, toString(start_time) AS start FROM llm.spans WHERE ${f.sql} AND ${w.where} ORDER BY ${w.orderBy} LIMIT ${w.limit}`,
      { ...values(f.params), ...values(w.params), project: PROJECT },
    );
  }

  async function walkSpans(windowing: Record<string, unknown>): Promise<number[]> {
    const seen: number[] = [];
    let next: string | undefined;
    for (let page = 0; page < 20; page++) {
      const got = await spanPage({ ...windowing, ...(next ? { next } : {}) });
      seen.push(...got.map((r) => parseInt(r.span_id, 16)));
      const last = got.at(-1);
      if (got.length < (windowing.limit as number) || last === undefined) return seen;
      next = spanCursor({ start_time: last.start, trace_id: last.trace_id, span_id: last.span_id });
    }
    throw new Error('did not finish');
  }

  it('when walking descending pages of 2 with the cursor, then every span comes exactly once in order', async () => {
    // Spans 4, 5, 6 share a start time; ties go by (trace_id, span_id) descending.
    expect(await walkSpans({ limit: 2 })).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('when walking ascending pages of 2, then every span comes exactly once in order', async () => {
    expect(await walkSpans({ limit: 2, order: 'ascending' })).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('when walking pages of 1 inside a time window, then only spans with oldest <= start_time < newest come', async () => {
    expect(await walkSpans({ limit: 1, oldest: '2024-01-16T00:00:00Z', newest: '2024-01-18T00:00:00Z' })).toEqual([6, 5, 4, 3]);
  });

  it('when sampling at a rate, then whole traces are kept or dropped, the same way every time', async () => {
    const full = await spanPage({ rate: 1, limit: 100 });
    expect(full).toHaveLength(9);
    for (const rate of [0.0001, 0.3, 0.5, 0.9]) {
      const a = await spanPage({ rate, limit: 100 });
      const b = await spanPage({ rate, limit: 100 });
      expect(a).toEqual(b);
      const kept = new Set(a.map((r) => r.trace_id));
      expect(a).toEqual(full.filter((r) => kept.has(r.trace_id)));
    }
  });

  it('when walking traces one page at a time, then traces come by latest matching span, ties by trace id', async () => {
    const seen: string[] = [];
    let next: string | undefined;
    for (let page = 0; page < 10; page++) {
      const f = compileFilter(undefined, { projectParam: 'project' });
      const w = compileWindowing({ limit: 1, ...(next ? { next } : {}) }, 'trace');
      if (!f.ok || !w.ok) throw new Error('invalid');
      const got = await rows<{ trace_id: string; key: string }>(
        `SELECT trace_id, toString(${w.traceKey}) AS key FROM llm.spans WHERE ${f.sql} AND ${w.where}
         GROUP BY trace_id HAVING ${w.having} ORDER BY ${w.orderBy} LIMIT ${w.limit}`,
        { ...values(f.params), ...values(w.params), project: PROJECT },
      );
      const last = got.at(-1);
      if (last === undefined) break;
      seen.push(last.trace_id);
      next = traceCursor({ key: last.key, trace_id: last.trace_id });
    }
    // T2 and T3 both end at 2024-01-17; T3 sorts after T2 by id, so it comes first descending.
    expect(seen.map((t) => t.slice(0, 2))).toEqual(['3d', '2c', '1b', '0a']);
  });
});
