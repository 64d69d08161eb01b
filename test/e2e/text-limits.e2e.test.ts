// Text the stores cannot hold (NUL, lone surrogates) is a 422 at the boundary, in body, path and
// query alike, and never reaches the accounts topic: a saved query named "a\u0000b" once stopped the
// accounts projector for every tenant. Limits: docs/limits-and-failures.md "Input limits", @llm/contracts text.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let acc: TestAccount;

type Res = { status: number; body: any };
async function call(method: string, path: string, body?: unknown): Promise<Res> {
  const r = await fetch(`${t.baseUrl}${path}`, {
    method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: await r.json() };
}

/** The 422 in the spec's HTTPValidationError shape, with one entry at `loc`. */
function expectRefused(r: Res, loc: Array<string | number>, msg: RegExp): void {
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect(r.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, msg: expect.stringMatching(msg), type: expect.any(String) })]));
}

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
});
afterAll(async () => { await t?.stop(); });

describe('unstorable text at the boundary', () => {
  it('when a saved query is named with a NUL, then 422 names the field, and the next saved query is created as usual', async () => {
    expectRefused(await call('POST', '/queries', { query: { name: 'a\u0000b' } }), ['body', 'query', 'name'], /NUL/);
    expectRefused(await call('POST', '/queries', { query: { name: 'ok', description: 'x\ud800' } }), ['body', 'query', 'description'], /surrogate/);
    const ok = await call('POST', '/queries', { query: { slug: `q-${Date.now()}`, name: 'a 😀 b' } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.query.name).toBe('a 😀 b');
  });

  it('when a span attribute, a filter value or a path parameter holds one, then 422 names where', async () => {
    const span = { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', span_name: 'x', attributes: { k: { deep: 'a\u0000' } } };
    expectRefused(await call('POST', '/tracing/spans/ingest', { spans: [span] }), ['body', 'spans', 0, 'attributes', 'k', 'deep'], /NUL/);
    expectRefused(await call('POST', '/spans/query', { filtering: { conditions: [{ field: 'span_name', value: '\udc00' }] } }), ['body', 'filtering', 'conditions', 0, 'value'], /surrogate/);
    expectRefused(await call('DELETE', '/keys/a%00b'), ['path', 'key_id'], /NUL/);
  });

  it('when a name is longer than its documented limit, then 422 says the limit', async () => {
    expectRefused(await call('POST', '/queries', { query: { name: 'x'.repeat(256) } }), ['body', 'query', 'name'], /at most 255 characters/);
  });
});
