// Hostile input on the saved-query routes (issue 24, finding 4) is a 4xx with the usual body, never
// a 500: text the stores cannot hold (NUL, lone surrogates) in filters and in the query string,
// dates outside what Postgres and ClickHouse hold, numbers past any limit, and tags/flags/meta nested
// deeper than a stack can follow, on writes and reads alike. The primitives are @llm/contracts'
// (text.ts, numbers.ts, dates.ts); docs/limits-and-failures.md "Input limits" names the limits.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let acc: TestAccount;
const hex = (n: number): string => randomBytes(n).toString('hex');

type Res = { status: number; body: any };
/** The body is sent as given when it is a string, so that hostile JSON is not built by JSON.stringify. */
async function call(method: string, path: string, body?: unknown): Promise<Res> {
  const r = await fetch(`${t.baseUrl}${path}`, {
    method, headers: { ...acc.auth, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

/** A 422 in the spec's HTTPValidationError shape, one entry at `loc`. */
function expectRefused(r: Res, loc: Array<string | number>, msg: RegExp): void {
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  expect(r.body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, msg: expect.stringMatching(msg), type: expect.any(String) })]));
}

/** A 422 whose entry at or under `prefix` says the value nests too deep. */
function expectTooDeep(r: Res, prefix: Array<string | number>): void {
  expect(r.status, JSON.stringify(r.body).slice(0, 2000)).toBe(422);
  const hit = (r.body.detail as Array<{ loc: unknown[]; msg: string }>).find((d) => prefix.every((p, i) => d.loc[i] === p) && /nests deeper than/.test(d.msg));
  expect(hit, JSON.stringify(r.body).slice(0, 2000)).toBeDefined();
}

/** `{"k":{"k":…"x"…}}` nested `depth` levels, as JSON text (JSON.stringify would recurse as deep). */
const deep = (depth: number): string => `${'{"k":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
const DEPTH = 20_000;

let queryId: string;
let variantId: string;

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
  const r = await call('POST', '/simple/queries/', { query: { slug: hex(8), name: 'bounds', data: { windowing: { limit: 5 } } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  queryId = r.body.query.id;
  variantId = r.body.query.variant_id;
});
afterAll(async () => { await t?.stop(); });

describe('saved-query reads: unstorable text in filters', () => {
  it.each([
    ['NUL', 'a\u0000b', /NUL/],
    ['a lone surrogate', 'a\ud800b', /surrogate/],
  ])('when a filter holds %s, then every query route answers 422 naming the field', async (_, bad, msg) => {
    expectRefused(await call('POST', '/queries/variants/query', { query_variant: { name: bad } }), ['body', 'query_variant', 'name'], msg);
    expectRefused(await call('POST', '/queries/variants/query', { query_variant: { slugs: ['ok', bad] } }), ['body', 'query_variant', 'slugs', 1], msg);
    expectRefused(await call('POST', '/queries/revisions/query', { query_revision: { message: bad } }), ['body', 'query_revision', 'message'], msg);
    expectRefused(await call('POST', '/queries/revisions/query', { query_revision: { authors: [bad] } }), ['body', 'query_revision', 'authors', 0], msg);
    expectRefused(await call('POST', '/simple/queries/query', { query: { tags: { k: bad } } }), ['body', 'query', 'tags', 'k'], msg);
    expectRefused(await call('POST', '/simple/queries/query', { query: { flags: { [bad]: true } } }), ['body', 'query', 'flags'], msg);
  });

  it('when the query string of /queries/query holds NUL, then 422 names the parameter', async () => {
    expectRefused(await call('POST', '/queries/query?query_slug=a%00b'), ['query', 'query_slug'], /NUL/);
    expectRefused(await call('POST', '/queries/query?query_slugs=ok,a%00b'), ['query', 'query_slugs'], /NUL/);
    expectRefused(await call('POST', '/queries/query?tags=%7B%22k%22%3A%22a%5Cu0000%22%7D'), ['query', 'tags'], /JSON object|NUL/);
  });
});

describe('saved-query reads: dates and numbers the stores cannot take', () => {
  it('when windowing.oldest or newest is no date the stores hold, then 422 at that field', async () => {
    for (const path of ['/queries/variants/query', '/queries/revisions/query', '/simple/queries/query']) {
      expectRefused(await call('POST', path, { windowing: { oldest: '99999-01-01' } }), ['body', 'windowing', 'oldest'], /date/);
      expectRefused(await call('POST', path, { windowing: { newest: '0000-01-01T00:00:00Z' } }), ['body', 'windowing', 'newest'], /date/);
    }
    expectRefused(await call('POST', '/queries/query?oldest=99999-01-01'), ['query', 'oldest'], /date/);
  });

  it('when a window date is one the stores hold, then it bounds the list', async () => {
    const later = await call('POST', '/simple/queries/query', { windowing: { oldest: '2299-12-31T00:00:00Z' } });
    expect(later.status, JSON.stringify(later.body)).toBe(200);
    expect(later.body.count).toBe(0);
    const since = await call('POST', '/simple/queries/query', { windowing: { oldest: '2000-01-01' } });
    expect(since.status, JSON.stringify(since.body)).toBe(200);
    expect(since.body.queries.map((q: { id: string }) => q.id)).toContain(queryId);
  });

  it('when limit or depth is past any bound, then 422 (query string and body alike)', async () => {
    expectRefused(await call('POST', '/queries/query?limit=1e308'), ['query', 'limit'], /limit|number|integer/);
    expectRefused(await call('POST', '/queries/query?limit=NaN'), ['query', 'limit'], /limit|number|integer/);
    expectRefused(await call('POST', '/queries/query?limit=99999999999999999999'), ['query', 'limit'], /limit|number|integer/);
    expectRefused(await call('POST', '/queries/revisions/query', '{"windowing":{"limit":1e308}}'), ['body', 'windowing', 'limit'], /./);
    expectRefused(await call('POST', '/queries/variants/query', { windowing: { limit: 2 ** 40 } }), ['body', 'windowing', 'limit'], /./);
    expectRefused(await call('POST', '/queries/revisions/log', '{"query_revisions":{"query_id":"' + queryId + '","depth":1e300}}'),
      ['body', 'query_revisions', 'depth'], /./);
    const ok = await call('POST', '/queries/query?limit=1');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.count).toBe(1);
  });
});

describe('saved queries: JSON nested deeper than a stack', () => {
  it('when tags, flags or meta nest 20,000 levels on a write, then 422 and nothing is written', async () => {
    const d = deep(DEPTH);
    expectTooDeep(await call('POST', '/simple/queries/', `{"query":{"slug":"${hex(8)}","tags":${d}}}`), ['body', 'query', 'tags']);
    expectTooDeep(await call('PUT', `/simple/queries/${queryId}`, `{"query":{"meta":${d}}}`), ['body', 'query', 'meta']);
    expectTooDeep(await call('POST', '/queries/', `{"query":{"slug":"${hex(8)}","flags":${d}}}`), ['body', 'query', 'flags']);
    expectTooDeep(await call('POST', '/queries/revisions/commit', `{"query_revision":{"query_variant_id":"${variantId}","tags":${d}}}`),
      ['body', 'query_revision', 'tags']);
    const filtering = `${'{"conditions":['.repeat(DEPTH)}${']}'.repeat(DEPTH)}`;
    const commit = await call('POST', '/queries/revisions/commit', `{"query_revision":{"query_variant_id":"${variantId}","data":{"filtering":${filtering}}}}`);
    expect(commit.status, JSON.stringify(commit.body)).toBe(422);
    const log = await call('POST', '/queries/revisions/log', { query_revisions: { query_variant_id: variantId } });
    expect(log.body.count).toBe(2);
  });

  it('when a read filters by tags nested 20,000 levels, then 422 on every query route', async () => {
    const d = deep(DEPTH);
    expectTooDeep(await call('POST', '/simple/queries/query', `{"query":{"tags":${d}}}`), ['body', 'query', 'tags']);
    expectTooDeep(await call('POST', '/queries/variants/query', `{"query_variant":{"flags":${d}}}`), ['body', 'query_variant', 'flags']);
    expectTooDeep(await call('POST', '/queries/revisions/query', `{"query_revision":{"tags":${d}}}`), ['body', 'query_revision', 'tags']);
    expectTooDeep(await call('POST', '/queries/revisions/retrieve', `{"query_ref":{"id":"${queryId}"},"windowing":${d}}`), ['body', 'windowing']);
    // A query string holds less (the header limit): 700 levels, past the JSON depth limit all the same.
    expectRefused(await call('POST', `/queries/query?tags=${encodeURIComponent(deep(700))}`), ['query', 'tags'], /JSON object|nests deeper/);
  });

  it('when tags nest within the limit, then they are stored and filter the list', async () => {
    const tags = { a: { b: { c: 'x' } } };
    const made = await call('POST', '/simple/queries/', { query: { slug: hex(8), tags } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const found = await call('POST', '/simple/queries/query', { query: { tags } });
    expect(found.body.queries.map((q: { id: string }) => q.id)).toEqual([made.body.query.id]);
  });
});
