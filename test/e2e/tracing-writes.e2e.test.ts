// Native, canonical and simple write shapes through the public HTTP API, read back by id.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;

async function call(method: string, path: string, body?: unknown, a: TestAccount = acc): Promise<{ status: number; body: any }> {
  const res = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: { ...a.auth, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const getTrace = (id: string, a?: TestAccount) => call('GET', `/traces/${id}`, undefined, a);

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
});
afterAll(async () => { await t?.stop(); });

describe('native ingest', () => {
  it('when a parent and child are ingested, then the trace reads back nested with rolled-up metrics', async () => {
    const trace_id = hex(16);
    const root = hex(8);
    const child = hex(8);
    const r = await call('POST', '/tracing/spans/ingest', {
      spans: [
        { trace_id, span_id: root, span_name: 'root', start_time: '2025-01-01T00:00:00Z', end_time: '2025-01-01T00:00:02Z',
          attributes: { 'ag.type.span': 'workflow', 'ag.data.inputs.country': 'France', 'ag.metrics.tokens.incremental.prompt': 1, 'ag.metrics.tokens.incremental.total': 1 } },
        { trace_id, span_id: child, parent_id: root, span_name: 'llm', start_time: 1735689600500, end_time: 1735689601500,
          attributes: { ag: { type: { span: 'chat' }, metrics: { tokens: { incremental: { prompt: 10, completion: 5, total: 15 } } } } },
          events: [{ name: 'exception', timestamp: '2025-01-01T00:00:01Z', attributes: { 'exception.message': 'boom' } }] },
      ],
    });
    expect(r.status).toBe(202);
    expect(r.body.count).toBe(2);
    expect(r.body.links).toContainEqual({ trace_id, span_id: child });

    const got = await eventually(() => getTrace(trace_id), (x) => x.body.count === 1 && !!x.body.trace.spans.root?.spans?.llm);
    expect(got.status).toBe(200);
    const rootNode = got.body.trace.spans.root;
    expect(rootNode.span_id).toBe(root);
    expect(rootNode.span_type).toBe('workflow');
    expect(rootNode.attributes.ag.data.inputs).toEqual({ country: 'France' });
    expect(rootNode.attributes.ag.metrics.duration.cumulative).toBe(2000);
    expect(rootNode.attributes.ag.metrics.tokens.cumulative).toMatchObject({ prompt: 11, completion: 5, total: 16 });
    const childNode = rootNode.spans.llm;
    expect(childNode.parent_id).toBe(root);
    expect(childNode.attributes.ag.metrics.errors.incremental).toBe(1);
    expect(childNode.attributes.ag.metrics.tokens.cumulative).toMatchObject({ prompt: 10, completion: 5, total: 15 });
  });

  it('when a trace arrives in two requests (child first), then cumulative metrics cover both', async () => {
    const trace_id = hex(16);
    const root = hex(8);
    const child = hex(8);
    const now = Date.now();
    expect((await call('POST', '/tracing/spans/ingest', { spans: [
      { trace_id, span_id: child, parent_id: root, span_name: 'child', start_time: now, end_time: now + 5, attributes: { ag: { metrics: { costs: { incremental: { total: 0.5 } } } } } },
    ] })).status).toBe(202);
    await eventually(() => call('GET', `/spans/${trace_id}/${child}`), (x) => x.body.count === 1);
    expect((await call('POST', '/tracing/spans/ingest', { spans: [
      { trace_id, span_id: root, span_name: 'root', start_time: now - 1, end_time: now + 10, attributes: { ag: { metrics: { costs: { incremental: { total: 0.25 } } } } } },
    ] })).status).toBe(202);
    const got = await eventually(() => call('GET', `/spans/${trace_id}/${root}`), (x) => x.body.count === 1 && x.body.span.attributes.ag.metrics.costs.cumulative?.total === 0.75);
    expect(got.body.span.attributes.ag.metrics.costs.cumulative.total).toBe(0.75);
  });

  it('when some spans are malformed, then they are counted out and reported, and the rest are stored', async () => {
    const trace_id = hex(16);
    const good = hex(8);
    const r = await call('POST', '/tracing/spans/ingest', { spans: [
      { trace_id, span_id: good, span_name: 'ok' },
      { trace_id, span_id: 'nothex', span_name: 'bad' },
      { trace_id: 'short', span_id: hex(8) },
      { trace_id, span_id: hex(8), start_time: 12345 },
    ] });
    expect(r.status).toBe(202);
    expect(r.body.count).toBe(1);
    expect(r.body.rejected.count).toBe(3);
    const got = await eventually(() => call('GET', `/spans/?trace_id=${trace_id}`), (x) => x.body.count >= 1);
    expect(got.body.spans.map((s: { span_id: string }) => s.span_id)).toEqual([good]);
  });

  it('when one trace is larger than a Kafka record may be, then it is split and read back whole', async () => {
    const trace_id = hex(16);
    const root = hex(8);
    const big = 'x'.repeat(12_000);
    const spans = [{ trace_id, span_id: root, span_name: 'root' }, ...Array.from({ length: 250 }, (_, i) => ({
      trace_id, span_id: hex(8), parent_id: root, span_name: `c${i}`, attributes: { 'ag.data.outputs': big, 'ag.metrics.tokens.incremental.total': 1 },
    }))];
    const r = await call('POST', '/tracing/spans/ingest', { spans });
    expect(r.status).toBe(202);
    expect(r.body.count).toBe(251);
    const got = await eventually(() => call('GET', `/spans/${trace_id}/${root}`), (x) => x.body.span?.attributes.ag.metrics.tokens.cumulative?.total === 250, 30_000);
    expect(got.body.span.attributes.ag.metrics.tokens.cumulative.total).toBe(250);
    const all = await call('GET', `/spans/?trace_id=${trace_id}`);
    expect(all.body.count).toBe(251);
  });

  it('when the body has the wrong shape, then 422 in the HTTPValidationError shape', async () => {
    const r = await call('POST', '/tracing/spans/ingest', { spans: [{ span_id: hex(8), span_kind: 'NOPE' }] });
    expect(r.status).toBe(422);
    expect(Array.isArray(r.body.detail)).toBe(true);
    expect(r.body.detail[0]).toHaveProperty('loc');
    expect(r.body.detail[0]).toHaveProperty('msg');
    expect(r.body.detail[0]).toHaveProperty('type');
  });
});

describe('canonical traces', () => {
  const tree = (trace_id: string, root: string, children: Record<string, unknown> = {}) => ({
    trace: { trace_id, spans: { root: { trace_id, span_id: root, span_name: 'root', attributes: { k: 'v' }, spans: children } } },
  });

  it('when a trace is created, replaced and deleted, then reads follow, in order', async () => {
    const trace_id = hex(16);
    const root = hex(8);
    const a = hex(8);
    const b = hex(8);
    const created = await call('POST', '/traces/', tree(trace_id, root, { a: { trace_id, span_id: a, span_name: 'a' } }));
    expect(created.status).toBe(202);
    expect(created.body).toEqual({ count: 1, trace_id });
    await eventually(() => getTrace(trace_id), (x) => x.body.count === 1 && !!x.body.trace.spans.root?.spans?.a);

    const replaced = await call('PUT', `/traces/${trace_id}`, tree(trace_id, root, { b: { trace_id, span_id: b, span_name: 'b' } }));
    expect(replaced.status).toBe(202);
    const after = await eventually(() => getTrace(trace_id), (x) => !!x.body.trace?.spans.root?.spans?.b);
    expect(after.body.trace.spans.root.spans.a).toBeUndefined();
    expect(after.body.trace.spans.root.spans.b.span_id).toBe(b);

    const del = await call('DELETE', `/traces/${trace_id}`);
    expect(del.status).toBe(202);
    const gone = await eventually(() => getTrace(trace_id), (x) => x.body.count === 0);
    expect(gone.body).toEqual({ count: 0 });
  });

  it('when payloads break the trace rules, then 400 with the reason', async () => {
    const id = hex(16);
    expect((await call('POST', '/traces/', {})).body).toEqual({ detail: 'Missing trace' });
    expect((await call('POST', '/traces/', { trace: { trace_id: id, spans: {} } })).body.detail).toBe('Missing spans');
    const two = { trace: { trace_id: id, spans: { a: { trace_id: id, span_id: hex(8) }, b: { trace_id: id, span_id: hex(8) } } } };
    expect((await call('POST', '/traces/', two)).body.detail).toBe('Too many root spans');
    const other = hex(16);
    const mismatch = await call('PUT', `/traces/${other}`, tree(id, hex(8)));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.detail).toMatch(/does not match/);
    expect((await call('POST', '/traces/ingest', { traces: [] })).status).toBe(400);
    expect((await call('POST', '/traces/ingest', {})).status).toBe(400);
  });

  it('when ids are bad or reserved, then 400 and 405', async () => {
    expect((await getTrace('not-a-trace')).status).toBe(400);
    expect((await getTrace('query')).status).toBe(405);
    expect((await getTrace('ingest')).status).toBe(405);
    expect((await call('GET', '/traces/')).status).toBe(400);
    expect((await call('GET', '/spans/')).status).toBe(400);
    expect((await call('DELETE', '/traces/zzz')).status).toBe(400);
  });

  it('when /traces/ingest gets several traces, then all are readable by comma-separated and repeated ids', async () => {
    const ids = [hex(16), hex(16), hex(16)];
    const r = await call('POST', '/traces/ingest', { traces: ids.map((trace_id) => ({ trace_id, spans: { root: { trace_id, span_id: hex(8) } } })) });
    expect(r.status).toBe(202);
    expect(r.body.count).toBe(3);
    expect(new Set(r.body.trace_ids)).toEqual(new Set(ids));
    const got = await eventually(() => call('GET', `/traces/?trace_ids=${ids.join(',')}`), (x) => x.body.count === 3);
    expect(got.body.count).toBe(3);
    const rep = await call('GET', `/api/traces/?trace_id=${ids[0]}&trace_id=${ids[1]}`);
    expect(rep.body.count).toBe(2);
  });
});

describe('deprecated and simple shapes', () => {
  it('when a tree-form trace is created via /tracing/traces/, then GET /tracing/traces/{id} returns the map shape', async () => {
    const trace_id = hex(16);
    const root = hex(8);
    const child = hex(8);
    const r = await call('POST', '/tracing/traces/', { traces: { [trace_id]: { spans: { parent: { trace_id, span_id: root, span_name: 'parent', spans: { kid: { trace_id, span_id: child, parent_id: root, span_name: 'kid' } } } } } } });
    expect(r.status).toBe(202);
    expect(r.body.count).toBe(2);
    const got = await eventually(() => call('GET', `/tracing/traces/${trace_id}`), (x) => x.body.count === 1 && !!x.body.traces[trace_id]?.spans.parent?.spans?.kid);
    expect(got.body.traces[trace_id].spans.parent.spans.kid.span_id).toBe(child);
    const del = await call('DELETE', `/tracing/traces/${trace_id}`);
    expect(del.status).toBe(202);
    await eventually(() => call('GET', `/tracing/traces/${trace_id}`), (x) => x.body.count === 0);
  });

  it('when a simple trace is created, then it is stored as one annotation span', async () => {
    const link = { trace_id: hex(16), span_id: hex(8) };
    const r = await call('POST', '/simple/traces/', { trace: { origin: 'human', kind: 'eval', channel: 'web', data: { outputs: { score: 1 } }, references: { evaluator: { slug: 'my-eval' } }, links: { invocation: link } } });
    expect(r.status).toBe(202);
    const { trace_id, span_id } = r.body.trace;
    const got = await eventually(() => call('GET', `/spans/${trace_id}/${span_id}`), (x) => x.body.count === 1);
    expect(got.body.span.trace_type).toBe('annotation');
    expect(got.body.span.attributes.ag.flags).toMatchObject({ is_feedback: true, is_evaluation: true, is_web: true });
    expect(got.body.span.links[0]).toMatchObject({ ...link, attributes: { key: 'invocation' } });
    expect((await call('POST', '/simple/traces/', { trace: { origin: 'human' } })).status).toBe(422);
  });
});

describe('credentials and tenancy', () => {
  it('when credentials are missing or wrong, then 401', async () => {
    const none = await fetch(`${t.baseUrl}/traces/${hex(16)}`);
    expect(none.status).toBe(401);
    const wrong = await fetch(`${t.baseUrl}/traces/${hex(16)}`, { headers: { Authorization: `ApiKey abcdefgh.${hex(32)}` } });
    expect(wrong.status).toBe(401);
    const admin = await fetch(`${t.baseUrl}/admin/simple/accounts/`, { method: 'POST', headers: { Authorization: 'Access nope', 'Content-Type': 'application/json' }, body: '{}' });
    expect(admin.status).toBe(401);
  });

  it("when another project's key asks for a trace, then it is not there", async () => {
    const other = await createAccount(t.baseUrl, t.adminToken);
    const trace_id = hex(16);
    const span_id = hex(8);
    await call('POST', '/tracing/spans/ingest', { spans: [{ trace_id, span_id }] });
    await eventually(() => getTrace(trace_id), (x) => x.body.count === 1);
    expect((await getTrace(trace_id, other)).body).toEqual({ count: 0 });
    expect((await call('GET', `/spans/${trace_id}/${span_id}`, undefined, other)).body).toEqual({ count: 0 });
  });

  it('when an email is already registered, then account creation answers 409', async () => {
    const res = await fetch(`${t.baseUrl}/admin/simple/accounts/`, {
      method: 'POST',
      headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ accounts: { u: { user: { email: acc.email } } } }),
    });
    expect(res.status).toBe(409);
  });

  it('when an organization slug is taken, then account creation answers 409 naming it', async () => {
    const create = (email: string) => fetch(`${t.baseUrl}/admin/simple/accounts/`, {
      method: 'POST',
      headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ accounts: { u: { user: { email }, organization: { name: 'Taken', slug: `taken-${hex(4)}` } } } }),
    });
    const slug = `taken-${hex(4)}`;
    const body = (email: string) => JSON.stringify({ accounts: { u: { user: { email }, organization: { name: 'Taken', slug } } } });
    const post = (email: string) => fetch(`${t.baseUrl}/admin/simple/accounts/`, { method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' }, body: body(email) });
    expect((await create(`${hex(6)}@slug.example.com`)).status).toBe(200);
    expect((await post(`${hex(6)}@slug.example.com`)).status).toBe(200);
    const again = await post(`${hex(6)}@slug.example.com`);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ detail: { message: `Organization slug '${slug}' already exists.`, slug } });
  });
});
