// Prometheus metrics of a running all-in-one (issue 16): after some OTLP ingest and a query,
// /metrics answers in the text format with request-duration histograms labelled by route id (never
// a raw URL), the span projector's lag per partition read from the broker, projector batch figures,
// read-model query durations and process metrics; and every metric the Grafana dashboard in
// deploy/observability uses is one this process exports.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPANS_PROJECTOR_GROUP } from '@llm/events';
import { encodeExportTraceServiceRequest, type OtlpSpanInput } from '@llm/otlp';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let acc: TestAccount;
let metrics: string;
let contentType: string | null;

/** The value of one exact series line (`name{labels} value`), undefined when absent. */
const series = (text: string, name: string, labels: Record<string, string>): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

async function ingest(traces: number): Promise<string[]> {
  const spans: OtlpSpanInput[] = [];
  const ids: string[] = [];
  const now = BigInt(Date.now()) * 1_000_000n;
  for (let i = 0; i < traces; i++) {
    const traceId = randomBytes(16);
    ids.push(traceId.toString('hex'));
    spans.push({ traceId, spanId: randomBytes(8), name: 'metrics test', kind: 1, startTimeUnixNano: now, endTimeUnixNano: now + 1_000_000n, attributes: { 'metrics.test': 'yes' } });
  }
  const r = await fetch(`${t.baseUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body: encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }) });
  expect(r.status).toBe(200);
  return ids;
}

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
  const ids = [...await ingest(5), ...await ingest(5)];
  // Reads drive the query side (ClickHouse through the read model, Postgres for the key).
  await eventually(async () => {
    const r = await fetch(`${t.baseUrl}/traces/?trace_ids=${ids.join(',')}`, { headers: acc.auth });
    return ((await r.json()) as { traces?: unknown[] }).traces?.length ?? 0;
  }, (n) => n === ids.length);
  // A saved-query listing reads Postgres on the query side.
  const saved = await fetch(`${t.baseUrl}/queries/query`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: '{}' });
  expect(saved.status).toBe(200);
  // The lag read is cached for a few seconds: wait for figures taken after the projector committed.
  const spansTopic = `${t.topicPrefix}tracing.spans.v1`;
  const res = await eventually(async () => {
    const r = await fetch(`${t.managementUrl}/metrics`);
    return { text: await r.text(), type: r.headers.get('content-type') };
  }, ({ text }) => [0, 1, 2].every((p) => series(text, 'kafka_consumer_group_lag', { group: SPANS_PROJECTOR_GROUP, topic: spansTopic, partition: String(p) }) === 0), 30_000);
  metrics = res.text;
  contentType = res.type;
}, 180_000);

afterAll(async () => { await t?.stop(); });

describe('the operations endpoints', () => {
  it('when /metrics, /healthz or /readyz is asked on the API port, then it is 404; they answer on the management port, and /health stays on the API port', async () => {
    for (const path of ['/metrics', '/healthz', '/readyz', '/api/metrics']) {
      expect((await fetch(`${t.baseUrl}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${t.managementUrl}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${t.managementUrl}/readyz`)).json()).toEqual({ status: 'ready' });
    expect((await fetch(`${t.managementUrl}/traces/`, { headers: acc.auth })).status).toBe(404);
    const health = await fetch(`${t.baseUrl}/api/health`);
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

describe('/metrics', () => {
  it('then it answers in the Prometheus text format', () => {
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(metrics).toMatch(/^# HELP /m);
  });

  it('after ingest and a query, then request durations are histograms per route id and status, never per URL', () => {
    expect(series(metrics, 'http_request_duration_seconds_count', { route: 'otlp.traces.export', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(2);
    expect(series(metrics, 'http_request_duration_seconds_bucket', { route: 'traces.list', status: '200', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    const routes = new Set([...metrics.matchAll(/^http_request_duration_seconds_count\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]!));
    for (const r of routes) expect(r, `route label ${r}`).toMatch(/^(unmatched|\/healthz|\/readyz|\/metrics|[a-z_]+(\.[a-z_]+)+)$/);
  });

  it('then the span projector group has its lag per partition of the spans topic, read from the broker', () => {
    const spansTopic = `${t.topicPrefix}tracing.spans.v1`;
    for (const p of [0, 1, 2]) expect(series(metrics, 'kafka_consumer_group_lag', { group: SPANS_PROJECTOR_GROUP, topic: spansTopic, partition: String(p) })).toBe(0);
    expect(series(metrics, 'kafka_consumer_group_lag_observed_timestamp_seconds', { group: SPANS_PROJECTOR_GROUP })).toBeGreaterThan(Date.now() / 1000 - 120);
  });

  it('then spans accepted, projector batches, read-model queries and process metrics are there', () => {
    expect(Number(/^spans_accepted_total (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(10);
    expect(series(metrics, 'projector_batch_records_sum', { group: SPANS_PROJECTOR_GROUP })).toBeGreaterThanOrEqual(2);
    expect(series(metrics, 'projector_batch_write_duration_seconds_count', { group: SPANS_PROJECTOR_GROUP })).toBeGreaterThanOrEqual(1);
    expect(series(metrics, 'read_model_query_duration_seconds_count', { store: 'clickhouse', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(series(metrics, 'read_model_query_duration_seconds_count', { store: 'postgres', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    for (const name of ['kafka_producer_queued_records', 'kafka_producer_queued_bytes', 'kafka_dead_letters_total', 'ingest_spans_refused_total']) expect(metrics).toContain(`# TYPE ${name} `);
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(metrics).toMatch(new RegExp(`^${name} \\d`, 'm'));
    }
  });

  it('then every metric the Grafana dashboard queries is one this process exports', () => {
    const dashboard = JSON.parse(readFileSync(new URL('../../deploy/observability/grafana-dashboard.json', import.meta.url), 'utf8')) as { panels: Array<{ targets?: Array<{ expr: string }> }> };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((x) => x.expr));
    expect(exprs.length).toBeGreaterThan(10);
    const used = new Set(exprs.flatMap(metricNamesOf));
    const exported = new Set([...metrics.matchAll(/^# TYPE (\S+) (\S+)/gm)].flatMap((m) => (m[2] === 'histogram' ? [`${m[1]}_bucket`, `${m[1]}_sum`, `${m[1]}_count`] : [m[1]!])));
    const missing = [...used].filter((n) => !exported.has(n));
    expect(missing).toEqual([]);
    for (const n of ['spans_accepted_total', 'ingest_spans_refused_total', 'http_request_duration_seconds_bucket', 'kafka_consumer_group_lag', 'projector_batch_records_bucket', 'projector_batch_write_duration_seconds_bucket', 'kafka_dead_letters_total', 'read_model_query_duration_seconds_bucket', 'process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(used, n).toContain(n);
    }
  });
});

const PROMQL_WORDS = new Set(['sum', 'max', 'min', 'avg', 'count', 'rate', 'irate', 'increase', 'histogram_quantile', 'by', 'without', 'time', 'on', 'ignoring', 'and', 'or', 'unless', 'offset']);

/** The metric names of a PromQL expression: identifiers outside label matchers, groupings, ranges and strings. */
function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
}
