// Redaction at ingest (issue 30) over the real stack: a project's policy (an account event) is
// applied by the command service before the append, on OTLP and on the JSON routes (native ingest,
// canonical trace replacement, simple-trace PATCH), so reading back shows placeholders and the raw
// values are absent from the spans topic itself (consumed from the beginning and searched byte for
// byte, beside a marker that must be found). Hostile input: patterns the linear engine cannot run
// are a 400 before anything is recorded; a 10^6-character value is redacted.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicsFor } from '@llm/events';
import { createKafkaClient } from '@llm/kafka';
import { encodeExportTraceServiceRequest } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();

let t: TestApp;
let acc: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  [acc, other] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
}, 120_000);
afterAll(async () => { await t?.stop(); });

async function call(method: string, path: string, who: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...who.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const policyPath = (who: TestAccount): string => `/projects/${who.projectId}/redaction`;

/** The stored spans of a trace, once its span count reaches `n`. */
async function spansOf(traceId: string, n = 1, who = acc): Promise<any[]> {
  const r = await eventually(() => call('GET', `/spans?trace_ids=${traceId}`, who), (x) => x.status === 200 && x.body.count >= n, 30_000);
  return r.body.spans;
}

/** Every record value of the spans topic keyed by the project, read from the beginning until `until` holds. */
async function topicRecords(projectId: string, until: (values: Buffer[]) => boolean): Promise<Buffer[]> {
  const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: `redaction-${hex(3)}` });
  const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
  const consumer = kafka.consumer({ groupId: `redaction-${hex(4)}`, topics: [topics.spans], fromBeginning: true });
  const values: Buffer[] = [];
  try {
    await consumer.start(async (b) => {
      for (const r of b.records) if (r.key?.startsWith(`${projectId}:`) && r.value) values.push(Buffer.from(r.value));
    });
    await eventually(async () => values, until, 30_000);
    return values;
  } finally {
    await consumer.stop().catch(() => undefined);
  }
}

describe('redaction policy', () => {
  const run = hex(6);
  const EMAIL = `jane.${run}@example.com`;
  const EMAIL2 = `ops.${run}@mail.example.org`;
  const CARD = '4111 1111 1111 1111';
  const CARD2 = '5555-5555-5555-4444';
  const KEY = `sk-proj-${hex(16)}`;
  const IBAN = 'DE89 3704 0044 0532 0130 00';
  const EMPLOYEE = `EMP-${String(100000 + (parseInt(run, 16) % 900000))}`;
  const MARKER = `marker-${run}`;
  const SECRETS = [EMAIL, EMAIL2, CARD, CARD2, KEY, IBAN, EMPLOYEE];
  const otlpTrace = hex(16);
  const otlpSpan = hex(8);
  const jsonTrace = hex(16);
  const jsonSpan = hex(8);
  let simpleTrace = '';

  it('when a project sets a policy with a custom pattern, then it reads back at version 1', async () => {
    expect((await call('GET', policyPath(acc), acc)).body).toEqual({ project_id: acc.projectId, version: 0, policy: null, updated_at: null });
    const set = await call('PUT', policyPath(acc), acc, { custom: [{ name: 'employee_id', pattern: 'EMP-[0-9]{6}' }] });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ project_id: acc.projectId, version: 1, policy: { custom: [{ name: 'employee_id', pattern: 'EMP-[0-9]{6}' }] } });
    expect((await call('GET', policyPath(acc), acc)).body).toEqual(set.body);
  });

  it.each<[string, string, RegExp]>([
    ['a backreference', '(a+)\\1', /linear time/],
    ['a lookahead', 'EMP(?=-)', /linear time/],
    ['a large counted repetition', '(ab){1,500}', /linear time/],
    ['a pattern that matches nothing but the empty string', 'x*', /empty string/],
  ])('when a custom pattern is %s, then the policy is refused with 400 and nothing changes', async (_what, pattern, reason) => {
    const r = await call('PUT', policyPath(acc), acc, { custom: [{ name: 'bad', pattern }] });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(reason);
    expect((await call('GET', policyPath(acc), acc)).body.version).toBe(1);
  });

  it('when a policy names an unknown detector or another project, then 422 and 404', async () => {
    expect((await call('PUT', policyPath(acc), acc, { detectors: ['passport'] })).status).toBe(422);
    expect((await call('GET', policyPath(other), acc)).status).toBe(404);
    expect((await call('PUT', policyPath(other), acc, {})).status).toBe(404);
  });

  it('when spans with secrets arrive over OTLP, then they are stored with placeholders, counts and the policy version', async () => {
    const body = encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{
      traceId: Buffer.from(otlpTrace, 'hex'), spanId: Buffer.from(otlpSpan, 'hex'), name: 'chat', kind: 3,
      startTimeUnixNano: BigInt(Date.now() - 2000) * 1_000_000n, endTimeUnixNano: BigInt(Date.now() - 1000) * 1_000_000n,
      attributes: {
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `mail ${EMAIL}, card ${CARD}` }] }]),
        'app.note': `${MARKER} key ${KEY} for ${EMPLOYEE}`,
      },
    }] }] }] });
    const r = await fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body });
    expect(r.status).toBe(200);
    const [span] = await spansOf(otlpTrace);
    const text = JSON.stringify(span.attributes);
    for (const s of [EMAIL, CARD, KEY, EMPLOYEE]) expect(text).not.toContain(s);
    expect(span.attributes.app.note).toBe(`${MARKER} key [API_KEY] for [EMPLOYEE_ID]`);
    expect(text).toContain('mail [EMAIL], card [CARD]');
    expect(span.attributes.redaction.policy_version).toBe(1);
    // The message is kept twice (gen_ai.input.messages as sent, ag.data.inputs as parsed): each copy counts.
    expect(span.attributes.redaction.counts).toMatchObject({ api_key: 1, employee_id: 1 });
    expect(span.attributes.redaction.counts.email).toBeGreaterThanOrEqual(1);
  });

  it('when spans with secrets arrive on the native JSON route, a trace replacement and a simple-trace edit, then each is stored redacted', async () => {
    const ingest = await call('POST', '/tracing/spans/ingest', acc, { spans: [{
      trace_id: jsonTrace, span_id: jsonSpan, span_name: 'root', start_time: ago(2000), end_time: ago(1000),
      attributes: { ag: { data: { inputs: { question: `IBAN ${IBAN}, mail ${EMAIL2}` }, outputs: 'noted' } } },
    }] });
    expect(ingest.status).toBe(202);
    expect((await spansOf(jsonTrace))[0].attributes.ag.data.inputs.question).toBe('IBAN [IBAN], mail [EMAIL]');

    const replaced = await call('PUT', `/traces/${jsonTrace}`, acc, { trace: { trace_id: jsonTrace, spans: { root: {
      trace_id: jsonTrace, span_id: jsonSpan, span_name: 'root', start_time: ago(2000), end_time: ago(1000),
      attributes: { ag: { data: { inputs: { question: `card ${CARD2}` } } } },
    } } } });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(202);
    await eventually(() => spansOf(jsonTrace), (s) => s[0]?.attributes.ag.data.inputs.question === 'card [CARD]', 30_000);

    const created = await call('POST', '/simple/traces/', acc, { trace: { data: { inputs: { note: 'nothing yet' } } } });
    expect(created.status).toBe(202);
    simpleTrace = created.body.trace.trace_id;
    await eventually(() => call('GET', `/simple/traces/${simpleTrace}`, acc), (x) => x.body.count === 1, 30_000);
    const patched = await call('PATCH', `/simple/traces/${simpleTrace}`, acc, { trace: { data: { inputs: { note: `reach ${EMAIL}` } } } });
    expect(patched.status).toBe(200);
    await eventually(() => call('GET', `/simple/traces/${simpleTrace}`, acc), (x) => x.body.trace?.data?.inputs?.note === 'reach [EMAIL]', 30_000);
  });

  it('when the spans topic is read from the beginning, then the marker is there and no raw secret is', async () => {
    const haveAll = (values: Buffer[]): boolean => {
      const all = Buffer.concat(values);
      return all.includes(MARKER) && all.includes('card [CARD]') && all.includes('reach [EMAIL]');
    };
    const all = Buffer.concat(await topicRecords(acc.projectId, haveAll));
    expect(all.includes(MARKER)).toBe(true);
    expect(SECRETS.filter((s) => all.includes(s))).toEqual([]);
  });

  it('when a value holds 10^6 characters with an e-mail at its end, then it is accepted and stored redacted', async () => {
    const trace = hex(16);
    const long = `${'a1.'.repeat(333_333)} ${EMAIL}`;
    const r = await call('POST', '/tracing/spans/ingest', acc, { spans: [{
      trace_id: trace, span_id: hex(8), span_name: 'long', start_time: ago(2000), end_time: ago(1000), attributes: { ag: { data: { inputs: { long } } } },
    }] });
    expect(r.status).toBe(202);
    const stored: string = (await spansOf(trace))[0].attributes.ag.data.inputs.long;
    expect(stored.length).toBe(long.length - EMAIL.length + '[EMAIL]'.length);
    expect(stored.endsWith(' [EMAIL]')).toBe(true);
  });

  it('when the policy is deleted, then its version moves on and later spans are stored as sent, without a redaction record', async () => {
    const del = await call('DELETE', policyPath(acc), acc);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ project_id: acc.projectId, version: 2, policy: null });
    const trace = hex(16);
    expect((await call('POST', '/tracing/spans/ingest', acc, { spans: [{
      trace_id: trace, span_id: hex(8), span_name: 'raw', start_time: ago(2000), end_time: ago(1000), attributes: { ag: { data: { inputs: { q: `mail ${EMAIL}` } } } },
    }] })).status).toBe(202);
    const [span] = await spansOf(trace);
    expect(span.attributes.ag.data.inputs.q).toBe(`mail ${EMAIL}`);
    expect(span.attributes.redaction).toBeUndefined();
  });

  it('when another project has no policy, then its spans are stored as sent', async () => {
    const trace = hex(16);
    expect((await call('POST', '/tracing/spans/ingest', other, { spans: [{
      trace_id: trace, span_id: hex(8), span_name: 'raw', start_time: ago(2000), end_time: ago(1000), attributes: { ag: { data: { inputs: { q: `card ${CARD}` } } } },
    }] })).status).toBe(202);
    expect((await spansOf(trace, 1, other))[0].attributes.ag.data.inputs.q).toBe(`card ${CARD}`);
  });
});
