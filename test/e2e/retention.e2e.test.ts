// Retention (issue 30) over the real stack. Spans, events and webhook deliveries older than their
// project's retention are invisible at once, on every read, and removed from storage shortly after
// by the owners' purges. A project may keep its data for less than its plan does (PATCH
// /projects/{id}, an account event), never longer. Spans are sent with old start times (retention
// counts from the span's start) to a business organization (92 days); the purges run every 300 ms
// with cutoffs in 1 s steps here (production: RETENTION_PURGE_INTERVAL_MS 10 minutes, steps of a day).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { openPostgres, type Pool } from '@llm/postgres';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();
const BUSINESS_MINUTES = 132_480;

let t: TestApp;
let ch: Clickhouse;
let db: Pool;

beforeAll(async () => {
  t = await startTestApp({ RETENTION_PURGE_INTERVAL_MS: '300', RETENTION_PURGE_STEP_MS: '1000' });
  // The same embedded engine as the app (one per data directory and process).
  ch = await openClickhouse({ dataDir: t.clickhouse.dataDir, database: t.clickhouse.database });
  db = openPostgres(t.databaseUrl);
});
afterAll(async () => { await db?.end(); await ch?.close(); await t?.stop(); });

async function call(method: string, path: string, acc: TestAccount, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...acc.auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

async function chCount(table: string, where: string, params: Record<string, unknown>): Promise<number> {
  const r = await ch.client.query({ query: `SELECT count() AS n FROM ${ch.database}.${table} WHERE ${where}`, query_params: params, format: 'JSONEachRow' });
  return Number((await r.json<{ n: string }>())[0]!.n);
}
const spanRows = (projectId: string, traceId: string): Promise<number> => chCount('spans', 'project_id = {p:String} AND trace_id = {t:String}', { p: projectId, t: traceId });
const indexRows = (projectId: string, traceId: string): Promise<number> => chCount('trace_index', 'project_id = {p:String} AND trace_id = {t:String}', { p: projectId, t: traceId });

/** A two-span trace starting `ageMs` ago, in session `session`. */
function trace(ageMs: number, session: string): { trace_id: string; spans: unknown[] } {
  const trace_id = hex(16);
  const root = hex(8);
  const attributes = { ag: { session: { id: session } } };
  return {
    trace_id,
    spans: [
      { trace_id, span_id: root, span_name: 'root', start_time: ago(ageMs), end_time: ago(ageMs - 1000), attributes },
      { trace_id, span_id: hex(8), parent_id: root, span_name: 'child', start_time: ago(ageMs - 10), end_time: ago(ageMs - 500), attributes },
    ],
  };
}

const metric = async (name: string): Promise<number> => {
  const text = await (await fetch(`${t.managementUrl}/metrics`)).text();
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
};

describe('retention by plan', () => {
  it('given a business organization (92 days), when spans 100 days old arrive beside recent ones, then the old are never readable and are purged from spans and trace_index', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_business' });
    const session = `s-${hex(4)}`;
    const old = trace(100 * DAY_MS, `${session}-old`);
    const recent = trace(HOUR_MS, session);
    // Accepted (the guard: a span older than the window is acknowledged, never shown, and purged).
    expect((await call('POST', '/tracing/spans/ingest', acc, { spans: [...old.spans, ...recent.spans] })).status).toBe(202);
    // Both traces are in the same batch: once the recent one reads, the old one was projected too.
    await eventually(() => call('GET', `/traces/${recent.trace_id}`, acc), (r) => r.status === 200 && r.body.count === 1, 30_000);

    // Every read leaves the old trace out: by id, by query over a window that covers it, sessions, analytics.
    expect((await call('GET', `/traces/${old.trace_id}`, acc)).body.count).toBe(0);
    expect((await call('GET', `/spans?trace_ids=${old.trace_id},${recent.trace_id}`, acc)).body.count).toBe(2);
    const window = { oldest: ago(200 * DAY_MS), newest: ago(-HOUR_MS) };
    const spans = await call('POST', '/spans/query', acc, { windowing: { ...window, limit: 100 } });
    expect(spans.body.spans.map((s: { trace_id: string }) => s.trace_id)).toEqual([recent.trace_id, recent.trace_id]);
    const traces = await call('POST', '/traces/query', acc, { windowing: { ...window, limit: 100 } });
    expect(traces.body.traces.map((x: { trace_id: string }) => x.trace_id)).toEqual([recent.trace_id]);
    const sessions = await call('POST', '/spans/sessions/query', acc, { windowing: { limit: 100 } });
    expect(sessions.body.session_ids).toEqual([session]);
    const analytics = await call('POST', '/tracing/spans/analytics', acc, { ...window, interval: 365 * 86_400, focus: 'span' });
    expect(analytics.body.buckets.reduce((n: number, b: { total: { count: number } }) => n + b.total.count, 0)).toBe(2);

    // In the background: the old trace's rows leave storage, the recent one's stay.
    await eventually(async () => [await spanRows(acc.projectId, old.trace_id), await indexRows(acc.projectId, old.trace_id)], ([s, i]) => s === 0 && i === 0, 30_000);
    expect(await spanRows(acc.projectId, recent.trace_id)).toBe(2);
    expect(await indexRows(acc.projectId, recent.trace_id)).toBeGreaterThanOrEqual(1);
    expect(await metric('span_retention_purged_rows_total')).toBeGreaterThanOrEqual(2);
  });

  it('given events and webhook deliveries older than the plan retention, when they are read, then they are absent, and they are purged', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_business' });
    const oldEvent = randomUUID();
    const newEvent = randomUUID();
    const row = (event_id: string, ageMs: number) => ({
      project_id: acc.projectId, timestamp: ago(ageMs).replace('T', ' ').replace('Z', ''), event_id, request_id: event_id, request_type: 'unknown',
      event_type: 'traces.fetched', status_code: 'STATUS_CODE_OK', status_message: '', attributes: '{}', created_at: ago(ageMs).replace('T', ' ').replace('Z', ''),
    });
    // Written where projector-events writes them: the log of a project that existed for months.
    await ch.client.insert({ table: `${ch.database}.platform_events`, values: [row(oldEvent, 100 * DAY_MS), row(newEvent, DAY_MS)], format: 'JSONEachRow' });
    const found = async (id: string): Promise<number> => (await call('POST', '/events/query', acc, { event: { event_id: id } })).body.count;
    expect(await found(newEvent)).toBe(1);
    expect(await found(oldEvent)).toBe(0);

    // Deliveries, where the dispatcher's projector writes them.
    const delivery = (ageMs: number) => [randomUUID(), acc.projectId, randomUUID(), randomUUID(), JSON.stringify({ code: '200', message: 'success' }), new Date(Date.now() - ageMs), randomUUID()];
    const [oldDelivery, newDelivery] = [delivery(100 * DAY_MS), delivery(DAY_MS)];
    for (const d of [oldDelivery, newDelivery]) {
      await db.query('INSERT INTO webhook_deliveries (id, project_id, subscription_id, event_id, status, created_at, last_record_id) VALUES ($1, $2, $3, $4, $5, $6, $7)', d);
    }
    expect((await call('GET', `/webhooks/deliveries/${newDelivery[0]}`, acc)).status).toBe(200);
    expect((await call('GET', `/webhooks/deliveries/${oldDelivery[0]}`, acc)).status).toBe(404);
    const listed = await call('POST', '/webhooks/deliveries/query', acc, {});
    expect(listed.body.deliveries.map((d: { id: string }) => d.id)).toEqual([newDelivery[0]]);

    await eventually(async () => [
      await chCount('platform_events', 'project_id = {p:String} AND event_id = {e:String}', { p: acc.projectId, e: oldEvent }),
      Number((await db.query('SELECT count(*) AS n FROM webhook_deliveries WHERE id = $1', [oldDelivery[0]])).rows[0].n),
    ], ([e, d]) => e === 0 && d === 0, 30_000);
    expect(await chCount('platform_events', 'project_id = {p:String} AND event_id = {e:String}', { p: acc.projectId, e: newEvent })).toBe(1);
    expect(Number((await db.query('SELECT count(*) AS n FROM webhook_deliveries WHERE id = $1', [newDelivery[0]])).rows[0].n)).toBe(1);
  });
});

describe('a project\'s own retention', () => {
  it('when a project sets a shorter retention, then spans older than it vanish from reads at once and are purged; null returns to the plan\'s', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_business' });
    const older = trace(3 * HOUR_MS, 's-older');
    const recent = trace(HOUR_MS / 2, 's-recent');
    expect((await call('POST', '/tracing/spans/ingest', acc, { spans: [...older.spans, ...recent.spans] })).status).toBe(202);
    await eventually(() => call('GET', `/spans?trace_ids=${older.trace_id},${recent.trace_id}`, acc), (r) => r.body.count === 4, 30_000);

    const set = await call('PATCH', `/projects/${acc.projectId}`, acc, { retention_minutes: 120 });
    expect(set).toEqual({
      status: 200,
      body: {
        project_id: acc.projectId, retention_minutes: 120, plan: 'cloud_v0_business',
        plan_retention_minutes: { spans: BUSINESS_MINUTES, events: BUSINESS_MINUTES }, effective_retention_minutes: { spans: 120, events: 120 },
      },
    });
    // At once (the answer came after the projection; this process's readers dropped their cache).
    expect((await call('GET', `/traces/${older.trace_id}`, acc)).body.count).toBe(0);
    expect((await call('GET', `/traces/${recent.trace_id}`, acc)).body.count).toBe(1);
    // The account event is in the read model (a replay of the accounts topic restores it).
    expect((await db.query('SELECT retention_minutes FROM projects WHERE id = $1', [acc.projectId])).rows).toEqual([{ retention_minutes: 120 }]);
    await eventually(() => spanRows(acc.projectId, older.trace_id), (n) => n === 0, 30_000);
    expect(await spanRows(acc.projectId, recent.trace_id)).toBe(2);

    const reset = await call('PATCH', `/projects/${acc.projectId}`, acc, { retention_minutes: null });
    expect(reset.body).toMatchObject({ retention_minutes: null, effective_retention_minutes: { spans: BUSINESS_MINUTES, events: BUSINESS_MINUTES } });
    expect((await db.query('SELECT retention_minutes FROM projects WHERE id = $1', [acc.projectId])).rows).toEqual([{ retention_minutes: 0 }]);
  });

  it('when a project asks for longer than its plan, then it is refused with 400 naming the plan\'s bound and nothing changes; bad bodies are 422, another project 404', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken, { plan: 'cloud_v0_hobby' });
    const longer = await call('PATCH', `/projects/${acc.projectId}`, acc, { retention_minutes: 10_081 });
    expect(longer.status).toBe(400);
    expect(longer.body.detail).toContain('10080');
    expect((await db.query('SELECT retention_minutes FROM projects WHERE id = $1', [acc.projectId])).rows).toEqual([{ retention_minutes: 0 }]);
    // The plan's own bound is allowed.
    expect((await call('PATCH', `/projects/${acc.projectId}`, acc, { retention_minutes: 10_080 })).body.effective_retention_minutes).toEqual({ spans: 10_080, events: 10_080 });

    for (const body of [{ retention_minutes: 0 }, { retention_minutes: 1.5 }, { retention_minutes: '60' }, {}, { retention_minutes: 60, other: 1 }]) {
      expect((await call('PATCH', `/projects/${acc.projectId}`, acc, body)).status).toBe(422);
    }
    const other = await createAccount(t.baseUrl, t.adminToken);
    expect((await call('PATCH', `/projects/${other.projectId}`, acc, { retention_minutes: 60 })).status).toBe(404);
    expect((await call('PATCH', '/projects/not-a-uuid', acc, { retention_minutes: 60 })).status).toBe(422);
  });
});
