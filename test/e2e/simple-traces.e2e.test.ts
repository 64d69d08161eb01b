// Simple traces read back (reference compat §5.2, tracing §3.3): GET /simple/traces/{trace_id} and
// POST /simple/traces/query over what POST /simple/traces/ stored, with tenancy.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
interface SimpleTrace { trace_id: string; span_id: string; origin: string; kind: string; channel: string; data: unknown; tags?: Record<string, unknown>; references: Record<string, unknown>; links: Record<string, unknown>; created_at?: string }

describe('simple traces', () => {
  let app: TestApp;
  let acc: TestAccount;
  let other: TestAccount;
  const target = { trace_id: hex(16), span_id: hex(8) };
  const run = hex(6);
  let human: SimpleTrace;
  let auto: SimpleTrace;

  const post = async (who: TestAccount, path: string, body: unknown) => fetch(`${app.baseUrl}${path}`, { method: 'POST', headers: { ...who.auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const get = async (who: TestAccount, path: string) => fetch(`${app.baseUrl}${path}`, { headers: who.auth });
  const query = async (who: TestAccount, body: unknown) => (await (await post(who, '/simple/traces/query', body)).json()) as { count: number; traces: SimpleTrace[] };

  beforeAll(async () => {
    app = await startTestApp();
    acc = await createAccount(app.baseUrl, app.adminToken);
    other = await createAccount(app.baseUrl, app.adminToken);
    const create = async (trace: Record<string, unknown>) => {
      const res = await post(acc, '/simple/traces/', { trace });
      expect(res.status).toBe(202);
      return ((await res.json()) as { trace: SimpleTrace }).trace;
    };
    human = await create({ origin: 'human', kind: 'eval', channel: 'web', data: { outputs: { score: 1 } }, tags: { run }, references: { evaluator: { slug: `ev-${run}` } }, links: { invocation: target } });
    auto = await create({ origin: 'auto', data: { outputs: { score: 0 } }, tags: { run }, references: {}, links: [] });
    await eventually(async () => query(acc, { trace: { tags: { run } } }), (r) => r.count === 2, 30_000);
  }, 120_000);
  afterAll(async () => { await app?.stop(); });

  it('given a created simple trace, when it is fetched, then origin, kind, channel, data, tags, references and links come back', async () => {
    const res = await get(acc, `/simple/traces/${human.trace_id}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; trace: SimpleTrace };
    expect(body.count).toBe(1);
    expect(body.trace).toMatchObject({
      trace_id: human.trace_id, span_id: human.span_id, origin: 'human', kind: 'eval', channel: 'web',
      data: { outputs: { score: 1 } }, tags: { run }, references: { evaluator: { slug: `ev-${run}` } }, links: { invocation: target },
    });
    expect(typeof body.trace.created_at).toBe('string');
  });

  it('given an auto trace, when it is fetched, then it reads back as auto (not custom)', async () => {
    const body = (await (await get(acc, `/simple/traces/${auto.trace_id}`)).json()) as { trace: SimpleTrace };
    expect(body.trace).toMatchObject({ origin: 'auto', kind: 'adhoc', channel: 'api' });
  });

  it('given unknown or malformed ids, when fetched, then the answer is 200 {count:0}', async () => {
    for (const id of [hex(16), 'not-an-id', 'query']) {
      const res = await get(acc, `/simple/traces/${id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ count: 0 });
    }
  });

  it('given filters, when simple traces are queried, then each filter selects what it names', async () => {
    const ids = (r: { traces: SimpleTrace[] }) => r.traces.map((t) => t.trace_id).sort();
    expect(ids(await query(acc, { trace: { tags: { run }, origin: 'human' } }))).toEqual([human.trace_id]);
    expect(ids(await query(acc, { trace: { tags: { run }, origin: 'auto' } }))).toEqual([auto.trace_id]);
    expect(ids(await query(acc, { trace: { tags: { run }, kind: 'eval' } }))).toEqual([human.trace_id]);
    expect(ids(await query(acc, { trace: { tags: { run }, channel: 'api' } }))).toEqual([auto.trace_id]);
    expect(ids(await query(acc, { trace: { references: { evaluator: { slug: `ev-${run}` } } } }))).toEqual([human.trace_id]);
    expect(ids(await query(acc, { trace: { links: { invocation: target } } }))).toEqual([human.trace_id]);
    expect(ids(await query(acc, { trace: { links: [target] } }))).toEqual([human.trace_id]);
    expect(ids(await query(acc, { links: [{ trace_id: auto.trace_id, span_id: auto.span_id }] }))).toEqual([auto.trace_id]);
    const page = await query(acc, { trace: { tags: { run } }, windowing: { limit: 1 } });
    expect(page.count).toBe(1);
  });

  it('given a bad enum or a bad windowing, when queried, then 422', async () => {
    expect((await post(acc, '/simple/traces/query', { trace: { origin: 'robot' } })).status).toBe(422);
    expect((await post(acc, '/simple/traces/query', { windowing: { order: 'sideways' } })).status).toBe(422);
  });

  it("given another project's key, when it fetches or queries these traces, then it sees nothing", async () => {
    expect(await (await get(other, `/simple/traces/${human.trace_id}`)).json()).toEqual({ count: 0 });
    expect(await query(other, { trace: { tags: { run } } })).toEqual({ count: 0, traces: [] });
  });

  const send = async (who: TestAccount, method: string, path: string, body?: unknown) => fetch(`${app.baseUrl}${path}`, {
    method, headers: { ...who.auth, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const created = async (trace: Record<string, unknown>): Promise<SimpleTrace> => {
    const res = await post(acc, '/simple/traces/', { trace });
    const t = ((await res.json()) as { trace: SimpleTrace }).trace;
    await eventually(async () => (await (await get(acc, `/simple/traces/${t.trace_id}`)).json()) as { count: number }, (r) => r.count === 1, 30_000);
    return t;
  };

  it('given a simple trace, when it is patched, then 200 with the new data, the stored origin/kind/channel kept, and the change reads back', async () => {
    const t = await created({ origin: 'human', kind: 'eval', channel: 'sdk', data: { outputs: { score: 1 } }, tags: { run, v: '1' }, references: { evaluator: { slug: `p-${run}` } }, links: { invocation: target } });
    const res = await send(acc, 'PATCH', `/simple/traces/${t.trace_id}`, { trace: { data: { outputs: { score: 5 } }, tags: { run, v: '2' } } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; trace: SimpleTrace };
    expect(body.count).toBe(1);
    expect(body.trace).toMatchObject({
      trace_id: t.trace_id, span_id: t.span_id, origin: 'human', kind: 'eval', channel: 'sdk',
      data: { outputs: { score: 5 } }, tags: { run, v: '2' }, references: { evaluator: { slug: `p-${run}` } }, links: { invocation: target },
    });
    const back = await eventually(async () => (await (await get(acc, `/simple/traces/${t.trace_id}`)).json()) as { count: number; trace: SimpleTrace },
      (r) => (r.trace?.data as { outputs?: { score?: number } } | undefined)?.outputs?.score === 5, 30_000);
    expect(back.trace).toMatchObject({ span_id: t.span_id, origin: 'human', kind: 'eval', channel: 'sdk', tags: { run, v: '2' }, links: { invocation: target } });
    expect(back.trace.created_at).toBe(t.created_at ?? back.trace.created_at);
  });

  it('given a simple trace, when it is deleted, then 200 {count:1, link} and it is gone', async () => {
    const t = await created({ data: { outputs: { gone: true } }, references: {}, links: [] });
    const res = await send(acc, 'DELETE', `/simple/traces/${t.trace_id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ count: 1, link: { trace_id: t.trace_id, span_id: t.span_id } });
    await eventually(async () => (await (await get(acc, `/simple/traces/${t.trace_id}`)).json()) as { count: number }, (r) => r.count === 0, 30_000);
  });

  it('given unknown or malformed ids, when patched or deleted, then {count:0} for unknown and 422 for malformed', async () => {
    const unknown = hex(16);
    expect(await (await send(acc, 'PATCH', `/simple/traces/${unknown}`, { trace: { data: { a: 1 } } })).json()).toEqual({ count: 0 });
    expect(await (await send(acc, 'DELETE', `/simple/traces/${unknown}`)).json()).toEqual({ count: 0 });
    expect((await send(acc, 'PATCH', '/simple/traces/not-an-id', { trace: { data: { a: 1 } } })).status).toBe(422);
    expect((await send(acc, 'DELETE', '/simple/traces/not-an-id')).status).toBe(422);
    expect((await send(acc, 'PATCH', `/simple/traces/${human.trace_id}`, { trace: { tags: { x: 'y' } } })).status).toBe(422);
  });

  it("given another project's key, when it patches or deletes a trace, then {count:0} and the trace is unchanged", async () => {
    expect(await (await send(other, 'PATCH', `/simple/traces/${auto.trace_id}`, { trace: { data: { hijacked: true } } })).json()).toEqual({ count: 0 });
    expect(await (await send(other, 'DELETE', `/simple/traces/${auto.trace_id}`)).json()).toEqual({ count: 0 });
    const back = (await (await get(acc, `/simple/traces/${auto.trace_id}`)).json()) as { count: number; trace: SimpleTrace };
    expect(back).toMatchObject({ count: 1, trace: { data: { outputs: { score: 0 } } } });
  });

  it('given no credentials, when reading, then 401', async () => {
    expect((await fetch(`${app.baseUrl}/simple/traces/${human.trace_id}`)).status).toBe(401);
  });
});
