// Issue 9 ("no 5xx from input"): hostile bodies, paths, headers and encodings against every route of
// the route table, generated with fast-check, against the real stack. Every answer must be below 500
// (400/401/403/404/405/413/415/422 with a message), and afterwards the stack must still take an
// account write and a span ingest.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES, type RouteId } from '@llm/contracts';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { unthrottledEnv } from '../support/plans.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;

beforeAll(async () => {
  // Thousands of requests from one organization: throttles (tested in throttles.e2e) would answer most with 429.
  t = await startTestApp({ ...unthrottledEnv(), JSON_MAX_BODY_BYTES: String(1024 * 1024), OTLP_MAX_BATCH_BYTES: String(1024 * 1024) });
  acc = await createAccount(t.baseUrl, t.adminToken);
});
afterAll(async () => { await t?.stop(); });

const ROUTE_IDS = Object.keys(ROUTES) as RouteId[];

interface Hostile {
  body?: Buffer | string;
  contentType?: string;
  encoding?: string;
  auth: 'key' | 'admin' | 'none' | 'garbage';
  params: string[];
  query?: string;
}

function deep(n: number, open = '[', close = ']', leaf = '1'): string {
  return open.repeat(n) + leaf + close.repeat(n);
}
const longDottedKey = Array.from({ length: 5_000 }, (_, i) => `k${i}`).join('.');

/** Hand-picked classics of each class the issue names, for every route. */
const CLASSICS: Array<{ name: string; body?: Buffer | string; contentType?: string; encoding?: string }> = [
  { name: 'deep array', body: deep(100_000) },
  { name: 'deep object', body: deep(50_000, '{"a":', '}') },
  { name: 'deep nesting inside spans', body: `{"spans":[{"trace_id":"${'a'.repeat(32)}","span_id":"${'b'.repeat(16)}","attributes":{"x":${deep(20_000)}}}]}` },
  { name: 'thousands of key segments', body: JSON.stringify({ spans: [{ trace_id: 'c'.repeat(32), span_id: 'd'.repeat(16), attributes: { [longDottedKey]: 1 } }] }) },
  { name: 'many keys', body: JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]))) },
  { name: 'huge numbers', body: '{"windowing":{"oldest":1e999999,"newest":-1e308,"limit":123456789012345678901234567890,"interval":1e300},"limit":1e400}' },
  { name: 'huge interval', body: JSON.stringify({ windowing: { oldest: '0001-01-01T00:00:00Z', newest: '9999-12-31T23:59:59Z', interval: 1 }, specs: [{ type: 'numeric/continuous', path: 'attributes.ag.metrics.duration.cumulative' }] }) },
  { name: 'long filter list', body: JSON.stringify({ filtering: { operator: 'and', conditions: Array.from({ length: 50_000 }, (_, i) => ({ field: 'attributes', key: `k${i}`, operator: 'is', value: i })) } }) },
  { name: 'NUL and lone surrogates', body: '{"name":"a\\u0000b","query":{"name":"\\ud800","slug":"x\\u0000"},"spans":[{"trace_id":"\\udc00","span_id":"\\u0000"}]}' },
  { name: 'invalid UTF-8', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]) },
  { name: 'UTF-16 body', body: Buffer.from('\ufeff{"a":1}', 'utf16le'), contentType: 'application/json; charset=utf-16' },
  { name: 'truncated JSON', body: '{"spans":[{"trace_id":"ab' },
  { name: 'wrong content type', body: '<xml/>', contentType: 'application/xml' },
  { name: 'form body', body: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  { name: 'multipart', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--', contentType: 'multipart/form-data; boundary=x' },
  { name: 'gzip bomb', body: gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)), encoding: 'gzip' },
  { name: 'corrupt gzip', body: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3]), encoding: 'gzip' },
  { name: 'unknown encoding', body: '{}', encoding: 'br, zstd, x-custom' },
  { name: 'protobuf garbage', body: Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x00]), contentType: 'application/x-protobuf' },
  { name: 'empty body', body: '' },
  { name: 'null', body: 'null' },
  { name: 'scalar', body: '"just a string"' },
];

/** Date-times the request schemas admit (ISO 8601) but the stores refuse as text: year 0000
 * (Postgres 22008), offsets beyond ±15:59 (Postgres 22009), the ends of the ClickHouse range. */
const EDGE_TIMES = ['0000-01-01T00:00:00Z', '2024-01-01T00:00:00+23:59', '2024-01-01T00:00:00-23:59', '0000-12-31T23:59:59.999999-23:59', '9999-12-31T23:59:59+23:59', '2024-01-01T00:00'];

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', '\u0000', '\ud800', '..', '../..', '%', '%00', '%ff', '%c0%af', ' ', '\u202e', 'null', 'undefined', '__proto__', 'constructor',
    'a'.repeat(10_000), '0'.repeat(400), '-1', '1e999', 'NaN', "'; DROP TABLE users; --", '{{7*7}}', 'ab'.repeat(16), '00000000-0000-0000-0000-000000000000'),
);

const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -Number.MAX_VALUE, 1e308),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('filtering', 'windowing', 'spans', 'traces', 'trace', 'query', 'accounts', 'specs', 'conditions', 'attributes', 'name', 'slug', 'domain', 'settings', 'flags', 'identities', 'email', 'user', 'organization_id', 'role', 'expires_at', 'focus', 'format', 'interval', 'limit', 'oldest', 'newest', 'next')), tie('value'), { maxKeys: 6 }),
  ),
})).value;

const hostileRequest = fc.record({
  route: fc.constantFrom(...ROUTE_IDS),
  params: fc.array(hostileString, { minLength: 3, maxLength: 3 }),
  body: fc.oneof(jsonish.map((v) => JSON.stringify(v) ?? ''), fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a))),
  contentType: fc.constantFrom('application/json', 'application/json', 'application/x-protobuf', 'text/plain', 'application/json; charset=latin1', undefined),
  auth: fc.constantFrom('key', 'key', 'admin', 'none', 'garbage'),
  query: fc.option(fc.dictionary(hostileString, hostileString, { maxKeys: 4 }).map((d) => new URLSearchParams(d as Record<string, string>).toString()), { nil: undefined }),
});

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD); `raw:` params go as they are. */
function encodeParam(s: string): string {
  if (s.startsWith('raw:')) return s.slice(4);
  return [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
}

// Bodies shaped like each route's own, with hostile values in the holes, so generated input gets
// past the first validation and reaches the compilers, projections and stores behind it.
const anyOf = <T>(...xs: fc.Arbitrary<T>[]): fc.Arbitrary<T> => fc.oneof(...xs);
const hv: fc.Arbitrary<unknown> = anyOf<unknown>(hostileString, jsonish, fc.double(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 }));
const ts = anyOf<unknown>(hostileString, fc.integer(), fc.double(), fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom('1e30', -1e30, 0, '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z', ...EDGE_TIMES));
const idHex = (n: number) => anyOf<unknown>(fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`)), hostileString);
const condition = fc.record({
  field: anyOf<unknown>(fc.constantFrom('attributes', 'span_name', 'trace_id', 'span_id', 'start_time', 'end_time', 'status_code', 'span_type', 'references', 'events', 'links', 'hashes', 'session_id'), hostileString),
  key: hv, operator: anyOf<unknown>(fc.constantFrom('is', 'is_not', 'in', 'not_in', 'contains', 'startswith', 'endswith', 'gt', 'lt', 'gte', 'lte', 'btwn', 'exists', 'not_exists', 'matches', 'like'), hostileString),
  value: hv,
}, { requiredKeys: ['field'] });
const windowing = fc.record({ oldest: ts, newest: ts, limit: hv, next: hv, order: hv, interval: hv, rate: hv }, { requiredKeys: [] });
const filtering = fc.record({ operator: anyOf<unknown>(fc.constantFrom('and', 'or', 'not', 'nand', 'nor'), hostileString), conditions: fc.array(anyOf<unknown>(condition, jsonish), { maxLength: 6 }) }, { requiredKeys: [] });
const span = fc.record({
  trace_id: idHex(32), span_id: idHex(16), parent_id: idHex(16), span_name: hv, span_kind: hv, status_code: hv, status_message: hv,
  start_time: ts, end_time: ts, attributes: fc.dictionary(hostileString, hv, { maxKeys: 5 }), events: hv, links: hv, references: hv,
}, { requiredKeys: ['trace_id', 'span_id'] });
const SHAPED: Partial<Record<RouteId, fc.Arbitrary<unknown>>> = {};
for (const id of ['spans.query', 'traces.query', 'tracing.spans.query', 'spans.sessions.query', 'spans.users.query', 'tracing.sessions.query', 'tracing.users.query'] as const) {
  SHAPED[id] = fc.record({ filtering: anyOf<unknown>(filtering, hostileString.map((x) => JSON.stringify({ conditions: [x] }))), windowing, focus: hv, format: hv, query_ref: hv, query_revision_ref: hv }, { requiredKeys: [] });
}
for (const id of ['spans.analytics.query', 'tracing.analytics.query', 'tracing.spans.analytics'] as const) {
  SHAPED[id] = fc.record({ filtering, windowing, specs: fc.array(fc.record({ type: anyOf<unknown>(fc.constantFrom('numeric/continuous', 'numeric/discrete', 'categorical/single', 'categorical/multiple', 'binary', 'string', 'json'), hostileString), path: hv, bins: hv, vmin: hv, vmax: hv }, { requiredKeys: [] }), { maxLength: 4 }) }, { requiredKeys: [] });
}
for (const id of ['tracing.spans.ingest', 'traces.ingest'] as const) SHAPED[id] = fc.record({ spans: fc.array(span, { maxLength: 4 }) });
for (const id of ['traces.create', 'tracing.traces.create', 'traces.edit', 'tracing.traces.edit'] as const) {
  SHAPED[id] = fc.record({ trace: fc.record({ trace_id: idHex(32), spans: fc.dictionary(hostileString, span, { maxKeys: 3 }) }, { requiredKeys: [] }) });
}
SHAPED['simple.traces.create'] = fc.record({ trace: fc.record({ data: fc.dictionary(hostileString, hv, { maxKeys: 3 }), tags: hv, meta: hv, references: hv, links: hv, origin: hv, kind: hv, channel: hv }, { requiredKeys: ['data'] }) });
SHAPED['queries.create'] = fc.record({ query: fc.record({ name: hv, slug: hv, description: hv, filtering, windowing, focus: hv, format: hv }, { requiredKeys: [] }) });
SHAPED['queries.revisions.commit'] = fc.record({ revision: fc.record({ filtering, windowing, message: hv, expected_version: hv }, { requiredKeys: [] }), expected_version: hv });
SHAPED['keys.create'] = fc.record({ name: hv, expires_at: ts, role: hv }, { requiredKeys: [] });
SHAPED['organizations.domains.create'] = fc.record({ domain: hv, name: hv, description: hv }, { requiredKeys: [] });
SHAPED['organizations.domains.verify'] = fc.record({ domain_id: hv, domain: hv }, { requiredKeys: [] });
SHAPED['organizations.providers.create'] = fc.record({ slug: hv, name: hv, description: hv, settings: fc.record({ issuer_url: anyOf<unknown>(fc.webUrl(), hostileString), client_id: hv, client_secret: hv, scopes: hv }, { requiredKeys: [] }), flags: hv }, { requiredKeys: [] });
SHAPED['organizations.providers.update'] = SHAPED['organizations.providers.create'];
for (const id of ['organizations.update', 'organizations.replace'] as const) SHAPED[id] = fc.record({ name: hv, description: hv, flags: fc.dictionary(hostileString, hv, { maxKeys: 4 }), version: hv }, { requiredKeys: [] });
{
  const kinds = anyOf<unknown>(fc.constantFrom('provider_key', 'custom_provider', 'sso_provider', 'webhook_provider', 'custom_secret', 'subscription_provider'), hostileString);
  const provider = fc.record({ key: hv, url: anyOf<unknown>(fc.webUrl(), hostileString), version: hv, extras: fc.dictionary(hostileString, hv, { maxKeys: 3 }), client_id: hv, client_secret: hv, issuer_url: hv, scopes: hv, extra: hv }, { requiredKeys: [] });
  const data = fc.record({ kind: anyOf<unknown>(fc.constantFrom('openai', 'custom', 'bedrock', 'mistralai'), hostileString), provider: anyOf<unknown>(provider, hv), models: fc.array(fc.record({ slug: hv, extras: hv }, { requiredKeys: [] }), { maxLength: 3 }), harnesses: hv, secret: fc.record({ format: anyOf<unknown>(fc.constantFrom('text', 'json'), hv), content: hv }, { requiredKeys: [] }) }, { requiredKeys: [] });
  const body = fc.record({ header: fc.record({ name: hv, description: hv }, { requiredKeys: [] }), secret: fc.record({ kind: kinds, data }, { requiredKeys: [] }), slug: hv, write_only: hv, managed_by: hv }, { requiredKeys: [] });
  for (const id of ['secrets.create', 'secrets.update', 'vault.secrets.create', 'vault.secrets.update'] as const) SHAPED[id] = body;
}
SHAPED['admin.accounts.create'] = fc.record({ accounts: fc.dictionary(hostileString, fc.record({ user: fc.record({ email: hv, name: hv, username: hv }, { requiredKeys: [] }), organization: fc.record({ name: hv, slug: hv }, { requiredKeys: [] }), options: hv }, { requiredKeys: [] }), { maxKeys: 2 }) });
SHAPED['admin.accounts.delete'] = fc.record({ accounts: fc.dictionary(hostileString, fc.record({ user: fc.record({ id: hv, email: hv }, { requiredKeys: [] }) }), { maxKeys: 2 }) });
for (const id of ['admin.memberships.set', 'admin.memberships.remove'] as const) SHAPED[id] = fc.record({ user: fc.record({ id: hv, email: hv }, { requiredKeys: [] }), organization_id: hv, role: hv }, { requiredKeys: [] });
SHAPED['auth.discover'] = fc.record({ email: hv }, { requiredKeys: [] });
SHAPED['auth.session.identities'] = fc.record({ identities: fc.array(hv, { maxLength: 4 }), assertion: hv }, { requiredKeys: [] });
// Only kinds whose target is the body's own URL (or nothing at all): a hosted kind's default
// endpoint is a real provider on the internet, which hostile keys have no business reaching.
SHAPED['providers.probe'] = fc.record({
  kind: anyOf<unknown>(fc.constantFrom('custom', 'azure', 'sagemaker', 'bedrock', 'vertex_ai', 'minimax', 'mistralai ', ''), hostileString, hv),
  provider: fc.record({ key: hv, url: anyOf<unknown>(hostileString, fc.constantFrom('http://10.0.0.1/v1', 'http://localhost/v1', 'https://127.0.0.1:1/v1', 'ftp://x', 'https://u:p@x/')), version: hv, extras: hv }, { requiredKeys: ['url'] }),
}, { requiredKeys: [] });
SHAPED['vault.providers.probe'] = SHAPED['providers.probe'];
// The agent runner's push and failure report: logins of every shape (JWT-like strings included), counters at the edges.
{
  const counter = anyOf<unknown>(fc.integer(), fc.constantFrom(0, -1, 2 ** 53, 1e308, 0.5), hv);
  const jwtLike = fc.tuple(hostileString, hostileString, hostileString).map((p) => p.join('.'));
  const login = fc.record({ access: anyOf<unknown>(jwtLike, hv), refresh: hv, expires: anyOf<unknown>(fc.integer(), fc.boolean(), hv), accountId: hv }, { requiredKeys: [] });
  SHAPED['secrets.subscription_login.push'] = fc.record({ login: anyOf<unknown>(login, hv), version: counter, generation: counter, extra: hv }, { requiredKeys: [] });
  SHAPED['secrets.subscription_login.failure'] = fc.record({ version: counter, generation: counter, reason: hv, login: hv }, { requiredKeys: [] });
}

// Webhooks and the events log. URLs are ones the outbound guard refuses without a DNS lookup (or
// no URL at all): a test delivery is sent at once, and a stored subscription may receive events,
// so hostile input must never reach a host on the network.
{
  const url = anyOf<unknown>(fc.constantFrom('http://10.0.0.1/hook', 'http://localhost/x', 'https://127.0.0.1:1/x', 'https://169.254.169.254/latest', 'ftp://x', 'https://u:p@10.0.0.2/', 'http://[::1]/'), hostileString);
  const eventType = anyOf<unknown>(fc.constantFrom('webhooks.subscriptions.tested', 'traces.queried', 'queries.revisions.committed', 'unknown'), hostileString);
  const template = anyOf<unknown>(fc.constantFrom('$', '$..*', '$.event.attributes', '/event/event_id', '$[', '$["a', '/~2', ''), jsonish, hv);
  const data = fc.record({ url, headers: anyOf<unknown>(fc.dictionary(hostileString, hostileString, { maxKeys: 4 }), hv), payload_fields: template, auth_mode: anyOf<unknown>(fc.constantFrom('signature', 'authorization'), hv), event_types: anyOf<unknown>(fc.array(eventType, { maxLength: 4 }), hv) }, { requiredKeys: ['url'] });
  const fields = { name: hv, description: hv, flags: anyOf<unknown>(fc.record({ is_active: hv }, { requiredKeys: [] }), hv), tags: hv, meta: hv, data: anyOf<unknown>(data, hv), secret: hv };
  const subscription = fc.record({ id: anyOf<unknown>(fc.uuid(), hv), ...fields }, { requiredKeys: [] });
  SHAPED['webhooks.subscriptions.create'] = fc.record({ subscription }, { requiredKeys: [] });
  SHAPED['webhooks.subscriptions.edit'] = SHAPED['webhooks.subscriptions.create'];
  SHAPED['webhooks.subscriptions.test'] = fc.record({ subscription_id: anyOf<unknown>(fc.uuid(), hv), subscription }, { requiredKeys: [] });
  SHAPED['webhooks.subscriptions.query'] = fc.record({ subscription: fc.record({ name: hv, description: hv, tags: hv, flags: hv, meta: hv }, { requiredKeys: [] }), include_archived: hv, windowing }, { requiredKeys: [] });
  const status = fc.record({ timestamp: ts, type: hv, code: hv, message: hv, stacktrace: hv }, { requiredKeys: [] });
  const deliveryData = fc.record({ event_type: eventType, url, headers: hv, payload: hv, response: fc.record({ status_code: hv, body: hv }, { requiredKeys: [] }), error: hv }, { requiredKeys: [] });
  SHAPED['webhooks.deliveries.create'] = fc.record({ delivery: fc.record({ id: anyOf<unknown>(fc.uuid(), hv), status, data: deliveryData, subscription_id: anyOf<unknown>(fc.uuid(), hv), event_id: anyOf<unknown>(fc.uuid(), hv) }, { requiredKeys: [] }) }, { requiredKeys: [] });
  SHAPED['webhooks.deliveries.query'] = fc.record({ delivery: fc.record({ status, subscription_id: anyOf<unknown>(fc.uuid(), hv), event_id: anyOf<unknown>(fc.uuid(), hv) }, { requiredKeys: [] }), include_archived: hv, windowing }, { requiredKeys: [] });
  SHAPED['events.query'] = fc.record({ event: fc.record({ request_type: anyOf<unknown>(fc.constantFrom('unknown', 'router', 'worker'), hv), request_id: anyOf<unknown>(fc.uuid(), hv), event_type: eventType, event_id: anyOf<unknown>(fc.uuid(), hv) }, { requiredKeys: [] }), windowing }, { requiredKeys: [] });
}

const shapedRequest = fc.constantFrom(...(Object.keys(SHAPED) as RouteId[])).chain((route) => fc.record({
  route: fc.constant(route),
  params: fc.array(anyOf<string>(hostileString, fc.stringMatching(/^[0-9a-f]{32}$/), fc.uuid()), { minLength: 3, maxLength: 3 }),
  body: SHAPED[route]!.map((v) => JSON.stringify(v) ?? ''),
  contentType: fc.constant('application/json' as string | undefined),
  auth: fc.constant(route.startsWith('admin.') ? 'admin' as const : 'key' as const),
  query: fc.constant(undefined as string | undefined),
}));

function pathOf(route: RouteId, params: string[]): string {
  let i = 0;
  return ROUTES[route].path.replace(/:[a-z_]+/g, () => encodeParam(params[i++ % params.length] ?? 'x'));
}

async function send(route: RouteId, h: Hostile): Promise<{ status: number; text: string }> {
  const r = ROUTES[route];
  const headers: Record<string, string> = {};
  if (h.auth === 'key') headers.Authorization = `ApiKey ${acc.apiKey}`;
  else if (h.auth === 'admin') headers.Authorization = `Access ${t.adminToken}`;
  else if (h.auth === 'garbage') headers.Authorization = `ApiKey ${'\u00ff'.repeat(3)}${hex(40)}`;
  if (h.contentType) headers['Content-Type'] = h.contentType;
  else if (h.body !== undefined) headers['Content-Type'] = 'application/json';
  if (h.encoding) headers['Content-Encoding'] = h.encoding;
  const hasBody = r.method !== 'GET' && h.body !== undefined;
  const url = `${t.baseUrl}${pathOf(route, h.params)}${h.query ? `?${h.query}` : ''}`;
  const res = await fetch(url, { method: r.method, headers, body: hasBody ? h.body : undefined, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
  return { status: res.status, text: (await res.text()).slice(0, 300) };
}

async function stillHealthy(): Promise<void> {
  const email = `${hex(6)}@test.example.com`;
  const created = await fetch(`${t.baseUrl}/admin/simple/accounts/`, {
    method: 'POST', headers: { Authorization: `Access ${t.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ accounts: { u: { user: { email } } } }),
  });
  expect(created.status).toBe(200);
  const trace_id = hex(16);
  const span_id = hex(8);
  const ingest = await fetch(`${t.baseUrl}/tracing/spans/ingest`, {
    method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ spans: [{ trace_id, span_id, span_name: 'after-hostile' }] }),
  });
  expect(ingest.status).toBe(202);
  const got = await eventually(() => fetch(`${t.baseUrl}/spans/${trace_id}/${span_id}`, { headers: acc.auth }).then((r) => r.json() as Promise<{ count: number }>), (b) => b.count === 1, 30_000);
  expect(got.count).toBe(1);
  expect((await fetch(`${t.baseUrl}/readyz`)).status).toBe(200);
}

type Generated = { route: RouteId; params: string[]; body: Buffer | string; contentType: string | undefined; auth: Hostile['auth']; query: string | undefined };

async function neverA5xx(requests: fc.Arbitrary<Generated>, numRuns: number): Promise<void> {
  await fc.assert(fc.asyncProperty(requests, async (h) => {
    const { status, text } = await send(h.route, h);
    if (status >= 500) throw new Error(`${h.route} answered ${status}: ${text}`);
  }), { numRuns, seed: process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : undefined });
  await stillHealthy();
}

describe('hostile input', () => {
  it('when each classic hostile body is sent to every route, then no answer is a 5xx', async () => {
    const failures: string[] = [];
    for (const route of ROUTE_IDS) {
      if (ROUTES[route].method === 'GET' || ROUTES[route].method === 'DELETE') continue;
      for (const c of CLASSICS) {
        const { status, text } = await send(route, { ...c, auth: route.startsWith('admin.') ? 'admin' : 'key', params: [hex(16), hex(8), 'x'] });
        if (status >= 500) failures.push(`${route} ← ${c.name}: ${status} ${text}`);
      }
    }
    expect(failures.slice(0, 40), `${failures.length} failures`).toEqual([]);
    await stillHealthy();
  }, 600_000);

  it('when the windowing times of a query are ones the stores refuse as text, then it answers 200', async () => {
    const failures: string[] = [];
    for (const route of ['webhooks.deliveries.query', 'events.query', 'webhooks.subscriptions.query'] as const) {
      for (const newest of [...EDGE_TIMES, undefined]) {
        for (const oldest of [...EDGE_TIMES, undefined]) {
          const body = JSON.stringify({ windowing: { ...(newest ? { newest } : {}), ...(oldest ? { oldest } : {}) } });
          const { status, text } = await send(route, { body, auth: 'key', params: [] });
          if (status !== 200) failures.push(`${route} ← ${body}: ${status} ${text}`);
        }
      }
    }
    expect(failures.slice(0, 20), `${failures.length} failures`).toEqual([]);
  }, 120_000);

  it('when fast-check generates hostile paths, queries, bodies and credentials for the whole route table, then no answer is a 5xx', async () => {
    await neverA5xx(hostileRequest, Number(process.env.HOSTILE_RUNS ?? 1500));
  }, 600_000);

  it('when fast-check fills the body shape of each route with hostile values, then no answer is a 5xx', async () => {
    await neverA5xx(shapedRequest, Number(process.env.HOSTILE_SHAPED_RUNS ?? 1500));
  }, 600_000);
});
