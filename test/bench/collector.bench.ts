// npm run bench:collector [-- --seconds 20 --workers 4 --batch-size 500 --child-spans 4 --enforcement on|off]
//
// Side by side with the OpenTelemetry Collector: the same `telemetrygen traces` stream (OTLP/HTTP
// protobuf, unthrottled, 1 root + 4 child spans per trace, batches of 500) goes first to a core
// collector (OTLP receiver → batch processor → nop exporter), then to our command service alone
// (split mode: the accept path, OTLP/HTTP → Kafka, in its own process). For each it prints accepted
// spans/s and CPU µs per accepted span (utime+stime of that one process from /proc/<pid>/stat), then
// the ratio ours/collector. The collector's figure is its whole pipeline; ours is the accept path only
// (Kafka, Postgres and the accounts projector run beside it and are not counted).
//
// Tools, built once into .data/tools/ and reused (Go ≥ 1.26 and the Go module proxy needed once), by
// the same installers npm test uses: the collector from test/bench/collector/builder-config.yaml with
// ocb (deploy/local/otelcol.mjs) → .data/tools/otelcol-bench-v0.165.0/otelcol-bench/otelcol-bench, and
// telemetrygen (deploy/local/telemetrygen.mjs).
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { testSecretsEnv } from '@llm/testing/secrets';


const { values: opt } = parseArgs({ options: {
  seconds: { type: 'string', default: '20' },
  workers: { type: 'string', default: '4' },
  'batch-size': { type: 'string', default: '500' },
  'child-spans': { type: 'string', default: '4' },
  enforcement: { type: 'string', default: 'on' },
} });
if (!['on', 'off'].includes(opt.enforcement)) throw new Error('--enforcement is on or off');
const SECONDS = Number(opt.seconds);
const WORKERS = Number(opt.workers);
const BATCH = Number(opt['batch-size']);
const CHILDREN = Number(opt['child-spans']);
for (const [k, v] of Object.entries({ seconds: SECONDS, workers: WORKERS, 'batch-size': BATCH, 'child-spans': CHILDREN })) {
  if (!Number.isInteger(v) || v < (k === 'child-spans' ? 0 : 1)) throw new Error(`--${k} must be a positive integer`);
}

const root = path.resolve(import.meta.dirname, '../..');
const collectorConfig = path.join(root, 'test/bench/collector/collector-config.yaml');

// ---------- tools ----------
const { ensureCollector, OTELCOL_VERSION } = await import('../../deploy/local/otelcol.mjs');
const { ensureTelemetrygen } = await import('../../deploy/local/telemetrygen.mjs');

/** The collector and telemetrygen, each built only when missing (or, for the collector, when its manifest changed). */
function ensureTools(): { collectorBin: string; telemetrygenBin: string } {
  const collectorBin = ensureCollector({ name: 'otelcol-bench', manifest: path.join(root, 'test/bench/collector/builder-config.yaml') });
  const telemetrygenBin = ensureTelemetrygen();
  if (!collectorBin || !telemetrygenBin) {
    console.error('bench:collector needs Go (≥ 1.26) to build the collector and telemetrygen once; no `go` was found (GO_BIN, PATH, /usr/local/go/bin).');
    process.exit(2);
  }
  return { collectorBin, telemetrygenBin };
}

// ---------- measuring ----------
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU seconds (user + system, all threads) a process has used so far, from /proc. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // Fields after "(comm) ": state is index 0, so utime (field 14) is 11 and stime (15) is 12.
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch { return NaN; }
}

/** Sums every sample of a Prometheus counter (all label sets; with or without the `_total` suffix). */
function counterSum(text: string, name: string): number {
  const re = new RegExp(`^${name}(?:_total)?(?:\\{[^}]*\\})? ([0-9.eE+-]+)`, 'gm');
  let sum = 0;
  for (const m of text.matchAll(re)) sum += Number(m[1]);
  return sum;
}

async function scrape(url: string): Promise<string> {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`GET ${url}: ${r.status}`);
  return r.text();
}

interface GenResult { seconds: number; cpu: number; exitCode: number | null; errors: string[] }

/** Runs one telemetrygen traces stream to the end; polls its CPU, since it is gone once it exits. */
async function telemetrygen(endpoint: string, urlPath: string, headers: Record<string, string>): Promise<GenResult> {
  const args = ['traces', '--otlp-http', '--otlp-insecure', '--otlp-endpoint', endpoint, '--otlp-http-url-path', urlPath,
    '--workers', String(WORKERS), '--rate', '0', '--child-spans', String(CHILDREN), '--batch', '--batch-size', String(BATCH),
    '--duration', `${SECONDS}s`, '--allow-export-failures', '--service', 'bench-collector',
    ...Object.entries(headers).flatMap(([k, v]) => ['--otlp-header', `${k}="${v}"`])];
  const t0 = performance.now();
  const gen = spawn(telemetrygenBin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let cpu = 0;
  const poll = setInterval(() => { const c = cpuSeconds(gen.pid); if (!Number.isNaN(c)) cpu = c; }, 200);
  let out = '';
  gen.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  gen.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  const exitCode = await new Promise<number | null>((r) => gen.once('exit', (code) => r(code)));
  clearInterval(poll);
  // Error lines only, deduplicated by their message, so a failing run shows what went wrong once.
  const errors = [...new Set(out.split('\n').filter((l) => /\b(error|fail|dropped)/i.test(l)).map((l) => l.replace(/^\S+\s+/, '').slice(0, 300)))];
  return { seconds: (performance.now() - t0) / 1000, cpu, exitCode, errors };
}

interface Measured { spans: number; refused: number | undefined; seconds: number; cpu: number; gen: GenResult }

/** Before/after a stream: accepted spans from the server's own counter, CPU of its one process. */
async function measure(pid: number | undefined, readAccepted: () => Promise<{ accepted: number; refused?: number }>, endpoint: string, urlPath: string, headers: Record<string, string>): Promise<Measured> {
  const before = await readAccepted();
  const cpu0 = cpuSeconds(pid);
  const gen = await telemetrygen(endpoint, urlPath, headers);
  // The batch → export (collector) and the Kafka acks (ours) finish just after the last response.
  await new Promise((r) => setTimeout(r, 1000));
  const cpu = cpuSeconds(pid) - cpu0;
  const after = await readAccepted();
  const refused = after.refused === undefined || before.refused === undefined ? undefined : after.refused - before.refused;
  return { spans: after.accepted - before.accepted, refused, seconds: gen.seconds, cpu, gen };
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
function report(label: string, m: Measured): void {
  console.log(`  ${label.padEnd(10)} ${fmt(m.spans / m.seconds).padStart(9)} spans/s   ${(m.cpu * 1e6 / m.spans).toFixed(1).padStart(6)} µs CPU/span   (${fmt(m.spans)} spans accepted, ${m.refused === undefined ? '' : `${fmt(m.refused)} refused, `}server CPU ${(m.cpu / m.seconds * 100).toFixed(0)}%, telemetrygen CPU ${(m.gen.cpu / m.seconds * 100).toFixed(0)}%, ${m.seconds.toFixed(1)} s)`);
  if (m.gen.exitCode !== 0) console.log(`             telemetrygen exited with ${m.gen.exitCode}`);
  for (const e of m.gen.errors.slice(0, 5)) console.log(`             telemetrygen: ${e}`);
}

// ---------- cleanup ----------
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
async function stopChild(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGTERM');
  const t = setTimeout(() => p.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(t);
}
let dir: string | undefined;
async function shutdown(): Promise<void> {
  for (const p of children.reverse()) await stopChild(p);
  children.length = 0;
  await Promise.all(cleanups.splice(0).map((c) => c()));
  if (dir) rmSync(dir, { recursive: true, force: true });
}
process.on('uncaughtException', (err) => { console.error(err); void shutdown().finally(() => process.exit(1)); });
process.on('unhandledRejection', (err) => { console.error(err); void shutdown().finally(() => process.exit(1)); });
process.on('SIGINT', () => { void shutdown().finally(() => process.exit(130)); });

// ---------- run ----------
const { collectorBin, telemetrygenBin } = ensureTools();
// @ts-expect-error plain .mjs without types
const { freePort, waitForPort } = await import('../../deploy/local/ports.mjs');
mkdirSync(path.join(root, '.data'), { recursive: true });
dir = mkdtempSync(path.join(root, '.data', 'bench-collector-'));
const nodeArgs = (process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64').split(' ').filter(Boolean);
console.log(`bench: telemetrygen traces, ${WORKERS} workers unthrottled, ${1 + CHILDREN}-span traces, batches of ${BATCH}, OTLP/HTTP protobuf, ${SECONDS} s per side; CPU clock ${CLK_TCK} ticks/s`);

// 1. The collector.
const otlpPort: number = await freePort();
const promPort: number = await freePort();
const collector = spawn(collectorBin, ['--config', collectorConfig], {
  env: { ...process.env, BENCH_OTLP_HTTP_PORT: String(otlpPort), BENCH_METRICS_PORT: String(promPort) },
  stdio: ['ignore', 'inherit', 'inherit'],
});
children.push(collector);
const collectorAlive = (): boolean => collector.exitCode === null;
await waitForPort(otlpPort, { timeoutMs: 30_000, name: 'collector', isAlive: collectorAlive });
await waitForPort(promPort, { timeoutMs: 30_000, name: 'collector metrics', isAlive: collectorAlive });
const collectorMetrics = `http://127.0.0.1:${promPort}/metrics`;
const theirs = await measure(collector.pid, async () => {
  const text = await scrape(collectorMetrics);
  return { accepted: counterSum(text, 'otelcol_receiver_accepted_spans'), refused: counterSum(text, 'otelcol_receiver_refused_spans') };
}, `127.0.0.1:${otlpPort}`, '/v1/traces', {});
report('collector', theirs);
await stopChild(collector);
children.splice(children.indexOf(collector), 1);

// 2. Our command service alone, on its own Kafka + Postgres. It does not answer alone: projector-accounts
// migrates the account tables and projects the account the bench creates, projector-usage owns the
// quota tables (quota_admissions) that every ingest request reserves on. Both run beside it as in a
// split deployment; only the command process is measured (their CPU is printed for context).
// @ts-expect-error plain .mjs without types
const { startKafka } = await import('../../deploy/local/kafka.mjs');
// @ts-expect-error plain .mjs without types
const { startPostgres } = await import('../../deploy/local/postgres.mjs');
const [kafka, pg] = await Promise.all([
  startKafka({ dataDir: path.join(dir, 'kafka'), port: await freePort(), controllerPort: await freePort(), log: () => undefined, heap: '1g' }),
  startPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort(), log: () => undefined }),
]) as [{ brokers: string; pid: number; stop: () => Promise<void> }, { url: string; stop: () => Promise<void> }];
cleanups.push(() => kafka.stop(), () => pg.stop());
// A metered plan far above the run (each request reserves on the admission counter and is checked
// against its throttles), as in ingest.bench.ts; `--enforcement off` skips those checks.
const BENCH_PLANS = JSON.stringify({
  bench_metered: {
    counters: { traces_ingested: { limit: 1_000_000_000_000, strict: false, period: 'monthly' } },
    throttles: [{ bucket: { capacity: 10_000_000, rate: 10_000_000 }, mode: 'include', categories: ['tracing_fast'] }, { bucket: { capacity: 10_000_000, rate: 10_000_000 }, mode: 'include', categories: ['standard'] }],
  },
});
const adminToken = randomBytes(16).toString('hex');
const common = {
  ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: kafka.brokers, DATABASE_URL: pg.url, ADMIN_TOKEN: adminToken,
  ...(opt.enforcement === 'on' ? { ACCESS_PLANS: BENCH_PLANS, ACCESS_DEFAULT_PLAN: 'bench_metered' } : { ACCESS_ENFORCEMENT: 'false' }),
  ...testSecretsEnv(),
};
const projectors = await Promise.all(['projector-accounts', 'projector-usage'].map(async (name) => {
  const p: number = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(root, `services/${name}/src/main.ts`)], {
    env: { ...common, MANAGEMENT_PORT: String(p) }, stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(proc);
  await waitForPort(p, { timeoutMs: 90_000, name, isAlive: () => proc.exitCode === null });
  return proc;
}));
const port: number = await freePort();
const managementPort: number = await freePort();
// No span projector runs here, so the admission's projector-lag signal is switched off: this bench
// measures the accept path's cost, not its overload answer (test/e2e/overload.e2e.test.ts does that).
const command = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, 'services/command/src/main.ts')], {
  env: { ...common, PORT: String(port), MANAGEMENT_PORT: String(managementPort), INGEST_SHED_LAG_MS: '0' }, stdio: ['ignore', 'inherit', 'inherit'],
});
children.push(command);
await waitForPort(port, { timeoutMs: 90_000, name: 'command service', isAlive: () => command.exitCode === null });
const base = `http://127.0.0.1:${port}`;
const created = await fetch(`${base}/admin/simple/accounts/`, {
  method: 'POST', headers: { Authorization: `Access ${adminToken}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({ accounts: { bench: { user: { email: `bench-${Date.now()}@example.com` } } } }),
});
if (!created.ok) throw new Error(`account creation: ${created.status} ${await created.text()}`);
const apiKey = ((await created.json()) as { accounts: { bench: { api_keys: { key: string } } } }).accounts.bench.api_keys.key;
const besides = (): number => cpuSeconds(kafka.pid) + projectors.reduce((sum, p) => sum + cpuSeconds(p.pid), 0);
const besides0 = besides();
const ours = await measure(command.pid, async () => {
  const text = await scrape(`http://127.0.0.1:${managementPort}/metrics`);
  // No refused-spans counter on our side: refusals show up as telemetrygen export errors below.
  return { accepted: counterSum(text, 'spans_accepted') };
}, `127.0.0.1:${port}`, '/otlp/v1/traces', { Authorization: `ApiKey ${apiKey}` });
report('ours', ours);
console.log(`             beside it (not counted): Kafka + projector-accounts + projector-usage CPU ${((besides() - besides0) / ours.seconds * 100).toFixed(0)}%`);

const ratio = (ours.cpu / ours.spans) / (theirs.cpu / theirs.spans);
console.log(`
  mode       split: command service alone (OTLP/HTTP → Kafka acks), enforcement ${opt.enforcement === 'on' ? 'on (quota reservation + throttle check per request)' : 'off (ACCESS_ENFORCEMENT=false)'}
  collector  otelcol ${OTELCOL_VERSION} core: otlp (http) → batch → nop, whole pipeline
  ratio      ours/collector CPU per span = ${ratio.toFixed(1)}×  (issue 25 target ≤ 4×; issue 10 was ≤ 8×)
`);
await shutdown();
process.exit(0);
