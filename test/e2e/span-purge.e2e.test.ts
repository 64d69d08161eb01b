// Deleting an organization (or a user with the organizations they own) makes its spans unreadable at
// once — the project's API keys go with it — and the purge workers then remove every ClickHouse row
// of its projects in the background, each table by its owner (projector-spans: spans and trace
// index; projector-events: the events log), while other organizations' rows stay. The workers poll
// fast and without delay here; production defaults are in docs/configuration.md.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openClickhouse, type Clickhouse } from '@llm/clickhouse';
import { openPostgres, type Pool } from '@llm/postgres';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let ch: Clickhouse;
let db: Pool;

beforeAll(async () => {
  t = await startTestApp({ SPAN_PURGE_INTERVAL_MS: '200', SPAN_PURGE_DELAY_MS: '0' });
  // The same embedded engine as the app (one per data directory and process).
  ch = await openClickhouse({ dataDir: t.clickhouse.dataDir, database: t.clickhouse.database });
  db = openPostgres(t.databaseUrl);
});
afterAll(async () => { await db?.end(); await ch?.close(); await t?.stop(); });

async function call(method: string, path: string, auth: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${t.baseUrl}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}
const admin = (): Record<string, string> => ({ Authorization: `Access ${t.adminToken}` });

/** ClickHouse rows of a project in every table the purge covers. */
async function rows(projectId: string): Promise<{ spans: number; trace_index: number; platform_events: number }> {
  const count = async (table: string): Promise<number> => {
    const r = await ch.client.query({ query: `SELECT count() AS n FROM ${ch.database}.${table} WHERE project_id = {p:String}`, query_params: { p: projectId }, format: 'JSONEachRow' });
    return Number((await r.json<{ n: string }>())[0]!.n);
  };
  return { spans: await count('spans'), trace_index: await count('trace_index'), platform_events: await count('platform_events') };
}

/** The purge ledgers' rows of a project (projector-spans' and projector-events'). */
async function ledgers(projectId: string): Promise<{ project_span_purges: number; project_event_purges: number }> {
  const count = async (table: string): Promise<number> => {
    const r = await ch.client.query({ query: `SELECT count() AS n FROM ${ch.database}.${table} FINAL WHERE project_id = {p:String}`, query_params: { p: projectId }, format: 'JSONEachRow' });
    return Number((await r.json<{ n: string }>())[0]!.n);
  };
  return { project_span_purges: await count('project_span_purges'), project_event_purges: await count('project_event_purges') };
}

/** Two spans ingested and read back through the API (the read also records a traces.fetched event). */
async function spansOf(acc: TestAccount): Promise<{ trace_id: string; span_id: string }> {
  const trace_id = hex(16);
  const span_id = hex(8);
  const w = await call('POST', '/api/tracing/spans/ingest', acc.auth, { spans: [{ trace_id, span_id }, { trace_id, span_id: hex(8), parent_id: span_id }] });
  expect(w.status).toBe(202);
  await eventually(() => call('GET', `/traces/${trace_id}`, acc.auth), (r) => r.status === 200 && r.body.count === 1);
  // Wait until every table holds the project's rows, the events log included.
  await eventually(() => rows(acc.projectId), (r) => r.spans >= 2 && r.trace_index >= 1 && r.platform_events >= 1, 60_000);
  return { trace_id, span_id };
}

describe('span purge', () => {
  it('given spans in two organizations, when one organization is deleted, then its reads are refused at once and its ClickHouse rows are purged while the other\'s stay', async () => {
    const [a, b] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
    // Not the owner's last organization, so the owner may delete it.
    expect((await call('POST', '/organizations/', a.auth, { name: 'Stays' })).status).toBe(201);
    const [sa, sb] = await Promise.all([spansOf(a), spansOf(b)]);
    const bBefore = await rows(b.projectId);

    expect((await call('DELETE', `/organizations/${a.organizationId}`, a.auth)).status).toBe(200);

    // At once: the key of the deleted organization's project no longer reads (nor writes).
    expect((await call('GET', `/spans/${sa.trace_id}/${sa.span_id}`, a.auth)).status).toBe(401);
    expect((await call('POST', '/spans/query', a.auth, {})).status).toBe(401);
    expect((await call('POST', '/api/tracing/spans/ingest', a.auth, { spans: [{ trace_id: hex(16), span_id: hex(8) }] })).status).toBe(401);
    // The tombstone is written with the delete, in the same transaction.
    expect((await db.query('SELECT organization_id::text AS o FROM project_tombstones WHERE project_id = $1', [a.projectId])).rows).toEqual([{ o: a.organizationId }]);

    // In the background: every row of the project is gone; the purge is recorded.
    expect(await eventually(() => rows(a.projectId), (r) => r.spans + r.trace_index + r.platform_events === 0, 60_000))
      .toEqual({ spans: 0, trace_index: 0, platform_events: 0 });
    // Each owner records its purge in its own ledger, beside its tables.
    expect(await ledgers(a.projectId)).toEqual({ project_span_purges: 1, project_event_purges: 1 });
    // The other organization keeps everything and still reads.
    expect(await rows(b.projectId)).toEqual(expect.objectContaining({ spans: bBefore.spans, trace_index: bBefore.trace_index }));
    const kept = await call('GET', `/spans/${sb.trace_id}/${sb.span_id}`, b.auth);
    expect([kept.status, kept.body.count]).toEqual([200, 1]);
    const metrics = await (await fetch(`${t.managementUrl}/metrics`)).text();
    expect(metrics).toMatch(/span_purge_projects_total [1-9]/);
    expect(metrics).toMatch(/event_purge_projects_total [1-9]/);

    // A replay rebuilds the span table from the topic, which still carries the deleted project's
    // records: they are purged again, and the other organization's spans are all there.
    const replay = await fetch(`${t.baseUrl}/admin/replay/spans`, { method: 'POST', headers: admin() });
    expect(replay.status).toBe(200);
    const lines = (await replay.text()).trim().split('\n');
    expect(JSON.parse(lines[lines.length - 1]!)).toHaveProperty('result');
    expect(await eventually(() => rows(a.projectId), (r) => r.spans + r.trace_index === 0, 60_000)).toMatchObject({ spans: 0, trace_index: 0 });
    expect((await rows(b.projectId)).spans).toBe(bBefore.spans);
  });

  it('given a user with spans, when an operator deletes the user, then the owned organization\'s spans are refused at once and purged', async () => {
    const [c, d] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
    const [sc] = await Promise.all([spansOf(c), spansOf(d)]);

    const del = await call('DELETE', `/admin/simple/accounts/users/${c.userId}`, admin());
    expect(del.status).toBe(200);
    expect(del.body.deleted.organizations).toEqual([{ id: c.organizationId }]);

    expect((await call('GET', `/spans/${sc.trace_id}/${sc.span_id}`, c.auth)).status).toBe(401);
    expect(await eventually(() => rows(c.projectId), (r) => r.spans + r.trace_index + r.platform_events === 0, 60_000))
      .toEqual({ spans: 0, trace_index: 0, platform_events: 0 });
    expect((await rows(d.projectId)).spans).toBeGreaterThanOrEqual(2);
  });
});
