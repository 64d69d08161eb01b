// The /preview aliases (reference compat §5.1): aliased families answer identically under
// /preview<prefix> (also behind /api); the routes the reference leaves out and the families it does
// not alias answer 404 there.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');

describe('/preview aliases', () => {
  let app: TestApp;
  let acc: TestAccount;
  const traceId = hex(16);
  const spanId = hex(8);

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${app.baseUrl}${path}`, {
      method, headers: { ...acc.auth, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    app = await startTestApp();
    acc = await createAccount(app.baseUrl, app.adminToken);
    // Written through an alias: POST /preview/tracing/spans/ingest.
    const w = await call('POST', '/preview/tracing/spans/ingest', { spans: [{ trace_id: traceId, span_id: spanId, span_name: 'aliased' }] });
    expect(w.status).toBe(202);
    await eventually(async () => call('GET', `/traces/${traceId}`), (r) => r.body.count === 1, 30_000);
  }, 120_000);
  afterAll(async () => { await app?.stop(); });

  it('given a stored trace, when each aliased read is called, then it answers exactly as the original', async () => {
    const pairs: Array<[string, string, unknown?]> = [
      ['GET', `/traces/${traceId}`],
      ['GET', `/spans/${traceId}/${spanId}`],
      ['GET', `/spans/?trace_id=${traceId}`],
      ['POST', '/spans/query', { filtering: { conditions: [{ field: 'trace_id', value: traceId }] } }],
      ['POST', '/traces/query', { filtering: { conditions: [{ field: 'trace_id', value: traceId }] } }],
      ['GET', `/tracing/traces/${traceId}`],
      ['GET', `/simple/traces/${traceId}`],
    ];
    for (const [method, path, body] of pairs) {
      const original = await call(method, path, body);
      const alias = await call(method, `/preview${path}`, body);
      const behindApi = await call(method, `/api/preview${path}`, body);
      expect({ path, status: alias.status }).toEqual({ path, status: original.status });
      expect(alias.body).toEqual(original.body);
      expect(behindApi.body).toEqual(original.body);
    }
  });

  it('given an aliased write, when it is called under /preview, then it has the original codes', async () => {
    expect((await call('POST', '/preview/simple/traces/', { trace: { data: { outputs: 1 }, references: {}, links: {} } })).status).toBe(202);
    expect((await call('PUT', '/preview/traces/not-hex', { trace: { trace_id: 'x', spans: {} } })).status).toBe(400);
    expect((await call('POST', '/preview/simple/traces/query', { trace: { origin: 'robot' } })).status).toBe(422);
  });

  it('given routes the reference does not alias, when called under /preview, then 404 (405 where an aliased route has that path)', async () => {
    // /preview/traces/{trace_id} is aliased (GET, PUT, DELETE): POST there is a wrong method, as in the reference.
    const ingest = await call('POST', '/preview/traces/ingest', { traces: [] });
    expect(ingest.status).toBe(405);
    expect(ingest.body).toEqual({ detail: 'POST is not allowed here; allowed: DELETE, GET, HEAD, PUT.' });
    expect((await call('POST', '/preview/tracing/spans/analytics', {})).status).toBe(404);
    expect((await call('GET', '/preview/projects/current')).status).toBe(404);
    expect((await call('POST', '/preview/otlp/v1/traces', {})).status).toBe(404);
  });
});
