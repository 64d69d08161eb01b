// Throttles on the real stack (reference accounts §2.3): per organization and category, from the
// organization's own plan (the free plan's numbers when its plan defines none), 429 with
// Retry-After and X-RateLimit-* (a protobuf Status on OTLP), admin requests never throttled; and
// the deployment-wide limit with two command replicas, each enforcing its share (THROTTLE_REPLICAS=2).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRpcStatus, encodeExportTraceServiceRequest } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
// The local stack's helper: the operating system picks a port nothing listens on.
// @ts-expect-error plain .mjs without types
const { freePort } = (await import('../../deploy/local/ports.mjs')) as { freePort(): Promise<number> };
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
const replicas: ChildProcess[] = [];
const replicaUrls: string[] = [];
const managementUrls: string[] = [];
const hex = (n: number): string => randomBytes(n).toString('hex');

beforeAll(async () => {
  t = await startTestApp();
  // Two command replicas behind a (client-side) round-robin balancer, sharing each throttle.
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const managementPort = await freePort();
    managementUrls.push(`http://127.0.0.1:${managementPort}`);
    replicas.push(spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../services/command/src/main.ts')], {
      env: {
        ...process.env, PORT: String(port), MANAGEMENT_PORT: String(managementPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: t.kafkaBrokers, KAFKA_TOPIC_PREFIX: t.topicPrefix,
        KAFKA_SPANS_PARTITIONS: '3', KAFKA_ACCOUNTS_PARTITIONS: '1', DATABASE_URL: t.databaseUrl, ADMIN_TOKEN: t.adminToken, THROTTLE_REPLICAS: '2', ...t.secrets,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    }));
    replicaUrls.push(`http://127.0.0.1:${port}`);
  }
  await Promise.all(managementUrls.map((u) => eventually(() => fetch(`${u}/readyz`).then((r) => r.status, () => 0), (s) => s === 200, 90_000)));
}, 120_000);
afterAll(async () => {
  for (const r of replicas) r.kill('SIGTERM');
  await t?.stop();
});

/** Sends `n` requests, `parallel` at a time; returns every response. */
async function burst(n: number, parallel: number, send: (i: number) => Promise<Response>): Promise<Response[]> {
  const out: Response[] = [];
  for (let i = 0; i < n; i += parallel) out.push(...await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, (_, k) => send(i + k))));
  return out;
}

const otlpBody = (): Uint8Array => encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: hex(16), spanId: hex(8), name: 's' }] }] }] });

describe('throttles', () => {
  it('given the default plan (no throttles of its own), when an organization bursts 640 standard requests, then the hobby bucket admits about 480 and answers the rest 429 with Retry-After and X-RateLimit-*', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const started = Date.now();
    // 160 over the burst: refills (8 per second) cannot cover them even on a loaded machine.
    const answers = await burst(640, 40, () => fetch(`${t.baseUrl}/billing/usage`, { headers: acc.auth }));
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * 480); // 480 per minute keep coming
    const ok = answers.filter((r) => r.status === 200);
    const denied = answers.filter((r) => r.status === 429);
    expect(ok.length).toBeGreaterThanOrEqual(480);
    expect(ok.length).toBeLessThanOrEqual(480 + refilled);
    expect(ok.length + denied.length).toBe(640);
    expect(ok[0]!.headers.get('x-ratelimit-limit')).toBe('480');
    expect(Number(ok[0]!.headers.get('x-ratelimit-remaining'))).toBeGreaterThanOrEqual(400);
    const d = denied[0]!;
    expect(d.headers.get('x-ratelimit-limit')).toBe('480');
    expect(d.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(d.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await d.json()).toEqual({ detail: expect.stringMatching(/^Rate limit exceeded\. Please retry after \d+ seconds\.$/) });

    // Other categories of the same organization, other organizations and admin requests are not affected.
    const other = await createAccount(t.baseUrl, t.adminToken);
    expect((await fetch(`${t.baseUrl}/billing/usage`, { headers: other.auth })).status).toBe(200);
    const otlp = await fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body: otlpBody() });
    expect(otlp.status).toBe(200);
  });

  it('when an OTLP exporter bursts past tracing_fast (1,200), then the excess gets 429 with a protobuf google.rpc.Status and Retry-After', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const body = otlpBody();
    // 400 over the burst: refills (20 per second) cannot cover them even on a loaded machine.
    const answers = await burst(1600, 40, () => fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body }));
    const denied = answers.filter((r) => r.status === 429);
    expect(denied.length).toBeGreaterThan(0);
    expect(answers.filter((r) => r.status === 200).length + denied.length).toBe(1600);
    const d = denied[0]!;
    expect(d.headers.get('content-type')).toContain('application/x-protobuf');
    expect(Number(d.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(decodeRpcStatus(new Uint8Array(await d.arrayBuffer()))).toMatchObject({ code: 8, message: expect.stringMatching(/^Rate limit exceeded/) });
  });

  it('given tracing_slow drained with POST /tracing/spans/query, when the same query is spelled in another case, under /api or /preview or with a trailing slash, then it is refused from the same bucket (issue 24)', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const query = (p: string): Promise<Response> => fetch(`${t.baseUrl}${p}`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: '{}' });
    // Hobby numbers: 120 at once, then 1 a minute. Drain until the canonical spelling is refused.
    const drained = await burst(130, 10, () => query('/tracing/spans/query'));
    expect(drained.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(120);
    expect(drained.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    const variants = ['/TRACING/spans/query', '/Tracing/Spans/Query/', '/api/tracing/SPANS/query', '/preview/TRACING/spans/query', '/PREVIEW/tracing/sessions/QUERY', '/TRACING/spans/analytics'];
    const answers = await Promise.all(variants.map(async (p) => { const r = await query(p); return { p, status: r.status, limit: r.headers.get('x-ratelimit-limit') }; }));
    // Every spelling is metered in tracing_slow (120), never in standard (480); one token may have refilled meanwhile.
    expect(answers.map((a) => [a.p, a.limit])).toEqual(variants.map((p) => [p, '120']));
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(variants.length - 1);
    expect(answers.filter((a) => a.status !== 429 && a.status !== 200)).toEqual([]);
  });

  it('given two replicas with THROTTLE_REPLICAS=2, when a client spreads a burst over both, then the deployment admits about the plan\'s 480, each replica its 240', async () => {
    const acc: TestAccount = await createAccount(t.baseUrl, t.adminToken);
    const started = Date.now();
    const answers = await burst(600, 40, (i) => fetch(`${replicaUrls[i % 2]}/secrets/`, { headers: acc.auth }));
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * 480);
    const ok = answers.filter((r) => r.status === 200);
    expect(answers.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    expect(ok.length).toBeGreaterThanOrEqual(480);
    expect(ok.length).toBeLessThanOrEqual(480 + refilled + 2); // + the per-replica rounding
    expect(ok[0]!.headers.get('x-ratelimit-limit')).toBe('240');
    // The cost of a per-replica share: a client pinned to one replica gets that replica's half.
    const pinned = await createAccount(t.baseUrl, t.adminToken);
    const one = await burst(300, 30, () => fetch(`${replicaUrls[0]}/secrets/`, { headers: pinned.auth }));
    expect(one.filter((r) => r.status === 200).length).toBeLessThan(300);
    expect(one.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(240);
  });
});
