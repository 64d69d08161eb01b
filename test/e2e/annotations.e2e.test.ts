// Annotations are traces (reference evaluations §2.1, §3.6; issue 28 item 4): written through the
// span pipeline as one span linked to the annotated span, judged by an evaluator of the project
// (created for it when its references name none, with an outputs schema inferred from it), read
// back by /annotations and by the ordinary tracing reads; edits rewrite the span in place, deletes
// remove the trace; another project sees nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let a: TestAccount;
let b: TestAccount;
beforeAll(async () => {
  t = await startTestApp();
  [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
});
afterAll(async () => { await t?.stop(); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const hex = (n: number): string => randomBytes(n).toString('hex');

describe('annotations', () => {
  it('when an annotation names an evaluator that does not exist, then one is created for it, and the annotation reads back by id, by query and as a trace', async () => {
    const judge = `judge-${hex(4)}`;
    const target = { trace_id: hex(16), span_id: hex(8) };
    const created = await call('POST', '/annotations/', a, {
      annotation: { origin: 'human', data: { outputs: { score: 4, comment: 'good' } }, references: { evaluator: { slug: judge } }, links: { invocation: target }, tags: { run: judge } },
    });
    expect(created.status).toBe(200);
    const ann = created.body.annotation;
    expect(ann).toMatchObject({ origin: 'human', kind: 'adhoc', channel: 'api', data: { outputs: { score: 4, comment: 'good' } }, links: { invocation: target } });
    expect(ann.references.evaluator).toMatchObject({ slug: judge, id: expect.any(String) });
    expect(ann.references.evaluator_revision).toMatchObject({ version: '1' });

    // The evaluator: a feedback workflow whose outputs schema came from the annotation.
    const ev = await call('POST', '/evaluators/revisions/retrieve', a, { evaluator_ref: { slug: judge } });
    expect(ev.body.evaluator_revision.data).toMatchObject({
      uri: 'agenta:custom:feedback:v0', schemas: { outputs: { type: 'object', properties: { score: { type: 'number' }, comment: { type: 'string' } } } },
    });
    expect(ev.body.evaluator_revision.flags).toMatchObject({ is_evaluator: true, is_feedback: true });

    const read = await eventually(async () => call('GET', `/annotations/${ann.trace_id}`, a), (r) => r.body.count === 1, 30_000);
    expect(read.body.annotation).toMatchObject({ trace_id: ann.trace_id, span_id: ann.span_id, origin: 'human', data: ann.data, references: ann.references, links: { invocation: target }, tags: { run: judge } });
    // An ordinary trace: the span store holds it, typed "annotation", linked to the annotated span.
    const spans = await call('GET', `/spans/?trace_id=${ann.trace_id}`, a);
    expect(spans.body.spans).toHaveLength(1);
    expect(spans.body.spans[0]).toMatchObject({ trace_type: 'annotation', span_name: judge, links: [expect.objectContaining(target)] });

    const byRef = await call('POST', '/annotations/query', a, { annotation: { references: { evaluator: { slug: judge } } } });
    expect(byRef.body.annotations.map((x: { trace_id: string }) => x.trace_id)).toEqual([ann.trace_id]);
    const byLink = await call('POST', '/annotations/query', a, { annotation: { links: [target] } });
    expect(byLink.body.annotations.map((x: { trace_id: string }) => x.trace_id)).toEqual([ann.trace_id]);
    expect((await call('POST', '/annotations/query', a, { annotation: { origin: 'auto', references: { evaluator: { slug: judge } } } })).body.count).toBe(0);

    // The evaluator now exists: an annotation that breaks its schema is a 422 naming the place.
    const wrong = await call('POST', '/annotations/', a, { annotation: { data: { outputs: { score: 'high' } }, references: { evaluator: { slug: judge } }, links: { invocation: target } } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ['body', 'annotation', 'data', 'outputs', 'score'], type: 'value_error.json_schema' });

    // Another project sees nothing and changes nothing.
    expect(await call('GET', `/annotations/${ann.trace_id}`, b)).toEqual({ status: 200, body: { count: 0 } });
    expect(await call('PATCH', `/annotations/${ann.trace_id}`, b, { annotation: { data: { outputs: { score: 1 } } } })).toEqual({ status: 200, body: { count: 0 } });
    expect(await call('DELETE', `/annotations/${ann.trace_id}`, b)).toEqual({ status: 200, body: { count: 0 } });
  });

  it('when an annotation is edited and deleted, then its span is rewritten in place and then gone', async () => {
    const judge = `judge-${hex(4)}`;
    const target = { trace_id: hex(16), span_id: hex(8) };
    const ann = (await call('POST', '/annotations/', a, { annotation: { data: { outputs: { ok: true } }, references: { evaluator: { slug: judge } }, links: { invocation: target } } })).body.annotation;
    await eventually(async () => call('GET', `/annotations/${ann.trace_id}`, a), (r) => r.body.count === 1, 30_000);
    const edited = await call('PATCH', `/annotations/${ann.trace_id}`, a, { annotation: { data: { outputs: { ok: false } }, meta: { why: 'rechecked' } } });
    expect(edited.body.annotation).toMatchObject({ trace_id: ann.trace_id, span_id: ann.span_id, origin: 'custom', data: { outputs: { ok: false } }, links: { invocation: target }, meta: { why: 'rechecked' } });
    await eventually(async () => call('GET', `/annotations/${ann.trace_id}`, a), (r) => r.body.annotation?.data?.outputs?.ok === false, 30_000);
    expect((await call('PATCH', `/annotations/${ann.trace_id}`, a, { annotation: { data: { outputs: { ok: 'maybe' } } } })).status).toBe(422);
    const deleted = await call('DELETE', `/annotations/${ann.trace_id}`, a);
    expect(deleted.body).toEqual({ count: 1, annotation_link: { trace_id: ann.trace_id, span_id: ann.span_id } });
    await eventually(async () => call('GET', `/annotations/${ann.trace_id}`, a), (r) => r.body.count === 0, 30_000);
    expect((await call('GET', '/annotations/not-a-trace', a)).body).toEqual({ count: 0 });
  });
});
