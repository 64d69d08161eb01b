// POST /spans/query and POST /traces/query over the real read model: attribute filters, cursor
// walks that return every item exactly once, and clear errors for bad filters and cursors.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;
const marker = `m-${hex(4)}`;
const traceIds = Array.from({ length: 4 }, () => hex(16));

async function post(path: string, body: unknown, a: TestAccount = acc): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method: 'POST', headers: { ...a.auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}
const byMarker = { conditions: [{ field: 'attributes', key: 'tags.marker', value: marker }] };

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
  // 4 traces × 3 spans, all sharing one start time (ties must still page exactly once).
  const spans = traceIds.flatMap((trace_id) => {
    const root = hex(8);
    return [
      { trace_id, span_id: root, span_name: 'root', start_time: '2025-03-01T00:00:00Z', end_time: '2025-03-01T00:00:01Z', attributes: { 'tags.marker': marker } },
      ...[1, 2].map(() => ({ trace_id, span_id: hex(8), parent_id: root, span_name: 'child', start_time: '2025-03-01T00:00:00Z', end_time: '2025-03-01T00:00:01Z', attributes: { 'tags.marker': marker, 'tags.n': 2 } })),
    ];
  });
  const r = await post('/tracing/spans/ingest', { spans });
  expect(r.status).toBe(202);
  await eventually(() => post('/spans/query', { filtering: byMarker, windowing: { limit: 100 } }), (x) => x.body.count === 12, 30_000);
});
afterAll(async () => { await t?.stop(); });

describe('span and trace queries', () => {
  it('when spans are walked two at a time, then each matching span comes exactly once', async () => {
    const seen: string[] = [];
    let next: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await post('/spans/query', { filtering: byMarker, windowing: { limit: 5, ...(next ? { next } : {}) } });
      expect(r.status).toBe(200);
      seen.push(...r.body.spans.map((s: { span_id: string }) => s.span_id));
      next = r.body.windowing?.next;
      if (!next) break;
    }
    expect(seen.length).toBe(12);
    expect(new Set(seen).size).toBe(12);
  });

  it('when traces are queried, then whole traces come back nested, paged by trace', async () => {
    const r = await post('/traces/query', { filtering: { conditions: [{ field: 'attributes', key: 'tags.n', operator: 'gte', value: 2 }] }, windowing: { limit: 3 } });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(3);
    expect(Object.keys(r.body.traces[0].spans.root.spans.child ? r.body.traces[0].spans.root.spans : {})).toEqual(['child']);
    const rest = await post('/traces/query', { filtering: { conditions: [{ field: 'attributes', key: 'tags.n', operator: 'gte', value: 2 }] }, windowing: { limit: 3, next: r.body.windowing.next } });
    const all = [...r.body.traces, ...rest.body.traces].map((x: { trace_id: string }) => x.trace_id);
    expect(new Set(all)).toEqual(new Set(traceIds));
  });

  it("when another project queries, then it sees none of this project's spans", async () => {
    const other = await createAccount(t.baseUrl, t.adminToken);
    const r = await post('/spans/query', { filtering: byMarker }, other);
    expect(r.body).toEqual({ count: 0, spans: [] });
  });

  it('when the filter or cursor is invalid, then 400 / 422 naming the problem, never an empty 200', async () => {
    const bad = await post('/traces/query', { filtering: { conditions: [{ field: 'span_name', operator: 'invalid_operator', value: 'x' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/invalid_operator|operator/);
    const cursor = await post('/spans/query', { windowing: { next: 'not-a-cursor' } });
    expect(cursor.status).toBe(422);
    const window = await post('/spans/query', { windowing: { oldest: '2025-01-02T00:00:00Z', newest: '2025-01-01T00:00:00Z' } });
    expect(window.status).toBe(422);
  });
});

describe('trace ids, orphans and changed spans', () => {
  it('when the filtering is exactly one trace_id condition, then the whole trace comes back whatever the window', async () => {
    const outside = { oldest: '2030-01-01T00:00:00Z', newest: '2030-01-02T00:00:00Z', rate: 0.0001 };
    const spans = await post('/spans/query', { filtering: { conditions: [{ field: 'trace_id', value: traceIds[0] }] }, windowing: outside });
    expect(spans.status).toBe(200);
    expect(spans.body.count).toBe(3);
    expect(spans.body.spans.every((x: { trace_id: string }) => x.trace_id === traceIds[0])).toBe(true);
    const traces = await post('/traces/query', { filtering: { conditions: [{ field: 'trace_id', operator: 'in', value: traceIds.slice(0, 2) }] }, windowing: outside });
    expect(new Set(traces.body.traces.map((x: { trace_id: string }) => x.trace_id))).toEqual(new Set(traceIds.slice(0, 2)));
  });

  it('when a span arrives before its parent, then trace reads return it marked as an orphan, never drop it', async () => {
    const trace_id = hex(16);
    const tag = `orphan-${hex(3)}`;
    const r = await post('/tracing/spans/ingest', { spans: [{ trace_id, span_id: hex(8), parent_id: hex(8), span_name: 'late-parent', start_time: '2025-05-01T00:00:00Z', end_time: '2025-05-01T00:00:01Z', attributes: { 'tags.marker': tag } }] });
    expect(r.status).toBe(202);
    const q = { filtering: { conditions: [{ field: 'attributes', key: 'tags.marker', value: tag }] } };
    const found = await eventually(() => post('/traces/query', q), (x) => x.body.count === 1, 30_000);
    expect(found.body.traces[0]).toMatchObject({ trace_id, root_missing: true, spans: { 'late-parent': { orphan: true } } });
    const byId = (await fetch(`${t.baseUrl}/traces/${trace_id}`, { headers: acc.auth }).then((x) => x.json())) as { trace: unknown };
    expect(byId.trace).toMatchObject({ root_missing: true, spans: { 'late-parent': { orphan: true } } });
  });

  it('when a trace is replaced with a span at another start time, then queries see only its new version', async () => {
    const trace_id = hex(16);
    const span_id = hex(8);
    const tagOld = `old-${hex(3)}`;
    const tagNew = `new-${hex(3)}`;
    const version = (start: string, tag: string) => ({ trace: { trace_id, spans: { root: { trace_id, span_id, span_name: 'root', start_time: start, end_time: start, attributes: { tags: { marker: tag } } } } } });
    const put = (body: unknown) => fetch(`${t.baseUrl}/traces/${trace_id}`, { method: 'PUT', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/traces/', version('2025-06-01T00:00:00Z', tagOld))).status).toBe(202);
    const byTag = (tag: string) => post('/spans/query', { filtering: { conditions: [{ field: 'attributes', key: 'tags.marker', value: tag }] } });
    await eventually(() => byTag(tagOld), (x) => x.body.count === 1, 30_000);
    expect((await put(version('2025-06-03T00:00:00Z', tagNew))).status).toBe(202);
    const moved = await eventually(() => byTag(tagNew), (x) => x.body.count === 1, 30_000);
    expect(moved.body.spans[0].start_time).toMatch(/^2025-06-03T00:00:00/);
    expect((await byTag(tagOld)).body.count).toBe(0);
    const all = await post('/spans/query', { filtering: { conditions: [{ field: 'trace_id', value: trace_id }] } });
    expect(all.body.count).toBe(1);
    const inOldWindow = await post('/spans/query', { windowing: { oldest: '2025-06-01T00:00:00Z', newest: '2025-06-02T00:00:00Z' } });
    expect(inOldWindow.body.spans.map((x: { span_id: string }) => x.span_id)).not.toContain(span_id);
  });
});

describe('deprecated flat query', () => {
  it('when /tracing/spans/query gets a flat body, then focus span lists spans and focus trace returns the trace map', async () => {
    const spans = await post('/tracing/spans/query', { focus: 'span', filter: byMarker, limit: 50 });
    expect(spans.status).toBe(200);
    expect(spans.body.count).toBe(12);
    const traces = await post('/tracing/spans/query', { filter: JSON.stringify(byMarker) });
    expect(traces.status).toBe(200);
    expect(new Set(Object.keys(traces.body.traces))).toEqual(new Set(traceIds));
    const unknownKey = await post('/tracing/spans/query', { filtering: byMarker });
    expect(unknownKey.status).toBe(422);
  });
});

describe('sessions and users', () => {
  it('when sessions are walked one per page, then every session comes once, ordered by first activity', async () => {
    const sessions = [`s-${hex(3)}`, `s-${hex(3)}`, `s-${hex(3)}`];
    const spans = sessions.flatMap((sid, i) => [0, 1].map((k) => ({
      trace_id: hex(16), span_id: hex(8), start_time: `2025-04-0${i + 1}T00:00:0${k}Z`, end_time: `2025-04-0${i + 1}T00:00:0${k}Z`,
      attributes: { ag: { session: { id: sid }, user: { id: `u-${i % 2}-${marker}` } } },
    })));
    expect((await post('/tracing/spans/ingest', { spans })).status).toBe(202);
    const window = { oldest: '2025-04-01T00:00:00Z', newest: '2025-04-10T00:00:00Z' };
    // All six spans (six traces, so six Kafka records that arrive independently), not just three sessions.
    const ingested = { filtering: { conditions: [{ field: 'trace_id', operator: 'in', value: spans.map((s) => s.trace_id) }] } };
    await eventually(() => post('/spans/query', ingested), (x) => x.body.count === 6, 30_000);
    const seen: string[] = [];
    let next: string | undefined;
    for (let i = 0; i < 10; i++) {
      const r = await post('/spans/sessions/query', { windowing: { ...window, limit: 1, ...(next ? { next } : {}) } });
      expect(r.status).toBe(200);
      seen.push(...r.body.session_ids);
      next = r.body.windowing?.next;
      if (!next) break;
    }
    expect(seen).toEqual([...sessions].reverse());
    const users = await post('/tracing/users/query', { realtime: true, windowing: window });
    expect(new Set(users.body.user_ids)).toEqual(new Set([`u-0-${marker}`, `u-1-${marker}`]));
    expect((await post('/spans/users/query', { windowing: { next: 'garbage' } })).status).toBe(422);
    expect((await post('/spans/users/query', { surprise: 1 })).status).toBe(422);
  });

  it('when spans move, leave a session or are deleted, then unwindowed pages follow the current spans only', async () => {
    // A project of its own: the unwindowed pages cover all of it.
    const own = await createAccount(t.baseUrl, t.adminToken);
    const [A, B, C] = ['a', 'b', 'c'].map((x) => `${x}-${hex(3)}`) as [string, string, string];
    const span = (trace_id: string, sid: string, start: string) => ({ trace_id, span_id: hex(8), span_name: 's', start_time: start, end_time: start, attributes: { ag: { session: { id: sid }, user: { id: `u-${sid}` } } } });
    const [tA, tB, tC, tA2] = [hex(16), hex(16), hex(16), hex(16)];
    const first = span(tA, A, '2025-05-01T00:00:00Z');
    expect((await post('/tracing/spans/ingest', { spans: [first, span(tB, B, '2025-05-02T00:00:00Z'), span(tC, C, '2025-05-03T00:00:00Z'), span(tA2, A, '2025-05-04T00:00:00Z')] }, own)).status).toBe(202);
    const pages = async (body: Record<string, unknown> = {}, kind = 'sessions'): Promise<string[]> => {
      const seen: string[] = [];
      let next: string | undefined;
      for (let i = 0; i < 10; i++) {
        const r = await post(`/spans/${kind}/query`, { ...body, windowing: { limit: 1, ...(body.windowing as object), ...(next ? { next } : {}) } }, own);
        expect(r.status).toBe(200);
        seen.push(...(r.body.session_ids ?? r.body.user_ids));
        next = r.body.windowing?.next;
        if (!next) break;
      }
      return seen;
    };
    // Wait for all four spans, not for three sessions: each trace is its own Kafka record, so the
    // traces of one request land in different partitions and inserts, and A, B and C are all there
    // while A's later span may not be yet (realtime would then read [C, B, A]).
    const ingested = { filtering: { conditions: [{ field: 'trace_id', operator: 'in', value: [tA, tB, tC, tA2] }] } };
    await eventually(() => post('/spans/query', ingested, own), (x) => x.body.count === 4, 30_000);
    expect(await pages()).toEqual([C, B, A]);
    expect(await pages({ windowing: { order: 'ascending' } })).toEqual([A, B, C]);
    expect(await pages({ realtime: true })).toEqual([A, C, B]);
    expect(await pages({ realtime: true }, 'users')).toEqual([`u-${A}`, `u-${C}`, `u-${B}`]);
    // A's first span moves after every other: its first activity is now its second span's.
    const put = await fetch(`${t.baseUrl}/traces/${tA}`, { method: 'PUT', headers: { ...own.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ trace: { trace_id: tA, spans: { s: { ...span(tA, A, '2025-05-06T00:00:00Z'), span_id: first.span_id } } } }) });
    expect(put.status).toBe(202);
    const ascending = await eventually(() => pages({ windowing: { order: 'ascending' } }), (x) => x[0] === B, 30_000);
    expect(ascending).toEqual([B, C, A]);
    // B's only trace goes: B is gone.
    expect((await fetch(`${t.baseUrl}/traces/${tB}`, { method: 'DELETE', headers: own.auth })).status).toBe(202);
    await eventually(() => pages(), (x) => x.length === 2, 30_000);
    expect(await pages()).toEqual([A, C]);
    expect(await pages({}, 'users')).toEqual([`u-${A}`, `u-${C}`]);
  });
});
