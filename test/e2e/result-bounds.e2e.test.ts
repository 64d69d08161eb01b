// Memory bounds of the read side, through the public API with a low QUERY_MAX_RESULT_BYTES (64 KiB):
// a trace whose stored rows exceed it is refused with 413 naming the limit on every read by id, span
// pages end early with a cursor (and still walk every span once), trace pages end after the last
// whole trace that fits, and a page whose first trace alone is too large is refused.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const LIMIT = 64 * 1024;
const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;
const big = hex(16);
const small = hex(16);
const bigSpans = Array.from({ length: 10 }, () => hex(8));
const smallSpans = [hex(8), hex(8)];

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Every span of the project, page by page (no trace-id filter: the page search path). */
async function walkSpans(): Promise<{ ids: string[]; pages: number[] }> {
  const ids: string[] = [];
  const pages: number[] = [];
  let next: string | undefined;
  for (let i = 0; i < 40; i++) {
    const r = await call('POST', '/spans/query', { windowing: { limit: 100, ...(next ? { next } : {}) } });
    expect(r.status).toBe(200);
    ids.push(...r.body.spans.map((s: { span_id: string }) => s.span_id));
    pages.push(r.body.count);
    next = r.body.windowing?.next;
    if (!next) break;
  }
  return { ids, pages };
}

function expectTooLarge(r: { status: number; body: any }): void {
  expect(r.status).toBe(413);
  expect(r.body.detail).toContain('QUERY_MAX_RESULT_BYTES');
  expect(r.body.max_result_bytes).toBe(LIMIT);
  expect(r.body.estimated_bytes).toBeGreaterThan(LIMIT);
}

beforeAll(async () => {
  t = await startTestApp({ QUERY_MAX_RESULT_BYTES: String(LIMIT) });
  acc = await createAccount(t.baseUrl, t.adminToken);
  // The big trace: 10 spans of ~10 KB attributes (~100 KB stored); the small one is newer.
  const a = 'x'.repeat(5_000);
  const b = 'y'.repeat(5_000);
  const r = await call('POST', '/tracing/spans/ingest', {
    spans: [
      ...bigSpans.map((span_id, i) => ({
        trace_id: big, span_id, span_name: `big-${i}`, start_time: `2025-04-01T00:00:0${i}Z`, end_time: `2025-04-01T00:00:0${i}.500Z`,
        attributes: { tags: { a, b } },
      })),
      ...smallSpans.map((span_id, i) => ({
        trace_id: small, span_id, span_name: `small-${i}`, start_time: `2025-04-01T01:00:0${i}Z`, end_time: `2025-04-01T01:00:0${i}.500Z`,
      })),
    ],
  });
  expect(r.status).toBe(202);
  const all = await eventually(walkSpans, (w) => w.ids.length === 12, 30_000);
  expect(all.ids).toHaveLength(12);
});
afterAll(async () => { await t?.stop(); });

describe('reads by id above QUERY_MAX_RESULT_BYTES', () => {
  it('when a trace\'s stored spans exceed the bound, then every read of it by id is 413 naming the limit', async () => {
    expectTooLarge(await call('GET', `/traces/${big}`));
    expectTooLarge(await call('GET', `/tracing/traces/${big}`));
    expectTooLarge(await call('GET', `/spans/?trace_id=${big}`));
    expectTooLarge(await call('GET', `/traces/?trace_id=${big}&trace_id=${small}`));
    // The trace-id shortcut of the page searches is a read by id too.
    expectTooLarge(await call('POST', '/spans/query', { filtering: { conditions: [{ field: 'trace_id', value: big }] } }));
  });

  it('when a read stays under the bound, then it answers as before', async () => {
    const one = await call('GET', `/spans/${big}/${bigSpans[3]}`);
    expect(one.status).toBe(200);
    expect(one.body.count).toBe(1);
    expect(one.body.span.attributes.tags.a).toHaveLength(5_000);
    const s = await call('GET', `/traces/${small}`);
    expect(s.status).toBe(200);
    expect(s.body.count).toBe(1);
  });
});

describe('pages above QUERY_MAX_RESULT_BYTES', () => {
  it('when a span page would exceed the bound, then it ends early with a cursor and the walk still sees every span once', async () => {
    const w = await walkSpans();
    expect(new Set(w.ids)).toEqual(new Set([...bigSpans, ...smallSpans]));
    expect(w.ids).toHaveLength(12);
    // Pages of 100 were asked for; the bytes cut them (2 small + ~5 big fit in 64 KiB).
    expect(w.pages.length).toBeGreaterThan(1);
    expect(Math.max(...w.pages)).toBeLessThan(12);
  });

  it('when a trace page would exceed the bound, then it ends after the last whole trace that fits, and a first trace too large alone is 413', async () => {
    const first = await call('POST', '/traces/query', { windowing: { limit: 10 } });
    expect(first.status).toBe(200);
    expect(first.body.traces.map((x: { trace_id: string }) => x.trace_id)).toEqual([small]);
    expect(first.body.windowing?.next).toEqual(expect.any(String));
    expectTooLarge(await call('POST', '/traces/query', { windowing: { limit: 10, next: first.body.windowing.next } }));
  });
});
