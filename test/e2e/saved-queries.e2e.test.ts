// Saved queries end to end (reference compat §1): the git-style model — query → variants →
// revisions — written through the command side (events on the accounts topic, projected into
// Postgres), read from the query side, served under /queries and /simple/queries, and resolved by
// query_*_ref on /queries/revisions/retrieve and /traces/query against the real read model.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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


const filtering = (key: string) => ({ operator: 'and', conditions: [{ field: 'attributes', key, value: 'test_value', operator: 'is' }] });
async function simpleQuery(extra: Record<string, unknown> = {}): Promise<any> {
  const slug = hex(16);
  const r = await post('/simple/queries/', { query: { slug, name: `Test Query ${slug}`, data: { filtering: filtering(`test_key_${hex(4)}`), windowing: { limit: 50 } }, ...extra } });
  expect(r.status).toBe(200);
  return r.body.query;
}

describe('simple queries (queries/test_queries_basics.py)', () => {
  it('when a simple query is created, then it answers 200 with its id, slug, variant_id and revision_id, and a commit to the variant keeps the data', async () => {
    const q = await simpleQuery();
    expect(q).toMatchObject({ id: expect.any(String), slug: expect.any(String), variant_id: expect.any(String), revision_id: expect.any(String) });
    expect(q.data.windowing).toEqual({ limit: 50 });
    const c = await post('/queries/revisions/commit', { query_revision: { query_variant_id: q.variant_id, data: q.data } });
    expect(c.status).toBe(200);
    expect(c.body.query_revision).toMatchObject({ id: expect.any(String), version: '2', data: q.data, query_id: q.id, artifact_id: q.id });
    expect(c.body.query_revision.data.filtering).toEqual(q.data.filtering);
  });

  it('when a simple query is fetched, then 200 with the same id and its latest data; an unknown id is count 0; a non-UUID is 422', async () => {
    const q = await simpleQuery();
    const r = await get(`/simple/queries/${q.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 1, query: { id: q.id, data: q.data } });
    expect(r.body.query.variant_id).toBeUndefined();
    expect((await get(`/simple/queries/${crypto.randomUUID()}`)).body).toEqual({ count: 0 });
    expect((await get('/queries/query')).status).toBe(422);
  });

  it('when a simple query is archived, then {} no longer lists it; unarchived, it is listed again; the default listing does not truncate', async () => {
    const q = await simpleQuery();
    const listed = async (): Promise<boolean> => (await post('/simple/queries/query', {})).body.queries.some((x: any) => x.slug === q.slug);
    expect(await listed()).toBe(true);
    expect((await post(`/simple/queries/${q.id}/archive`, {})).status).toBe(200);
    expect(await listed()).toBe(false);
    expect((await post('/simple/queries/query', { include_archived: true })).body.queries.some((x: any) => x.id === q.id)).toBe(true);
    const u = await post(`/simple/queries/${q.id}/unarchive`, {});
    expect(u.status).toBe(200);
    expect(u.body.query.deleted_at).toBeUndefined();
    expect(await listed()).toBe(true);
    const all = await post('/simple/queries/query', {});
    expect(all.body.count).toBe(all.body.queries.length);
  });

  it('when simple queries are queried by tags, then containment decides', async () => {
    const tag = hex(4);
    const q = await simpleQuery({ tags: { team: tag, nested: { on: true } } });
    const r = await post('/simple/queries/query', { query: { tags: { team: tag } } });
    expect(r.body.queries.map((x: any) => x.id)).toEqual([q.id]);
  });

  it('when a simple query is edited, then a revision is committed and the headers replaced; a duplicate slug is 409', async () => {
    const q = await simpleQuery();
    const r = await call('PUT', `/simple/queries/${q.id}`, { query: { id: q.id, name: 'renamed', data: { filtering: { conditions: [] } } } });
    expect(r.status).toBe(200);
    expect(r.body.query).toMatchObject({ id: q.id, name: 'renamed', data: { filtering: { operator: 'and', conditions: [] } } });
    const d = await post('/simple/queries/', { query: { slug: q.slug } });
    expect(d.status).toBe(409);
    expect(d.body).toEqual({ detail: { message: `A resource with slug '${q.slug}' already exists in this project.`, conflict: { slug: q.slug } } });
  });
});

describe('git-style queries, commits and retrieve', () => {
  let query: any; let variant: any; let first: any; let second: any;
  beforeAll(async () => {
    const slug = hex(8);
    const c = await post('/queries/', { query: { slug, name: 'artifact' } });
    expect(c.status).toBe(200);
    query = c.body.query;
    const v = await post('/queries/variants/', { query_variant: { slug: `v-${slug}`, query_id: query.id } });
    expect(v.status).toBe(200);
    variant = v.body.query_variant;
    first = (await post('/queries/revisions/commit', { query_revision: { query_variant_id: variant.id, message: 'Initial' } })).body.query_revision;
    second = (await post('/queries/revisions/commit', { query_revision: { variant_id: variant.id, data: { filtering: { conditions: [] } } } })).body.query_revision;
  });

  it('when an artifact and a variant are created, then they come back by id with both id spellings; duplicates are 409', async () => {
    expect(query).toMatchObject({ slug: expect.any(String), name: 'artifact' });
    expect((await get(`/queries/${query.id}`)).body).toMatchObject({ count: 1, query: { id: query.id } });
    expect((await get(`/queries/variants/${variant.id}`)).body.query_variant).toMatchObject({ query_id: query.id, artifact_id: query.id, query_slug: query.slug, name: variant.slug });
    expect((await post('/queries/', { query: { slug: query.slug } })).status).toBe(409);
    expect((await post('/queries/variants/', { query_variant: { slug: variant.slug, query_id: query.id } })).status).toBe(409);
    expect((await get(`/queries/${crypto.randomUUID()}`)).body).toEqual({ count: 0 });
  });

  it('when revisions are committed, then versions are "0", "1"; the stored filter is normalised; a commit without data has none', async () => {
    expect(first).toMatchObject({ version: '0', message: 'Initial' });
    expect(first.data).toBeUndefined();
    expect(second).toMatchObject({ version: '1', data: { filtering: { operator: 'and', conditions: [] } } });
    expect((await get(`/queries/revisions/${second.id}`)).body.query_revision).toMatchObject({ id: second.id, variant_slug: variant.slug });
  });

  it('when data carries an unknown key, then 422 naming it; trace_ids are dropped; an unknown variant is 404', async () => {
    const r = await post('/queries/revisions/commit', { query_revision: { query_variant_id: variant.id, data: { surprise: true } } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc.at(-1)).toBe('surprise');
    const d = await post('/queries/revisions/commit', { query_revision: { query_variant_id: variant.id, data: { trace_ids: ['x'] } } });
    expect(d.status).toBe(200);
    expect(d.body.query_revision.data).toBeUndefined();
    expect((await post('/queries/revisions/commit', { query_revision: { query_variant_id: crypto.randomUUID() } })).status).toBe(404);
  });

  it('when retrieved by variant id, then retrieval_info names the query, variant and latest revision (test_query_retrieval_info.py)', async () => {
    const s = await simpleQuery();
    const r = await post('/queries/revisions/retrieve', { query_variant_ref: { id: s.variant_id } });
    expect(r.status).toBe(200);
    expect(r.body.retrieval_info.references).toEqual({
      query: { id: s.id, slug: s.slug }, query_variant: { id: s.variant_id, slug: expect.any(String) },
      query_revision: { id: s.revision_id, slug: expect.any(String), version: '1' },
    });
    expect(r.body.retrieval_info.selector).toBeUndefined();
  });

  it('when retrieved by revision id or slug, variant+version, variant, query slug or slug+version, then the right revision', async () => {
    const s = await simpleQuery();
    const c2 = (await post('/queries/revisions/commit', { query_revision: { query_variant_id: s.variant_id, data: s.data } })).body.query_revision;
    const pick = async (b: unknown): Promise<string | undefined> => {
      const r = await post('/queries/revisions/retrieve', b);
      expect(r.status).toBe(200);
      return r.body.query_revision?.id;
    };
    expect(await pick({ query_revision_ref: { id: s.revision_id } })).toBe(s.revision_id);
    expect(await pick({ query_revision_ref: { slug: c2.slug } })).toBe(c2.id);
    expect(await pick({ query_variant_ref: { id: s.variant_id }, query_revision_ref: { version: '1' } })).toBe(s.revision_id);
    expect(await pick({ query_variant_ref: { id: s.variant_id } })).toBe(c2.id);
    expect(await pick({ query_ref: { slug: s.slug } })).toBe(c2.id);
    expect(await pick({ query_ref: { slug: s.slug }, query_revision_ref: { version: '1' } })).toBe(s.revision_id);
    expect(await pick({ query_ref: { id: s.id, slug: s.slug }, query_variant_ref: { id: s.variant_id }, query_revision_ref: { id: c2.id, version: '2' } })).toBe(c2.id);
    expect((await post('/queries/revisions/retrieve', {})).body).toEqual({ count: 0 });
  });

  it('when refs are ambiguous or inconsistent, then the reference 400s', async () => {
    const s = await simpleQuery();
    const v = await post('/queries/revisions/retrieve', { query_revision_ref: { version: '1' } });
    expect(v.status).toBe(400);
    expect(v.body.detail).toMatch(/^query_revision_ref.version is a per-variant sequence number/);
    const only = await post('/queries/revisions/retrieve', { query_variant_ref: { version: '1' } });
    expect(only.status).toBe(400);
    expect(only.body.detail).toMatch(/^query_variant_ref carries only `version`/);
    const bad = await post('/queries/revisions/retrieve', { query_ref: { slug: 'unrelated' }, query_revision_ref: { id: s.revision_id } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe(`query_ref.slug='unrelated' does not match resolved revision's artifact_slug='${s.slug}'`);
    expect((await post('/queries/revisions/retrieve', { query_revision_ref: { version: 1 } })).status).toBe(422);
  });

  it('when the log of a simple query with one commit is read by variant, then 3 revisions newest first (test_revision_logs.py)', async () => {
    const s = await simpleQuery();
    await post('/queries/revisions/commit', { query_revision: { query_variant_id: s.variant_id, data: s.data } });
    const r = await post('/queries/revisions/log', { query_revisions: { query_variant_id: s.variant_id } });
    expect(r.body.count).toBe(3);
    expect(r.body.query_revisions.map((x: any) => x.version)).toEqual(['2', '1', '0']);
    expect((await post('/queries/revisions/log', { query_revisions: { query_id: s.id, depth: 1 } })).body.count).toBe(1);
  });

  it('when two commits race on one variant, then both land with distinct consecutive versions', async () => {
    const s = await simpleQuery();
    const rs = await Promise.all([1, 2].map(() => post('/queries/revisions/commit', { query_revision: { query_variant_id: s.variant_id } })));
    expect(rs.map((r) => r.status)).toEqual([200, 200]);
    expect(rs.map((r) => r.body.query_revision.version).sort()).toEqual(['2', '3']);
  });

  it('when variants and revisions are queried, then refs filter them', async () => {
    const vs = await post('/queries/variants/query', { query_refs: [{ id: query.id }] });
    expect(vs.body.query_variants.map((x: any) => x.id)).toEqual([variant.id]);
    const rs = await post('/queries/revisions/query', { query_variant_refs: [{ id: variant.id }] });
    expect(rs.body.count).toBe(3);
    expect((await post(`/queries/query?query_id=${query.id}`, {})).body.queries.map((x: any) => x.id)).toEqual([query.id]);
  });
});

describe('saved-query refs on /traces/query and tenancy', () => {
  it('when /traces/query names a revision by id, then its stored filter applies; a stored span focus is 409', async () => {
    const s = await simpleQuery({ data: { filtering: kind('a') } });
    const r = await eventually(() => post('/traces/query', { query_revision_ref: { id: s.revision_id } }), (x) => x.body.count >= 2, 30_000);
    expect(new Set(r.body.traces.map((x: any) => x.trace_id))).toEqual(new Set(kindA));
    const f = await simpleQuery({ data: { filtering: kind('b'), formatting: { focus: 'span' } } });
    expect((await post('/traces/query', { query_revision_ref: { id: f.revision_id } })).status).toBe(409);
    const spans = await post('/spans/query', { query_ref: { slug: f.slug } });
    expect(traceIdsOf(spans.body.spans)).toEqual(new Set(kindB));
  });

  it("when another project's key reads or writes a query, then it sees nothing and changes nothing", async () => {
    const s = await simpleQuery();
    expect((await get(`/simple/queries/${s.id}`, other)).body).toEqual({ count: 0 });
    expect((await get(`/queries/revisions/${s.revision_id}`, other)).body).toEqual({ count: 0 });
    expect((await post('/queries/revisions/retrieve', { query_ref: { id: s.id } }, other)).body).toEqual({ count: 0 });
    expect((await post('/queries/revisions/commit', { query_revision: { query_variant_id: s.variant_id } }, other)).status).toBe(404);
    expect((await post(`/simple/queries/${s.id}/archive`, {}, other)).status).toBe(404);
    expect((await post('/simple/queries/query', {}, other)).body.queries.some((x: any) => x.id === s.id)).toBe(false);
    expect((await get(`/simple/queries/${s.id}`)).body.query.deleted_at).toBeUndefined();
  });
});

describe('retrieve with trace execution (compat §1.4)', () => {
  it('when a revision is retrieved with include_trace_ids, then data.trace_ids lists the traces its stored filter matches', async () => {
    const s = await simpleQuery({ data: { filtering: kind('a') } });
    const r = await post('/queries/revisions/retrieve', { query_revision_ref: { id: s.revision_id }, include_trace_ids: true });
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    expect(new Set(r.body.query_revision.data.trace_ids)).toEqual(new Set(kindA));
    expect(r.body.query_revision.data.trace_ids).toHaveLength(kindA.length);
    for (const id of r.body.query_revision.data.trace_ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.body.query_revision.data.traces).toBeUndefined();
    expect(r.body.query_revision.data.filtering).toBeDefined();
  });

  it('when retrieved with include_traces, then data.traces holds each trace with its spans keyed by span id', async () => {
    const s = await simpleQuery({ data: { filtering: kind('b') } });
    const r = await post('/queries/revisions/retrieve', { query_ref: { slug: s.slug }, include_traces: true });
    expect(r.status).toBe(200);
    const { trace_ids: ids, traces } = r.body.query_revision.data;
    expect(new Set(ids)).toEqual(new Set(kindB));
    expect(traces.map((x: any) => x.trace_id)).toEqual(ids);
    for (const tr of traces) {
      const spanIds = Object.keys(tr.spans);
      expect(spanIds).toHaveLength(2);
      for (const [id, span] of Object.entries<any>(tr.spans)) {
        expect(id).toMatch(/^[0-9a-f]{16}$/);
        expect(span.span_id).toBe(id);
        expect(span.trace_id).toBe(tr.trace_id);
      }
    }
  });

  it('when a stored span focus runs, then the trace ids are those of the matching spans; the request limit pages with a cursor', async () => {
    const s = await simpleQuery({ data: { filtering: kind('a'), formatting: { focus: 'span' } } });
    const all = await post('/queries/revisions/retrieve', { query_revision_ref: { id: s.revision_id }, include_trace_ids: true });
    expect(new Set(all.body.query_revision.data.trace_ids)).toEqual(new Set(kindA));
    const t2 = await simpleQuery({ data: { filtering: kind('a') } });
    const page = await post('/queries/revisions/retrieve', { query_revision_ref: { id: t2.revision_id }, include_trace_ids: true, windowing: { limit: 1 } });
    expect(page.body.query_revision.data.trace_ids).toHaveLength(1);
    expect(typeof page.body.windowing.next).toBe('string');
    const rest = await post('/queries/revisions/retrieve', { query_revision_ref: { id: t2.revision_id }, include_trace_ids: true, windowing: { limit: 10, next: page.body.windowing.next } });
    expect(new Set([...page.body.query_revision.data.trace_ids, ...rest.body.query_revision.data.trace_ids])).toEqual(new Set(kindA));
  });

  it('when a revision without data is retrieved with include flags, then it comes back unchanged; a bad window is 422', async () => {
    const slug = `noda${hex(6)}`;
    const q = (await post('/queries/', { query: { slug } })).body.query;
    const v = (await post('/queries/variants/', { query_variant: { slug: `${slug}v`, query_id: q.id } })).body.query_variant;
    const rev = (await post('/queries/revisions/commit', { query_revision: { query_variant_id: v.id } })).body.query_revision;
    const r = await post('/queries/revisions/retrieve', { query_revision_ref: { id: rev.id }, include_traces: true });
    expect(r.status).toBe(200);
    expect(r.body.query_revision.data ?? null).toBeNull();
    const s = await simpleQuery({ data: { filtering: kind('a') } });
    expect((await post('/queries/revisions/retrieve', { query_revision_ref: { id: s.revision_id }, include_trace_ids: true, windowing: { order: 'sideways' } })).status).toBe(422);
  });

  it("when another project's key retrieves with include_traces, then {count:0} and no traces", async () => {
    const s = await simpleQuery({ data: { filtering: kind('a') } });
    expect((await post('/queries/revisions/retrieve', { query_revision_ref: { id: s.revision_id }, include_traces: true }, other)).body).toEqual({ count: 0 });
  });
});

describe('revision edit and archive (compat §1.3)', () => {
  const put = (path: string, body: unknown, a?: TestAccount): Promise<Res> => call('PUT', path, body, a);

  it('when a revision is edited, then the five header fields are replaced and data is unchanged; id mismatch 400, unknown 404, non-UUID 422', async () => {
    const s = await simpleQuery({ data: { filtering: kind('a') } });
    const before = (await get(`/queries/revisions/${s.revision_id}`)).body.query_revision;
    const r = await put(`/queries/revisions/${s.revision_id}`, { query_revision: { id: s.revision_id, name: 'renamed', description: 'd', tags: { team: 'x' }, flags: { pinned: true }, meta: { k: 1 } } });
    expect(r.status).toBe(200);
    expect(r.body.query_revision).toMatchObject({ id: s.revision_id, name: 'renamed', description: 'd', tags: { team: 'x' }, flags: { pinned: true }, meta: { k: 1 } });
    expect(r.body.query_revision.data).toEqual(before.data);
    expect(r.body.query_revision.version).toBe(before.version);
    const cleared = await put(`/queries/revisions/${s.revision_id}`, { query_revision: { name: 'only' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.query_revision.name).toBe('only');
    expect(cleared.body.query_revision.tags ?? null).toBeNull();
    expect((await put(`/queries/revisions/${s.revision_id}`, { query_revision: { id: crypto.randomUUID(), name: 'x' } })).status).toBe(400);
    expect((await put(`/queries/revisions/${crypto.randomUUID()}`, { query_revision: { name: 'x' } })).status).toBe(404);
    expect((await put('/queries/revisions/not-a-uuid', { query_revision: { name: 'x' } })).status).toBe(422);
    expect((await put(`/queries/revisions/${s.revision_id}`, { query_revision: { name: 'x' } }, other)).status).toBe(404);
  });

  it('when a single revision is archived, then only it is archived and left out of listings; unarchived, it is back', async () => {
    const s = await simpleQuery({ data: { filtering: kind('a') } });
    const a = await post(`/queries/revisions/${s.revision_id}/archive`, {});
    expect(a.status).toBe(200);
    expect(a.body.query_revision.deleted_at).toBeTruthy();
    expect((await get(`/queries/variants/${s.variant_id}`)).body.query_variant.deleted_at ?? null).toBeNull();
    const listed = await post('/queries/revisions/query', { query_variant_refs: [{ id: s.variant_id }] });
    expect(listed.body.query_revisions.some((x: any) => x.id === s.revision_id)).toBe(false);
    expect(listed.body.count).toBeGreaterThan(0);
    const u = await post(`/queries/revisions/${s.revision_id}/unarchive`, {});
    expect(u.status).toBe(200);
    expect(u.body.query_revision.deleted_at ?? null).toBeNull();
    expect((await post(`/queries/revisions/${crypto.randomUUID()}/archive`, {})).status).toBe(404);
    expect((await post(`/queries/revisions/${s.revision_id}/archive`, {}, other)).status).toBe(404);
  });

  it('when a variant is forked, then the new variant of the same artifact starts with copies of the source history up to the pinned revision', async () => {
    const q = (await post('/queries/', { query: { slug: `fork-${hex(4)}` } })).body.query;
    const v = (await post('/queries/variants/', { query_variant: { slug: `src-${hex(4)}`, query_id: q.id } })).body.query_variant;
    const commit = async (conditions: unknown[], message: string) =>
      (await post('/queries/revisions/commit', { query_revision: { query_variant_id: v.id, message, data: { filtering: { conditions } } } })).body.query_revision;
    const r0 = await commit([], 'zero');
    const r1 = await commit(kind('a').conditions, 'one');
    await commit(kind('b').conditions, 'two');

    const whole = await post('/queries/variants/fork', { query_variant: { slug: `whole-${hex(4)}`, name: 'Whole' }, query_variant_ref: { slug: v.slug } });
    expect(whole.status).toBe(200);
    expect(whole.body.query_variant).toMatchObject({ query_id: q.id, name: 'Whole' });
    const log = (await post('/queries/revisions/log', { query_revisions: { query_variant_id: whole.body.query_variant.id } })).body.query_revisions;
    expect(log.map((r: { version: string; message: string }) => [r.version, r.message])).toEqual([['2', 'two'], ['1', 'one'], ['0', 'zero']]);
    const hexId = whole.body.query_variant.id.replace(/-/g, '');
    expect(log[2].slug).toBe(`${r0.slug}_${hexId}`);

    // Pinned to version 1 by id: two copies; the stored filter came along and retrieves like the source.
    const pinned = await post('/queries/variants/fork', { query_variant: { slug: `pin-${hex(4)}` }, query_variant_ref: { id: v.id }, query_revision_ref: { id: r1.id } });
    expect(pinned.status).toBe(200);
    const latest = await post('/queries/revisions/retrieve', { query_variant_ref: { id: pinned.body.query_variant.id }, include_trace_ids: true });
    expect(latest.body.query_revision).toMatchObject({ version: '1', message: 'one', data: { filtering: r1.data.filtering } });
    expect(new Set(latest.body.query_revision.data.trace_ids)).toEqual(new Set(kindA));

    // The reference's 400s; a taken slug 409; another project's variant is not resolvable.
    const empty = (await post('/queries/variants/', { query_variant: { slug: `empty-${hex(4)}`, query_id: q.id } })).body.query_variant;
    expect((await post('/queries/variants/fork', { query_variant: { slug: `x-${hex(4)}` }, query_variant_ref: { id: crypto.randomUUID() } })).body)
      .toEqual({ detail: 'Fork source variant could not be resolved.' });
    expect((await post('/queries/variants/fork', { query_variant: { slug: `x-${hex(4)}` }, query_variant_ref: { id: v.id }, query_revision_ref: { version: '9' } })).body)
      .toEqual({ detail: 'Fork source revision could not be resolved.' });
    expect((await post('/queries/variants/fork', { query_variant: { slug: `x-${hex(4)}` }, query_variant_ref: { id: empty.id } })).status).toBe(400);
    expect((await post('/queries/variants/fork', { query_variant: { slug: v.slug }, query_variant_ref: { id: v.id } })).status).toBe(409);
    expect((await post('/queries/variants/fork', { query_variant: { slug: `x-${hex(4)}` }, query_variant_ref: { id: v.id } }, other)).status).toBe(400);
    expect((await post('/queries/variants/fork', { query_variant: { slug: `x-${hex(4)}` } })).status).toBe(422);
  });
});
