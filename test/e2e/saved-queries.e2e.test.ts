// Saved queries end to end: created and revised through the command side (events on the accounts
// topic, projected into Postgres), fetched from the query side, and resolved by query_ref /
// query_variant_ref / query_revision_ref on POST /spans/query and /traces/query against the real
// read model. Concurrent commits, tenancy, malformed bodies, and a replay of the accounts topic.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topicsFor } from '@llm/events';
import { createKafkaClient } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { openPostgres, type Pool } from '@llm/postgres';
import { createAccountsProjector } from '@llm/service-projector-accounts';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;
let other: TestAccount;
const marker = `sq-${hex(4)}`;
const kindA = Array.from({ length: 3 }, () => hex(16));
const kindB = Array.from({ length: 2 }, () => hex(16));

type Res = { status: number; body: any };
async function call(method: string, path: string, body?: unknown, a: TestAccount = acc): Promise<Res> {
  const r = await fetch(`${t.baseUrl}${path}`, {
    method, headers: { ...a.auth, 'Content-Type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: r.status, body: await r.json() };
}
const post = (path: string, body: unknown, a?: TestAccount): Promise<Res> => call('POST', path, body, a);
const get = (path: string, a?: TestAccount): Promise<Res> => call('GET', path, undefined, a);

const kind = (k: 'a' | 'b') => ({
  conditions: [{ field: 'attributes', key: 'tags.marker', value: marker }, { field: 'attributes', key: 'tags.kind', value: k }],
});
const nothing = { conditions: [{ field: 'attributes', key: 'tags.marker', value: 'matches-nothing' }] };
const traceIdsOf = (spans: Array<{ trace_id: string }>): Set<string> => new Set(spans.map((s) => s.trace_id));

beforeAll(async () => {
  t = await startTestApp();
  [acc, other] = await Promise.all([createAccount(t.baseUrl, t.adminToken), createAccount(t.baseUrl, t.adminToken)]);
  const spans = [...kindA.map((id) => [id, 'a'] as const), ...kindB.map((id) => [id, 'b'] as const)].flatMap(([trace_id, k], i) => {
    const root = hex(8);
    const at = `2025-04-01T00:00:0${i}Z`;
    const attributes = { 'tags.marker': marker, 'tags.kind': k };
    return [
      { trace_id, span_id: root, span_name: 'root', start_time: at, end_time: at, attributes },
      { trace_id, span_id: hex(8), parent_id: root, span_name: 'child', start_time: at, end_time: at, attributes },
    ];
  });
  expect((await post('/tracing/spans/ingest', { spans })).status).toBe(202);
  await eventually(() => post('/spans/query', { filtering: { conditions: [kind('a').conditions[0]] } }), (x) => x.body.count === 10, 30_000);
});
afterAll(async () => { await t?.stop(); });

describe('saved query resource', () => {
  let s: any;

  it('when a query is created without a slug, then it gets one from its name, a default variant and revision 1', async () => {
    const r = await post('/queries/', {
      query: { name: 'Kind A spans', description: 'spans of kind a' },
      query_revision: { data: { filtering: kind('a'), windowing: { limit: 50 } }, formatting: { focus: 'span' }, message: 'first' },
    });
    expect(r.status).toBe(200);
    s = r.body;
    expect(s.query).toMatchObject({ name: 'Kind A spans', description: 'spans of kind a' });
    expect(s.query.slug).toMatch(/^kind-a-spans-[0-9a-f]{6}$/);
    expect(s.query_variant).toMatchObject({ slug: 'default', query_id: s.query.id });
    expect(s.query_revision).toMatchObject({
      version: 1, query_id: s.query.id, query_variant_id: s.query_variant.id, message: 'first',
      data: { filtering: kind('a'), windowing: { limit: 50 } }, formatting: { focus: 'span' },
    });
  });

  it('when revisions are committed, then they are numbered 2, 3 and the query shows the latest', async () => {
    const r2 = await post(`/queries/${s.query.id}/revisions/`, { query_revision: { data: { filtering: kind('b') }, formatting: { focus: 'span' } }, expected_version: 1 });
    expect(r2.status).toBe(200);
    expect(r2.body.query_revision).toMatchObject({ version: 2, data: { filtering: kind('b') } });
    const r3 = await post(`/queries/${s.query.id}/revisions`, { query_revision: { data: { filtering: kind('b'), windowing: { limit: 3 } }, formatting: { focus: 'span' } } });
    expect(r3.status).toBe(200);
    expect(r3.body.query_revision.version).toBe(3);

    const latest = await get(`/queries/${s.query.id}`);
    expect(latest.status).toBe(200);
    expect(latest.body.query_revision).toEqual(r3.body.query_revision);
    expect(latest.body.query).toEqual(s.query);

    const list = await get(`/queries/${s.query.id}/revisions/`);
    expect(list.body.count).toBe(3);
    expect(list.body.query_revisions.map((x: { version: number }) => x.version)).toEqual([3, 2, 1]);

    const first = await get(`/queries/revisions/${s.query_revision.id}`);
    expect(first.status).toBe(200);
    expect(first.body.query_revision).toEqual(s.query_revision);
  });
});

describe('resolving saved queries on span and trace queries', () => {
  let spanQ: any;
  let traceQ: any;
  let anyQ: any;

  beforeAll(async () => {
    spanQ = (await post('/queries/', { query: { slug: `spans-${hex(3)}` }, query_revision: { data: { filtering: kind('a') }, formatting: { focus: 'span' } } })).body;
    // revision 2 of the span query selects kind b, with a stored page size of 3
    await post(`/queries/${spanQ.query.id}/revisions/`, { query_revision: { data: { filtering: kind('b'), windowing: { limit: 3, order: 'ascending' } }, formatting: { focus: 'span' } } });
    traceQ = (await post('/queries/', { query_revision: { data: { filtering: kind('a') }, formatting: { focus: 'trace' } } })).body;
    anyQ = (await post('/queries/', { query_revision: { data: { filtering: kind('b') } } })).body;
    expect(spanQ.query && traceQ.query && anyQ.query).toBeTruthy();
  });

  it('when only query_ref is given, then the latest revision filters, and the request filtering is ignored', async () => {
    const r = await post('/spans/query', { query_ref: { id: spanQ.query.id }, filtering: nothing, windowing: { limit: 100 } });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(4);
    expect(traceIdsOf(r.body.spans)).toEqual(new Set(kindB));
  });

  it('when query_revision_ref names a version of the query, then that revision filters', async () => {
    const r = await post('/spans/query', { query_ref: { slug: spanQ.query.slug }, query_revision_ref: { version: 1 } });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(6);
    expect(traceIdsOf(r.body.spans)).toEqual(new Set(kindA));
  });

  it('when query_variant_ref is given, then the latest revision of that variant', async () => {
    const byId = await post('/spans/query', { query_variant_ref: { id: spanQ.query_variant.id }, windowing: { limit: 100 } });
    expect(traceIdsOf(byId.body.spans)).toEqual(new Set(kindB));
    const bySlug = await post('/spans/query', { query_ref: { id: spanQ.query.id }, query_variant_ref: { slug: 'default' }, query_revision_ref: { version: '1' } });
    expect(traceIdsOf(bySlug.body.spans)).toEqual(new Set(kindA));
  });

  it('when query_revision_ref names a revision by id or slug, then exactly that revision', async () => {
    const byId = await post('/spans/query', { query_revision_ref: { id: spanQ.query_revision.id } });
    expect(byId.body.count).toBe(6);
    const bySlug = await post('/spans/query', { query_revision_ref: { slug: spanQ.query_revision.slug } });
    expect(traceIdsOf(bySlug.body.spans)).toEqual(new Set(kindA));
  });

  it("when the stored window has a page size, then pages follow it, and the request's limit and next override", async () => {
    const page1 = await post('/spans/query', { query_ref: { id: spanQ.query.id } });
    expect(page1.body.count).toBe(3);
    expect(page1.body.windowing).toMatchObject({ limit: 3, order: 'ascending' });
    const seen = page1.body.spans.map((x: { span_id: string }) => x.span_id);
    let next: string | undefined = page1.body.windowing.next;
    while (next) {
      const p = await post('/spans/query', { query_ref: { id: spanQ.query.id }, windowing: { limit: 1, next, order: 'descending' } });
      expect(p.body.count).toBeLessThanOrEqual(1);
      seen.push(...p.body.spans.map((x: { span_id: string }) => x.span_id));
      next = p.body.windowing?.next;
    }
    expect(seen.length).toBe(4);
    expect(new Set(seen).size).toBe(4);
  });

  it('when a trace-focused query is used on /traces/query, then whole traces of the stored filter come back', async () => {
    const r = await post('/traces/query', { query_ref: { id: traceQ.query.id }, filtering: nothing });
    expect(r.status).toBe(200);
    expect(new Set(r.body.traces.map((x: { trace_id: string }) => x.trace_id))).toEqual(new Set(kindA));
  });

  it('when the revision has no focus, then both endpoints use it', async () => {
    const spans = await post('/spans/query', { query_ref: { id: anyQ.query.id } });
    expect(traceIdsOf(spans.body.spans)).toEqual(new Set(kindB));
    const traces = await post('/traces/query', { query_ref: { slug: anyQ.query.slug } });
    expect(traces.body.count).toBe(2);
  });

  it('when the stored focus is the other endpoint, then 409 with the reference wording', async () => {
    const onTraces = await post('/traces/query', { query_ref: { id: spanQ.query.id } });
    expect(onTraces).toEqual({ status: 409, body: { detail: 'Query revision formatting.focus=span. Use /spans/query for this query revision.' } });
    const onSpans = await post('/spans/query', { query_ref: { id: traceQ.query.id } });
    expect(onSpans).toEqual({ status: 409, body: { detail: 'Query revision formatting.focus=trace. Use /traces/query for this query revision.' } });
  });

  it('when the refs name nothing, then 404 naming the refs; when they are not enough, then 400', async () => {
    const unknown = await post('/spans/query', { query_ref: { id: '6f1c1b9e-2d4e-4a6b-9c3d-1e2f3a4b5c6d' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/^No saved query revision matches query_ref/);
    const noSuchVersion = await post('/spans/query', { query_ref: { id: spanQ.query.id }, query_revision_ref: { version: 99 } });
    expect(noSuchVersion.status).toBe(404);
    const insufficient = await post('/traces/query', { query_revision_ref: { version: 1 } });
    expect(insufficient.status).toBe(400);
    expect(insufficient.body.detail).toMatch(/needs a query_variant_ref or a query_ref/);
    const malformed = await post('/spans/query', { query_ref: { id: 'not-a-uuid' } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(['body', 'query_ref', 'id']);
  });

  it("when another project uses this project's query, then it is not found, exactly like a missing one", async () => {
    const missing = '6f1c1b9e-2d4e-4a6b-9c3d-1e2f3a4b5c6d';
    const theirs = await get(`/queries/${spanQ.query.id}`, other);
    expect(theirs).toEqual(await get(`/queries/${missing}`, other));
    expect(theirs).toEqual({ status: 404, body: { detail: 'Query not found.' } });
    expect((await get(`/queries/${spanQ.query.id}/revisions/`, other)).status).toBe(404);
    expect((await get(`/queries/revisions/${spanQ.query_revision.id}`, other)).status).toBe(404);
    expect((await post(`/queries/${spanQ.query.id}/revisions/`, { query_revision: {} }, other)).status).toBe(404);
    expect((await post('/spans/query', { query_ref: { id: spanQ.query.id } }, other)).status).toBe(404);
    expect((await post('/spans/query', { query_revision_ref: { id: spanQ.query_revision.id } }, other)).status).toBe(404);
    // Slugs are per project: the other project may reuse one.
    expect((await post('/queries/', { query: { slug: spanQ.query.slug } }, other)).status).toBe(200);
  });
});

describe('optimistic concurrency', () => {
  let q: any;
  beforeAll(async () => { q = (await post('/queries/', { query: { name: 'contended' } })).body; });
  const commit = (body: Record<string, unknown>) => post(`/queries/${q.query.id}/revisions/`, { query_revision: { message: hex(2) }, ...body });

  it('when four commits expecting version 1 race, then exactly one wins and the others get 409 with the current version', async () => {
    const rs = await Promise.all(Array.from({ length: 4 }, () => commit({ expected_version: 1 })));
    const won = rs.filter((r) => r.status === 200);
    const lost = rs.filter((r) => r.status === 409);
    expect(won.length).toBe(1);
    expect(lost.length).toBe(3);
    expect(won[0]!.body.query_revision.version).toBe(2);
    for (const l of lost) expect(l.body).toEqual({ detail: 'Query revision conflict: expected version 1, but the current version is 2.', current_version: 2 });
    const list = await get(`/queries/${q.query.id}/revisions/`);
    expect(list.body.query_revisions.map((x: { version: number }) => x.version)).toEqual([2, 1]);
  });

  it('when four commits without an expected version race, then all land with distinct consecutive versions', async () => {
    const rs = await Promise.all(Array.from({ length: 4 }, () => commit({})));
    expect(rs.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(rs.map((r) => r.body.query_revision.version).sort()).toEqual([3, 4, 5, 6]);
    const list = await get(`/queries/${q.query.id}/revisions/`);
    expect(list.body.query_revisions.map((x: { version: number }) => x.version)).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it('when a commit expects an old version, then 409 at once', async () => {
    const r = await commit({ expected_version: 2 });
    expect(r.status).toBe(409);
    expect(r.body.current_version).toBe(6);
  });
});

describe('bad input', () => {
  it('when bodies are malformed, then 422 naming the field', async () => {
    const slug = await post('/queries/', { query: { slug: 'Not A Slug!' } });
    expect(slug.status).toBe(422);
    expect(slug.body.detail[0]).toMatchObject({ loc: ['body', 'query', 'slug'] });
    expect(slug.body.detail[0].msg).toMatch(/lowercase letters, digits/);
    const unknownKey = await post('/queries/', { query_revision: { data: { filter: kind('a') } } });
    expect(unknownKey.status).toBe(422);
    expect(JSON.stringify(unknownKey.body.detail)).toMatch(/filter/);
    const focus = await post('/queries/', { query_revision: { formatting: { focus: 'both' } } });
    expect(focus.status).toBe(422);
    const notObject = await post('/queries/', ['x']);
    expect(notObject.status).toBe(422);
    const q = (await post('/queries/', {})).body;
    expect(q.query_revision.version).toBe(1);
    const version = await post(`/queries/${q.query.id}/revisions/`, { query_revision: {}, expected_version: 'one' });
    expect(version.status).toBe(422);
    expect(version.body.detail[0].loc).toEqual(['body', 'expected_version']);
    const missing = await post(`/queries/${q.query.id}/revisions/`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0].loc).toEqual(['body', 'query_revision']);
  });

  it('when the stored filtering or windowing would be unusable, then the commit is refused naming the problem', async () => {
    const op = await post('/queries/', { query_revision: { data: { filtering: { conditions: [{ field: 'span_name', operator: 'nearly', value: 'x' }] } } } });
    expect(op.status).toBe(400);
    expect(op.body.detail).toMatch(/query_revision\.data\.filtering\.conditions\[0\].*nearly/);
    const window = await post('/queries/', { query_revision: { data: { windowing: { oldest: '2025-01-02T00:00:00Z', newest: '2025-01-01T00:00:00Z' } } } });
    expect(window.status).toBe(422);
    expect(window.body.detail[0].loc).toEqual(['body', 'query_revision', 'data', 'windowing', 'newest']);
    const cursor = await post('/queries/', { query_revision: { data: { windowing: { next: 'abc' } } } });
    expect(cursor.status).toBe(422);
  });

  it('when a slug is taken in the project, then 409', async () => {
    const slug = `dup-${hex(3)}`;
    expect((await post('/queries/', { query: { slug } })).status).toBe(200);
    expect(await post('/queries/', { query: { slug } })).toEqual({ status: 409, body: { detail: `Query with slug '${slug}' already exists in this project.`, slug } });
  });

  it('when ids in paths are unknown or malformed, then 404', async () => {
    expect((await get('/queries/not-a-uuid')).status).toBe(404);
    expect((await get('/queries/revisions/6f1c1b9e-2d4e-4a6b-9c3d-1e2f3a4b5c6d')).body).toEqual({ detail: 'Query revision not found.' });
    expect((await post('/queries/not-a-uuid/revisions/', { query_revision: {} })).status).toBe(404);
  });
});

describe('replay', () => {
  it('when the accounts topic is replayed into an empty database, then the saved queries and every accept/reject decision come back identical', async () => {
    const live = openPostgres(t.databaseUrl);
    const dbName = `replay_${hex(4)}`;
    await live.query(`CREATE DATABASE ${dbName}`);
    const replayed = openPostgres(t.databaseUrl.replace(/\/[^/]*$/, `/${dbName}`));
    const kafka = await createKafkaClient({ brokers: t.kafkaBrokers.split(','), clientId: 'replay-test' });
    const producer = await kafka.producer();
    const topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 2, spansRetentionMs: -1, dlqRetentionMs: -1 });
    const projector = createAccountsProjector({
      kafka, producer, pool: replayed, topics, log: createLogger({ name: 'replay', level: 'silent' }), consumerName: 'projector-accounts.replay-test',
    });
    try {
      await projector.start();
      const snapshot = async (pool: Pool) => {
        const rows = async (sql: string) => (await pool.query(sql)).rows;
        return {
          queries: await rows('SELECT * FROM saved_queries ORDER BY id'),
          variants: await rows('SELECT * FROM saved_query_variants ORDER BY id'),
          revisions: await rows('SELECT * FROM saved_query_revisions ORDER BY id'),
          decisions: await rows(`SELECT event_id, status, rejection FROM events WHERE type LIKE 'accounts.query.%' ORDER BY event_id`),
        };
      };
      const expected = await snapshot(live);
      expect(expected.revisions.length).toBeGreaterThan(10);
      expect(expected.decisions.some((d) => d.status === 'rejected')).toBe(true);
      // Wait for every decision, then compare a snapshot taken after it (one snapshot's reads are not
      // atomic: the tables read before the last batch committed would look short).
      await eventually(() => snapshot(replayed), (s) => s.decisions.length >= expected.decisions.length, 30_000);
      expect(await snapshot(replayed)).toEqual(expected);
    } finally {
      await projector.stop();
      await producer.close();
      await replayed.end();
      await live.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      await live.end();
    }
  });
});
