// GET /billing/usage reports only meters that measure something (issue 24, finding 6): traces
// retrieved (the distinct traces of each read event, for the user who read them, daily) and events
// ingested (every event the events log stores) are projected from platform.events.v1 like traces
// ingested from the spans topic; counters with no source in this system (credits_consumed,
// records_ingested) are left out of the answer, never reported as 0.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
const hex = (n: number): string => randomBytes(n).toString('hex');
beforeAll(async () => { t = await startTestApp({ ACCESS_DEFAULT_PLAN: 'cloud_v0_hobby' }); });
afterAll(async () => { await t?.stop(); });

type Usage = Record<string, { value: number; limit: number | null; period: string | null; scope: string; strict: boolean }>;
const usage = async (acc: TestAccount): Promise<Usage> => {
  const r = await fetch(`${t.baseUrl}/billing/usage`, { headers: acc.auth });
  expect(r.status).toBe(200);
  return await r.json() as Usage;
};
const call = async (acc: TestAccount, method: string, path: string, body?: unknown) => {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: r.status, body: await r.json() as { count: number } };
};

describe('billing usage meters', () => {
  it('given a hobby organization, then usage answers its metered counters and gauges, and leaves out the counters with no source', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const u = await usage(acc);
    expect(Object.keys(u).sort()).toEqual(['evaluations_run', 'events_ingested', 'traces_ingested', 'traces_retrieved', 'users']);
    expect(u.traces_retrieved).toMatchObject({ value: 0, limit: null, strict: true, period: 'daily', scope: 'user' });
    expect(u.events_ingested).toMatchObject({ value: 0, period: 'monthly', scope: 'organization' });
  });

  it('when traces are read, then traces_retrieved counts the distinct traces of each read for the reader, and events_ingested each read event', async () => {
    const [acc, other] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
    const ids = [hex(16), hex(16)];
    const marker = hex(6);
    const spans = ids.map((trace_id) => ({ trace_id, span_id: hex(8), span_name: 'root', attributes: { 'tags.marker': marker } }));
    expect((await call(acc, 'POST', '/tracing/spans/ingest', { spans })).status).toBe(202);
    // Waited for through span reads, which record no read event.
    await eventually(() => call(acc, 'GET', `/spans?trace_ids=${ids.join(',')}`), (r) => r.body.count === 2, 30_000);
    // One query finding both traces (one event, 2 traces), one read by id (one event, 1 trace), one read finding nothing (no event).
    expect((await call(acc, 'POST', '/traces/query', { filtering: { conditions: [{ field: 'attributes', key: 'tags.marker', value: marker }] } })).body.count).toBe(2);
    expect((await call(acc, 'GET', `/traces/${ids[0]}`)).body.count).toBe(1);
    expect((await call(acc, 'GET', `/traces/${hex(16)}`)).body.count).toBe(0);
    const u = await eventually(() => usage(acc), (x) => x.traces_retrieved?.value === 3 && x.events_ingested?.value === 2, 30_000);
    expect(u.traces_retrieved).toMatchObject({ value: 3, scope: 'user', period: 'daily' });
    expect(u.events_ingested).toMatchObject({ value: 2 });
    // Another organization's reader is not charged.
    expect(await usage(other)).toMatchObject({ traces_retrieved: { value: 0 }, events_ingested: { value: 0 } });
  });
});
