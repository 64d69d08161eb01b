// npm run bench:ingest [-- --warmup 60 --seconds 60 --idle 60 --overload 10 --connections 8 --client kafkajs|platformatic]
//
// Starts its own stack (local Kafka + Postgres, the all-in-one server as a child process with the
// embedded ClickHouse, admission on its defaults), creates an account, then measures, in one run:
//  1. idle: the started stack with no traffic, CPU per process over `--idle` seconds (after 20 s of
//     settling);
//  2. capacity: a closed loop that keeps about a second of spans waiting for the span projector
//     (so it never idles and the admission never needs to act): visible spans/s steady over
//     `--seconds` after `--warmup`, ack→written lag, and the CPU cost table (cpu-cost-table.ts) per
//     process and thread class, in µs per visible span, closed against the machine's own counters;
//  3. overload: an open loop offering `--overload` × the capacity just measured (0 skips it), with
//     the admission defaults: goodput (visible spans/s steady), refusals, ack→written lag, the
//     server's error log lines, and after a drain that visible = acknowledged exactly;
//  4. with `--replay`: a rebuild of the span table from the topic, spans/s.
// Requests are OTLP/HTTP protobuf of 100 realistic LLM spans (1–2 KB each) over keep-alive
// connections; bodies are pre-encoded and only their trace ids are rewritten, so the generator stays
// cheap (its CPU is reported apart) and every span is unique. Raw protobufjs decode of the same
// bodies is the yardstick of the ratios.
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
import { costTable, formatCostTable, jvmThreadClass, processTree, serverThreadClass, snapshot, type Watched } from './cpu-cost-table.ts';

// The figures are Node 24's (the project's default line; its threads carry names the cost table
// reads): on an older node this re-runs the bench on the one npm start / npm test fetch.
// @ts-expect-error plain .mjs without types
const { ensureSupportedNode } = await import('../../deploy/bin/node-runtime.mjs');
await ensureSupportedNode();

const { values: opt } = parseArgs({ options: {
  seconds: { type: 'string', default: '60' },
  warmup: { type: 'string', default: '60' },
  idle: { type: 'string', default: '60' },
  overload: { type: 'string', default: '10' },
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
const WARMUP = Number(opt.warmup);
const IDLE = Number(opt.idle);
const OVERLOAD = Number(opt.overload);
const CONNS = Number(opt.connections);
const SPANS_PER_REQ = 100;
const SPANS_PER_TRACE = 5;
const root = path.resolve(import.meta.dirname, '../..');

// ---------- stack ----------
// @ts-expect-error plain .mjs without types
const { startKafka, kafkaJvmFlags } = await import('../../deploy/local/kafka.mjs');
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
// /metrics is on the operations listener (MANAGEMENT_PORT), not the API port.
const managementPort = await freePort();
const adminToken = randomBytes(16).toString('hex');
const server = spawn(process.execPath, [...(process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64').split(' ').filter(Boolean), '--import', 'tsx', ...(opt.profile ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []), path.join(root, 'services/all-in-one/src/main.ts')], {
  env: { ...process.env, PORT: String(port), MANAGEMENT_PORT: String(managementPort), OTLP_HTTP_PORT: '0', OTLP_GRPC_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: kafka.brokers, DATABASE_URL: pg.url, CLICKHOUSE_DATA_DIR: path.join(dir, 'ch'), ADMIN_TOKEN: adminToken, KAFKA_CLIENT: opt.client, ...enforcementEnv, ...testSecretsEnv() },
  stdio: ['ignore', 'pipe', 'pipe'],
});
// The server's log: pino JSON lines at LOG_LEVEL=warn. Error lines (level ≥ 50) are counted per
// phase and a few are kept as a sample: a refusal must never be one.
const serverLog = { lines: 0, errors: 0, sample: [] as string[] };
for (const stream of [server.stdout!, server.stderr!]) {
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString('utf8');
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      serverLog.lines++;
      const level = Number(/"level":(\d+)/.exec(line)?.[1] ?? 0);
      if (level >= 50 || !line.startsWith('{')) { serverLog.errors++; if (serverLog.sample.length < 5) serverLog.sample.push(line.slice(0, 300)); }
    }
  });
}
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
// What the cost table watches: the server by thread class, the broker's JVM by thread class, and
// Postgres (the postmaster and its backends, found by the data directory on their command line).
const watched: Watched[] = [
  { name: 'server (all-in-one node)', pids: () => [server.pid!], classify: serverThreadClass },
  { name: 'kafka (broker JVM)', pids: () => [kafka.pid as number], classify: jvmThreadClass },
  { name: 'postgres', pids: () => processTree(path.join(dir, 'pg')) },
];
const generatorSeconds = (): number => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

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
// Span times are written relative to this base and moved to the send time of each request (their
// fixed64 fields are found in the encoded bytes): a run's spans spread over its minutes as real
// traffic does, so reads by trace id touch recent time ranges, not one second holding every span.
const TIME_BASE = 1_600_000_000_123_456_789n;
function templateBody(variant: number): { body: Buffer; traceOffsets: number[][]; timeOffsets: Array<{ at: number; delta: bigint }> } {
  const spans: OtlpSpanInput[] = [];
  const traces = SPANS_PER_REQ / SPANS_PER_TRACE;
  const now = TIME_BASE;
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
  const deltas = new Set<bigint>([0n, 900_000_000n]);
  for (let i = 1; i < SPANS_PER_TRACE; i++) { deltas.add(BigInt(i) * 100_000_000n); deltas.add(BigInt(i) * 100_000_000n + 80_000_000n); }
  const timeOffsets: Array<{ at: number; delta: bigint }> = [];
  for (let i = 0; i + 8 <= body.length; i++) {
    const v = body.readBigUInt64LE(i) - TIME_BASE;
    if (deltas.has(v)) { timeOffsets.push({ at: i, delta: v }); i += 7; }
  }
  if (timeOffsets.length !== SPANS_PER_REQ * 2) throw new Error(`found ${timeOffsets.length} span times in the template, expected ${SPANS_PER_REQ * 2}`);
  return { body, traceOffsets, timeOffsets };
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
const probes = new Map<string, number>(); // trace id → accept time
interface PhaseStats { acceptLat: number[]; lags: number[]; accepted: number; failed: number; refused: number; refusedWithoutRetryAfter: number }
const newStats = (): PhaseStats => ({ acceptLat: [], lags: [], accepted: 0, failed: 0, refused: 0, refusedWithoutRetryAfter: 0 });
let stats = newStats();
let acceptedSpans = 0;
function nextBody(): { body: Buffer; probe: string } {
  const t = templates[seq % templates.length]!;
  const body = Buffer.from(t.body);
  const base = BigInt(Date.now()) * 1_000_000n;
  for (const { at, delta } of t.timeOffsets) body.writeBigUInt64LE(base + delta, at);
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

/** Sends one request; false when it was refused (503/429). */
async function send(): Promise<boolean> {
  const { body, probe } = nextBody();
  const t0 = performance.now();
  const r = await fetch(`${base}/otlp/v1/traces`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/x-protobuf' }, body });
  await r.arrayBuffer();
  const t1 = performance.now();
  if (r.status === 503 || r.status === 429) { stats.refused++; if (!r.headers.get('retry-after')) stats.refusedWithoutRetryAfter++; return false; }
  if (r.status !== 200) { stats.failed++; return true; }
  stats.acceptLat.push(t1 - t0);
  stats.accepted += SPANS_PER_REQ;
  acceptedSpans += SPANS_PER_REQ;
  // One request in twenty carries a probe read back through the API (accept→visible as a client
  // sees it); few enough that the reads stay a small part of the cost table.
  if (seq % 20 === 0) probes.set(probe, t1);
  return true;
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
        if (at !== undefined && rootNode && Object.keys(rootNode.spans ?? {}).length === SPANS_PER_TRACE - 1) { stats.lags.push(now - at); probes.delete(t.trace_id); }
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function metric(name: string): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${managementPort}/metrics`).then((r) => r.text());
  return Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
}

// Rows written and spans acknowledged over time (every 250 ms): the time each acknowledged span
// waited to be written, from counters, with no read queries.
const written0 = await metric('projector_span_rows_written_total');
let written = 0;
const writtenSamples: Array<{ t: number; n: number }> = [];
const ackSamples: Array<{ t: number; n: number }> = [];
const lagView: Array<{ t: number; ms: number }> = [];
// Started after the idle phase: polling /metrics is work for the server.
let sampler: NodeJS.Timeout | undefined;
let lagSampler: NodeJS.Timeout | undefined;
const startSampling = (): void => { sampler = setInterval(() => {
  ackSamples.push({ t: performance.now(), n: acceptedSpans });
  void metric('projector_span_rows_written_total').then((n) => { written = n - written0; writtenSamples.push({ t: performance.now(), n: written }); });
}, 250);
lagSampler = setInterval(() => { void metric('ingest_projector_lag_ms').then((ms) => lagView.push({ t: performance.now(), ms })); }, 1000); };

const pct = (xs: number[], p: number): number => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN; };
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Ack→written waits of spans acknowledged in [from, to]: when the written counter first reached each acknowledged count. */
function ackToWritten(from: number, to: number): number[] {
  const out: number[] = [];
  let j = 0;
  for (const a of ackSamples) {
    if (a.t < from || a.t > to || a.n === 0) continue;
    while (j < writtenSamples.length && (writtenSamples[j]!.n < a.n || writtenSamples[j]!.t < a.t)) j++;
    out.push(j < writtenSamples.length ? writtenSamples[j]!.t - a.t : performance.now() - a.t);
  }
  return out;
}
function writtenAt(t: number): number {
  let n = 0;
  for (const s of writtenSamples) { if (s.t <= t) n = s.n; else break; }
  return n;
}

/** Drives load until `until`: closed loop (keep `backlog()` spans waiting) or open loop at `rate` spans/s. */
async function drive(until: number, mode: { closed: true; backlog: () => number } | { closed: false; rate: number }): Promise<void> {
  const inflight = new Set<Promise<void>>();
  const interval = mode.closed ? 0 : (SPANS_PER_REQ / mode.rate) * 1000;
  let nextAt = performance.now();
  let pausedUntil = 0;
  while (performance.now() < until) {
    if (inflight.size >= CONNS * 4) { await Promise.race(inflight); continue; }
    if (mode.closed) {
      // A closed loop backs off on a refusal, as an exporter honouring Retry-After does (the open
      // loop keeps its offer: that is what an overload is).
      if (performance.now() < pausedUntil) { await sleep(20); continue; }
      const waiting = acceptedSpans + inflight.size * SPANS_PER_REQ - written;
      if (waiting >= mode.backlog()) { await sleep(20); continue; }
    } else {
      const now = performance.now();
      if (now < nextAt) { await sleep(Math.max(0, nextAt - now)); continue; }
      nextAt += interval;
      // An open loop that fell behind (a slow server) does not burst to catch up.
      if (performance.now() - nextAt > 1000) nextAt = performance.now();
    }
    const p = send().then((ok) => { if (!ok) pausedUntil = performance.now() + 250; }, () => { stats.failed++; }).finally(() => inflight.delete(p));
    inflight.add(p);
  }
  await Promise.all(inflight);
}

interface PhaseResult { visibleSteady: number; accepted: number; stats: PhaseStats; ackWritten: number[]; lagView: number[]; errors: number; from: number; to: number }

/** One phase: warm-up, then a steady window with snapshots at both ends. */
async function phase(name: string, mode: Parameters<typeof drive>[1], onSteady?: (a: ReturnType<typeof snapshot>, b: ReturnType<typeof snapshot>, g: number) => void): Promise<PhaseResult> {
  stats = newStats();
  const errors0 = serverLog.errors;
  const t0 = performance.now();
  console.log(`  ${name}: warm-up ${WARMUP} s, then ${SECONDS} s measured …`);
  await drive(t0 + WARMUP * 1000, mode);
  const a = snapshot(watched);
  const g0 = generatorSeconds();
  const from = performance.now();
  const w0 = written;
  await drive(from + SECONDS * 1000, mode);
  const to = performance.now();
  const b = snapshot(watched);
  const w1 = written;
  onSteady?.(a, b, generatorSeconds() - g0);
  return {
    visibleSteady: (w1 - w0) / ((to - from) / 1000), accepted: stats.accepted, stats,
    ackWritten: ackToWritten(from, to), lagView: lagView.filter((l) => l.t >= from && l.t <= to).map((l) => l.ms),
    errors: serverLog.errors - errors0, from, to,
  };
}

const poller = pollVisibility();
console.log(`bench: warm-up ${WARMUP} s + ${SECONDS} s per phase, ${CONNS} connections, ${SPANS_PER_REQ} spans/request, ~${Math.round(avgSpanBytes)} B/span, kafka client ${opt.client}, enforcement ${opt.enforcement}`);

// 1. Idle.
let idleLine = 'skipped';
if (IDLE > 0) {
  console.log(`  idle: 20 s settling, then ${IDLE} s measured …`);
  await sleep(20_000);
  const a = snapshot(watched);
  await sleep(IDLE * 1000);
  const b = snapshot(watched);
  const t = costTable(a, b, watched, (b.at - a.at) / 1000, 0);
  const cores = (row: string): string => ((t.rows.find((r) => r.row === row)?.seconds ?? 0) / t.seconds).toFixed(3);
  idleLine = `${(t.total / t.seconds).toFixed(3)} cores in all (target ≤ 0.05): server ${cores(watched[0]!.name)}, kafka ${cores(watched[1]!.name)}, postgres ${cores(watched[2]!.name)}; machine ${(t.machine / t.seconds).toFixed(3)}`;
  console.log(`  idle: ${idleLine}`);
  console.log(formatCostTable(t, t.seconds, 'second'));
}

startSampling();
// 2. Capacity: a closed loop keeping about a second of spans (at least 5,000) waiting.
let table = '';
let tableTotalPerSpan = NaN;
let steadyUnits = 0;
const capacity = await phase('capacity (closed loop)', {
  closed: true,
  backlog: () => {
    const recent = writtenSamples.slice(-8);
    const rate = recent.length > 1 ? (recent[recent.length - 1]!.n - recent[0]!.n) / ((recent[recent.length - 1]!.t - recent[0]!.t) / 1000) : 0;
    return Math.max(5_000, rate);
  },
}, (a, b, g) => {
  steadyUnits = writtenAt(b.at) - writtenAt(a.at);
  const t = costTable(a, b, watched, steadyUnits, g);
  table = formatCostTable(t, steadyUnits);
  tableTotalPerSpan = (t.total * 1e6) / Math.max(1, steadyUnits);
});
console.log(table);

// 3. Overload: offered `OVERLOAD` × capacity, admission on its defaults.
let overload: PhaseResult | undefined;
let overloadTable = '';
if (OVERLOAD > 0) {
  const rate = OVERLOAD * capacity.visibleSteady;
  overload = await phase(`overload (open loop at ${fmt(rate)} spans/s = ${OVERLOAD}× capacity)`, { closed: false, rate }, (a, b, g) => {
    const units = writtenAt(b.at) - writtenAt(a.at);
    overloadTable = formatCostTable(costTable(a, b, watched, units, g), units);
  });
}
const loadEnd = performance.now();

// Drain: wait until every accepted span is written (bounded).
const drainDeadline = performance.now() + Number(process.env.BENCH_DRAIN_MS ?? 120_000);
while (written < acceptedSpans && performance.now() < drainDeadline) await sleep(250);
await sleep(500);
clearInterval(sampler);
clearInterval(lagSampler);
polling = false;
const pollDeadline = setTimeout(() => probes.clear(), 30_000);
await poller;
clearTimeout(pollDeadline);
const writtenTotal = (await metric('projector_span_rows_written_total')) - written0;

function phaseLines(name: string, r: PhaseResult): string {
  return [
    `  ${name}`,
    `    visible spans/s steady  ${fmt(r.visibleSteady)}   (accepted ${fmt(r.accepted / ((r.to - r.from + WARMUP * 1000) / 1000))}/s over the phase)`,
    `    refused                 ${fmt(r.stats.refused)} requests with 503/429${r.stats.refusedWithoutRetryAfter ? `, ${r.stats.refusedWithoutRetryAfter} without Retry-After` : r.stats.refused ? ' + Retry-After' : ''}; ${r.stats.failed} failed`,
    `    accept latency          p50 ${pct(r.stats.acceptLat, 50).toFixed(1)} ms   p99 ${pct(r.stats.acceptLat, 99).toFixed(1)} ms`,
    `    ack→written lag         p50 ${fmt(pct(r.ackWritten, 50))} ms   p99 ${fmt(pct(r.ackWritten, 99))} ms   max ${fmt(Math.max(0, ...r.ackWritten))} ms (counters every 250 ms, steady window)`,
    `    accept→visible (probes) p50 ${fmt(pct(r.stats.lags, 50))} ms   p99 ${fmt(pct(r.stats.lags, 99))} ms   (${r.stats.lags.length} probe traces)`,
    `    admission's lag view    p50 ${fmt(pct(r.lagView, 50))} ms   max ${fmt(Math.max(0, ...r.lagView))} ms`,
    `    server error log lines  ${r.errors}`,
  ].join('\n');
}
const decodeUs = 1e6 / protobufjsRate;
console.log(`
${phaseLines('capacity (closed loop, about 1 s of spans waiting)', capacity)}
${overload ? phaseLines(`overload (${OVERLOAD}× capacity offered, admission defaults)`, overload) : '  overload                skipped'}
  acknowledged vs visible   ${fmt(acceptedSpans)} acknowledged, ${fmt(writtenTotal)} rows written (${writtenTotal === acceptedSpans ? 'equal' : `differ by ${fmt(writtenTotal - acceptedSpans)}`})
  server peak RSS           ${(peakRss / 1024 / 1024).toFixed(0)} MiB; server log ${serverLog.lines} lines, ${serverLog.errors} at error or above${serverLog.sample.length ? `\n    sample: ${serverLog.sample.join('\n    sample: ')}` : ''}
  protobufjs decode         ${fmt(protobufjsRate)} spans/s (same bodies, reflection decode, one core) = ${decodeUs.toFixed(1)} µs/span

  1 cost table              closes: see the capacity table above (${fmt(steadyUnits)} visible spans in its window)
  2 capacity                visible steady / raw decode = ${(capacity.visibleSteady / protobufjsRate).toFixed(3)} (target ≥ 0.10) with ack→written p99 ${fmt(pct(capacity.ackWritten, 99))} ms (target ≤ 5,000); all processes ${tableTotalPerSpan.toFixed(0)} µs CPU per visible span (target ≤ 150)
  3 overload                ${overload ? `goodput ${fmt(overload.visibleSteady)} / capacity ${fmt(capacity.visibleSteady)} = ${(overload.visibleSteady / capacity.visibleSteady).toFixed(2)} (target ≥ 0.9), ack→written p99 ${fmt(pct(overload.ackWritten, 99))} ms (target ≤ 5,000), ${overload.errors} error lines for ${fmt(overload.stats.refused)} refusals` : 'skipped'}
  5 idle                    ${idleLine}
  mode                      all-in-one (command, projectors and embedded ClickHouse in one process; Kafka and Postgres beside it); broker JVM ${(kafkaJvmFlags() as string[]).join(' ')}; server node ${process.version} ${process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64'}
  enforcement               ${opt.enforcement === 'on' ? 'on (quota reservation + throttle check per request)' : 'off (ACCESS_ENFORCEMENT=false)'}
  load                      ${((loadEnd - performance.now()) / -1000).toFixed(0)} s of drain after the load
`);
if (overloadTable) console.log(`  overload window:\n${overloadTable}\n`);
if (opt.replay) {
  // Projector throughput alone: rebuild the span table from everything the run produced.
  const c0 = cpuSeconds(server.pid);
  const r0 = performance.now();
  const res = await fetch(`${base}/admin/replay/spans`, { method: 'POST', headers: { Authorization: `Access ${adminToken}` } });
  const lines = (await res.text()).trim().split('\n');
  const secs = (performance.now() - r0) / 1000;
  const last = JSON.parse(lines[lines.length - 1]!) as { result?: { records: number; rows: number }; error?: string };
  const rows = last.result?.rows ?? 0;
  console.log(`  4 replay                  ${fmt(rows / secs)} spans/s (${fmt(rows)} spans in ${secs.toFixed(1)} s; target ≥ 50,000), server ${((cpuSeconds(server.pid) - c0) * 1e6 / rows).toFixed(0)} µs CPU per span${last.error ? ` ERROR ${last.error}` : ''}`);
}
await shutdown();
process.exit(0);
