// npm run bench:ingest [-- --seconds 60 --rate 30000 --connections 8 --client kafkajs|platformatic]
//
// Starts its own stack (local Kafka + Postgres, the all-in-one server as a child process with the
// embedded ClickHouse), creates an account, then drives OTLP/HTTP protobuf requests of 100 realistic
// LLM spans (1–2 KB each) over keep-alive connections at a target rate (open loop; bodies are
// pre-encoded and only their trace ids are rewritten, so the generator stays cheap and every span is
// unique). Prints accepted spans/s, visible spans/s, accept latency, accept-to-visible lag (probe
// traces polled through the API), the server's peak RSS, and raw protobufjs decode spans/s.
// `--enforcement on` (default) runs the account on a plan with a traces quota it never reaches and
// throttles it never meets, so every request pays the admission reservation and the throttle check;
// `--enforcement off` runs with ACCESS_ENFORCEMENT=false: run both to see what the checks cost.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import protobuf from 'protobufjs';
import { DEFAULT_KAFKA_CLIENT } from '@llm/kafka';
import { encodeExportTraceServiceRequest, type OtlpSpanInput } from '@llm/otlp';
import { testSecretsEnv } from '@llm/testing/secrets';

const { values: opt } = parseArgs({ options: {
  seconds: { type: 'string', default: '60' },
  rate: { type: 'string', default: '30000' },
  connections: { type: 'string', default: '8' },
  client: { type: 'string', default: DEFAULT_KAFKA_CLIENT },
  profile: { type: 'boolean', default: false },
  replay: { type: 'boolean', default: false },
  enforcement: { type: 'string', default: 'on' },
} });
if (!['on', 'off'].includes(opt.enforcement)) throw new Error('--enforcement is on or off');
// A metered plan: a limit far above the run (each request reserves on the admission counter) and
// throttles far above the rate (each request is checked against its buckets).
const BENCH_PLANS = JSON.stringify({
  bench_metered: {
    counters: { traces_ingested: { limit: 1_000_000_000_000, strict: false, period: 'monthly' } },
    throttles: [{ bucket: { capacity: 10_000_000, rate: 10_000_000 }, mode: 'include', categories: ['tracing_fast'] }, { bucket: { capacity: 10_000_000, rate: 10_000_000 }, mode: 'include', categories: ['standard'] }],
  },
});
const enforcementEnv = opt.enforcement === 'on'
  ? { ACCESS_PLANS: BENCH_PLANS, ACCESS_DEFAULT_PLAN: 'bench_metered' }
  : { ACCESS_ENFORCEMENT: 'false' };
const SECONDS = Number(opt.seconds);
const RATE = Number(opt.rate);
const CONNS = Number(opt.connections);
const SPANS_PER_REQ = 100;
const SPANS_PER_TRACE = 5;
const root = path.resolve(import.meta.dirname, '../..');

// ---------- stack ----------
// @ts-expect-error plain .mjs without types
const { startKafka } = await import('../../deploy/local/kafka.mjs');
// @ts-expect-error plain .mjs without types
const { startPostgres } = await import('../../deploy/local/postgres.mjs');
// @ts-expect-error plain .mjs without types
const { freePort, waitForPort } = await import('../../deploy/local/ports.mjs');
mkdirSync(path.join(root, '.data'), { recursive: true });
const dir = mkdtempSync(path.join(root, '.data', 'bench-'));
const [kafka, pg] = await Promise.all([
  startKafka({ dataDir: path.join(dir, 'kafka'), port: await freePort(), controllerPort: await freePort(), log: () => undefined, heap: '1g' }),
  startPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), log: () => undefined }),
]);
const port = await freePort();
const adminToken = randomBytes(16).toString('hex');
const server = spawn(process.execPath, [...(process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64').split(' ').filter(Boolean), '--import', 'tsx', ...(opt.profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), path.join(root, 'services/all-in-one/src/main.ts')], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: kafka.brokers, DATABASE_URL: pg.url, CLICKHOUSE_DATA_DIR: path.join(dir, 'ch'), ADMIN_TOKEN: adminToken, KAFKA_CLIENT: opt.client, ...enforcementEnv, ...testSecretsEnv() },
  stdio: ['ignore', 'inherit', 'inherit'],
});
await waitForPort(port, { timeoutMs: 60_000, name: 'server' });
const base = `http://127.0.0.1:${port}`;
let peakRss = 0;
const rssTimer = setInterval(() => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
    if (m) peakRss = Math.max(peakRss, Number(m[1]) * 1024);
  } catch { /* exited */ }
}, 250);

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch { return NaN; }
}

async function shutdown(): Promise<void> {
  clearInterval(rssTimer);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await Promise.all([kafka.stop(), pg.stop()]);
  if (!opt.profile) rmSync(dir, { recursive: true, force: true });
  else console.log(`cpu profile in ${dir}`);
}

process.on('uncaughtException', (err) => { console.error(err); void shutdown().finally(() => process.exit(1)); });
process.on('unhandledRejection', (err) => { console.error(err); void shutdown().finally(() => process.exit(1)); });

const acc = await fetch(`${base}/admin/simple/accounts/`, {
  method: 'POST', headers: { Authorization: `Access ${adminToken}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ accounts: { bench: { user: { email: `bench-${Date.now()}@example.com` } } } }),
}).then((r) => r.json() as Promise<{ accounts: { bench: { api_keys: { key: string } } } }>);
const auth = `ApiKey ${acc.accounts.bench.api_keys.key}`;

// ---------- bodies ----------
const TRACE_MARK = 0xab;
function templateBody(variant: number): { body: Buffer; traceOffsets: number[][] } {
  const spans: OtlpSpanInput[] = [];
  const traces = SPANS_PER_REQ / SPANS_PER_TRACE;
  const now = BigInt(Date.now()) * 1_000_000n;
  for (let t = 0; t < traces; t++) {
    // Marker trace ids (0xab, t, variant…) are found in the encoded bytes and rewritten per request.
    const traceId = Buffer.alloc(16, TRACE_MARK); traceId[1] = t; traceId[2] = variant;
    const rootId = randomBytes(8);
    const prompt = JSON.stringify([{ role: 'system', parts: [{ type: 'text', content: 'You are a helpful assistant that answers questions about geography. Answer briefly, cite one reliable source, and never invent facts you cannot support.' }] }, { role: 'user', parts: [{ type: 'text', content: `What is the capital of country number ${t}? Please answer in one sentence and cite a source. If several cities share the role, name the seat of government.` }] }]);
    const answer = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'The capital is Paris, which has been the seat of government since the 10th century, apart from short periods during wars (source: Encyclopaedia Britannica, entry on Paris).' }], finish_reason: 'stop' }]);
    spans.push({ traceId, spanId: rootId, name: 'invoke_agent geo', kind: 2, startTimeUnixNano: now, endTimeUnixNano: now + 900_000_000n,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'geo', 'session.id': `s-${t % 50}`, 'user.id': `u-${t % 200}`, 'service.version': '1.4.2' } });
    for (let i = 1; i < SPANS_PER_TRACE; i++) {
      spans.push({ traceId, spanId: randomBytes(8), parentSpanId: rootId, name: `chat gpt-4o-mini ${i}`, kind: 3,
        startTimeUnixNano: now + BigInt(i) * 100_000_000n, endTimeUnixNano: now + BigInt(i) * 100_000_000n + 80_000_000n,
        attributes: {
          'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.request.temperature': { double: 0.2 }, 'gen_ai.request.max_tokens': 512, 'gen_ai.usage.input_tokens': 120 + i, 'gen_ai.usage.output_tokens': 40 + i,
          'gen_ai.response.finish_reasons': ['stop'], 'gen_ai.input.messages': prompt, 'gen_ai.output.messages': answer, 'server.address': 'api.openai.com',
        },
        status: { code: 1 } });
    }
  }
  const body = Buffer.from(encodeExportTraceServiceRequest({ resourceSpans: [{ resource: { attributes: { 'service.name': 'bench' } }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] }));
  const traceOffsets: number[][] = Array.from({ length: traces }, () => []);
  for (let i = 0; i + 16 <= body.length; i++) {
    if (body[i] === TRACE_MARK && body[i + 3] === TRACE_MARK && body[i + 15] === TRACE_MARK && body[i + 2] === variant && body.subarray(i + 3, i + 16).every((b) => b === TRACE_MARK)) {
      traceOffsets[body[i + 1]!]!.push(i);
    }
  }
  return { body, traceOffsets };
}
const templates = Array.from({ length: 8 }, (_, v) => templateBody(v));
const avgSpanBytes = templates[0]!.body.length / SPANS_PER_REQ;

// ---------- raw protobufjs decode on the same bodies ----------
const protoDir = path.join(root, 'packages/otlp/proto');
const otlpRoot = new protobuf.Root();
otlpRoot.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(protoDir, target));
otlpRoot.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto', { keepCase: true });
const Req = otlpRoot.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
let decoded = 0;
const d0 = performance.now();
while (performance.now() - d0 < 2000) { for (const t of templates) { Req.decode(t.body); decoded += SPANS_PER_REQ; } }
const protobufjsRate = decoded / ((performance.now() - d0) / 1000);

// ---------- load ----------
let seq = 1;
const acceptLat: number[] = [];
const probes = new Map<string, number>(); // trace id → accept time
const lags: number[] = [];
let acceptedSpans = 0;
let failed = 0;
/** Requests the server refused as overload (503/429 with Retry-After): the explicit answer to excess. */
let refused = 0;
let refusedWithoutRetryAfter = 0;
function nextBody(): { body: Buffer; probe: string } {
  const t = templates[seq % templates.length]!;
  const body = Buffer.from(t.body);
  let probe = '';
  t.traceOffsets.forEach((offs, i) => {
    const id = Buffer.alloc(16);
    id.writeUInt32BE(0xbe4c0000 + (process.pid & 0xffff), 0);
    id.writeBigUInt64BE(BigInt(seq) * 64n + BigInt(i), 8);
    for (const o of offs) id.copy(body, o);
    if (i === 0) probe = id.toString('hex');
  });
  seq++;
  return { body, probe };
}

async function send(): Promise<void> {
  const { body, probe } = nextBody();
  const t0 = performance.now();
  const r = await fetch(`${base}/otlp/v1/traces`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/x-protobuf' }, body });
  await r.arrayBuffer();
  const t1 = performance.now();
  if (r.status === 503 || r.status === 429) { refused++; if (!r.headers.get('retry-after')) refusedWithoutRetryAfter++; return; }
  if (r.status !== 200) { failed++; return; }
  acceptLat.push(t1 - t0);
  acceptedSpans += SPANS_PER_REQ;
  // Every fifth request carries a probe: few enough that the read queries measuring visibility
  // keep up under load (otherwise the poller's own backlog is what gets measured).
  if (seq % 5 === 0) probes.set(probe, t1);
}

let polling = true;
async function pollVisibility(): Promise<void> {
  while (polling || probes.size) {
    const ids = [...probes.keys()].slice(0, 60);
    if (ids.length) {
      const r = await fetch(`${base}/traces/?trace_ids=${ids.join(',')}`, { headers: { Authorization: auth } }).then((x) => x.json() as Promise<{ traces: Array<{ trace_id: string; spans: Record<string, { spans?: Record<string, unknown> }> }> }>);
      const now = performance.now();
      for (const t of r.traces ?? []) {
        const at = probes.get(t.trace_id);
        const rootNode = Object.values(t.spans)[0];
        if (at !== undefined && rootNode && Object.keys(rootNode.spans ?? {}).length === SPANS_PER_TRACE - 1) { lags.push(now - at); probes.delete(t.trace_id); }
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function metric(name: string): Promise<number> {
  const text = await fetch(`${base}/metrics`).then((r) => r.text());
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

console.log(`bench: ${SECONDS}s at ${RATE} spans/s target, ${CONNS} connections, ${SPANS_PER_REQ} spans/request, ~${Math.round(avgSpanBytes)} B/span, kafka client ${opt.client}`);
const poller = pollVisibility();
const cpu0 = { server: cpuSeconds(server.pid), kafka: cpuSeconds(kafka.pid), bench: process.cpuUsage() };
const start = performance.now();
const written0 = await metric('projector_span_rows_written_total');
const visibleSamples: Array<{ t: number; n: number }> = [];
const lagSamples: number[] = [];
// Acknowledged spans over time: with the rows written over time, the time each acknowledged span
// waited to be written (a second lag measure, from counters, that needs no read queries).
const ackSamples: Array<{ t: number; n: number }> = [];
const sampler = setInterval(() => {
  ackSamples.push({ t: performance.now(), n: acceptedSpans });
  void metric('projector_span_rows_written_total').then((n) => visibleSamples.push({ t: performance.now(), n: n - written0 }));
  void metric('ingest_projector_lag_ms').then((ms) => lagSamples.push(ms));
}, 1000);
const interval = (SPANS_PER_REQ / RATE) * 1000;
const inflight = new Set<Promise<void>>();
let nextAt = start;
while (performance.now() - start < SECONDS * 1000) {
  if (inflight.size >= CONNS * 4) { await Promise.race(inflight); continue; }
  const now = performance.now();
  if (now < nextAt) { await new Promise((r) => setTimeout(r, Math.max(0, nextAt - now))); continue; }
  nextAt += interval;
  const p = send().catch(() => { failed++; }).finally(() => inflight.delete(p));
  inflight.add(p);
}
await Promise.all(inflight);
const acceptEnd = performance.now();
const benchCpu = process.cpuUsage(cpu0.bench);
const cpu = { server: cpuSeconds(server.pid) - cpu0.server, kafka: cpuSeconds(kafka.pid) - cpu0.kafka, bench: (benchCpu.user + benchCpu.system) / 1e6 };
const loadSecs = (acceptEnd - start) / 1000;
console.log(`  load done: ${Math.round(acceptedSpans / loadSecs)} spans/s accepted; server CPU ${(cpu.server / loadSecs * 100).toFixed(0)}%, ${(cpu.server * 1e6 / acceptedSpans).toFixed(0)} µs/span; draining …`);
// Drain: wait until every accepted span is visible (bounded).
const expected = acceptedSpans;
const drainDeadline = performance.now() + Number(process.env.BENCH_DRAIN_MS ?? 120_000);
while ((await metric('projector_span_rows_written_total')) - written0 < expected && performance.now() < drainDeadline) await new Promise((r) => setTimeout(r, 250));
const visibleEnd = performance.now();
clearInterval(sampler);
polling = false;
const pollDeadline = setTimeout(() => probes.clear(), 30_000);
await poller;
clearTimeout(pollDeadline);
const written = (await metric('projector_span_rows_written_total')) - written0;

const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN; };
const counterLags = ackSamples.filter((a) => a.n > 0 && a.t <= acceptEnd).map((a) => {
  const seen = visibleSamples.find((v) => v.n >= a.n && v.t >= a.t);
  return seen ? seen.t - a.t : visibleEnd - a.t;
});
const steady = visibleSamples.filter((s) => s.t - start > 5_000 && s.t <= acceptEnd);
const steadyRate = steady.length > 1 ? (steady[steady.length - 1]!.n - steady[0]!.n) / ((steady[steady.length - 1]!.t - steady[0]!.t) / 1000) : NaN;
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
console.log(`
  offered                 ${fmt(RATE)} spans/s; refused ${fmt(refused)} requests (${fmt(refused * SPANS_PER_REQ)} spans) with 503/429${refusedWithoutRetryAfter ? `, ${refusedWithoutRetryAfter} without Retry-After` : ' + Retry-After'}
  accepted spans/s        ${fmt(acceptedSpans / ((acceptEnd - start) / 1000))}   (${fmt(acceptedSpans)} spans, ${failed} failed requests)
  acknowledged vs visible ${fmt(acceptedSpans)} acknowledged, ${fmt(written)} rows written (${written === acceptedSpans ? 'equal' : `differ by ${fmt(written - acceptedSpans)}`})
  visible spans/s         ${fmt(written / ((visibleEnd - start) / 1000))} overall, ${fmt(steadyRate)} steady (rows written while loading)
  accept latency          p50 ${pct(acceptLat, 50).toFixed(1)} ms   p99 ${pct(acceptLat, 99).toFixed(1)} ms
  accept→visible lag      p50 ${pct(lags, 50).toFixed(0)} ms   p99 ${pct(lags, 99).toFixed(0)} ms   (${lags.length} probe traces)
  ack→written lag         p50 ${pct(counterLags, 50).toFixed(0)} ms   p99 ${pct(counterLags, 99).toFixed(0)} ms   (from the counters, each second; resolution 1 s)
  admission's lag view    p50 ${pct(lagSamples, 50).toFixed(0)} ms   max ${Math.max(0, ...lagSamples).toFixed(0)} ms   (projector group's offsets on the broker, sampled each second)
  server peak RSS         ${(peakRss / 1024 / 1024).toFixed(0)} MiB
  CPU while loading       server ${(cpu.server / loadSecs * 100).toFixed(0)}%  kafka ${(cpu.kafka / loadSecs * 100).toFixed(0)}%  generator ${(cpu.bench / loadSecs * 100).toFixed(0)}%  (of 200% on 2 cores); server ${(cpu.server * 1e6 / acceptedSpans).toFixed(0)} µs CPU per span
  protobufjs decode       ${fmt(protobufjsRate)} spans/s (same bodies, reflection decode, one core) = ${(1e6 / protobufjsRate).toFixed(1)} µs/span
  target 1 (throughput)   visible steady / raw decode = ${(steadyRate / protobufjsRate).toFixed(3)} (target ≥ 0.15, with accept→visible p99 ≤ 2 s)
  target 2 (cost)         server CPU per visible span / raw decode per span = ${((cpu.server * 1e6 / Math.max(1, written)) / (1e6 / protobufjsRate)).toFixed(1)}× (target ≤ 8×)
  mode                    all-in-one (command, projectors and embedded ClickHouse in one process; Kafka and Postgres beside it)
  enforcement             ${opt.enforcement === 'on' ? 'on (quota reservation + throttle check per request)' : 'off (ACCESS_ENFORCEMENT=false)'}
`);
if (opt.replay) {
  // Projector throughput alone: rebuild the span table from everything the run produced.
  const c0 = cpuSeconds(server.pid);
  const r0 = performance.now();
  const res = await fetch(`${base}/admin/replay/spans`, { method: 'POST', headers: { Authorization: `Access ${adminToken}` } });
  const lines = (await res.text()).trim().split('\n');
  const secs = (performance.now() - r0) / 1000;
  const last = JSON.parse(lines[lines.length - 1]!) as { result?: { records: number; rows: number }; error?: string };
  const rows = last.result?.rows ?? 0;
  console.log(`  replay                  ${fmt(rows / secs)} spans/s (${fmt(rows)} spans in ${secs.toFixed(1)} s), server ${((cpuSeconds(server.pid) - c0) * 1e6 / rows).toFixed(0)} µs CPU per span${last.error ? ` ERROR ${last.error}` : ''}`);
}
await shutdown();
process.exit(0);
