// npm run bench:query [-- --traces 1000000 --iterations 40 --fresh --events both|on|off]: read latency
// on a large read model, through the HTTP API, warm. `--events` runs the reads with read events
// recorded (EVENTS_READ_RECORDING=true, the default deployment), without, or both one after the other
// (default), to show what auditing costs the read path. Loads (once; kept in .data/bench-query and reused by later runs)
// `--traces` traces of 10 spans over 30 days (test/bench/query-dataset.ts) into the all-in-one
// stack's own ClickHouse, through the projector's own state transition and writer, then measures
// p50/p95/p99 of the six reads, the cold first read, ClickHouse time per request, each
// statement's rows to read after pruning and engine time, and bytes on disk per span.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openClickhouse } from '@llm/clickhouse';
import { parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { allInOneConfig, startAllInOne } from '@llm/service-all-in-one';
import { createAccount } from '@llm/testing/accounts';
import { DAY_US, SPANS_PER_TRACE, loadDataset, type DatasetShape } from './query-dataset.ts';
import { testSecretsEnv } from '@llm/testing/secrets';
import { renderMetrics } from '@llm/metrics';

const { values: opt } = parseArgs({
  options: {
    traces: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '40' },
    fresh: { type: 'boolean', default: false },
    events: { type: 'string', default: 'both' },
  },
});
if (!['both', 'on', 'off'].includes(opt.events)) throw new Error('--events is both, on or off');
const MODES: boolean[] = opt.events === 'both' ? [false, true] : [opt.events === 'on'];
const TRACES = Number(opt.traces);
const ITER = Number(opt.iterations);
const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, '.data', 'bench-query');
const datasetFile = path.join(dir, 'dataset.json');
if (opt.fresh) rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

interface Dataset { shape: DatasetShape; apiKey: string; projectId: string; adminToken: string; spans: number; loadSeconds: number }
let dataset: Dataset | undefined = existsSync(datasetFile) ? JSON.parse(readFileSync(datasetFile, 'utf8')) as Dataset : undefined;
if (dataset && dataset.shape.traces !== TRACES) {
  console.log(`dataset in ${dir} has ${dataset.shape.traces} traces, ${TRACES} asked: rebuilding`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  dataset = undefined;
}

// @ts-expect-error plain .mjs without types
const { startKafka } = await import('../../deploy/local/kafka.mjs');
// @ts-expect-error plain .mjs without types
const { startPostgres } = await import('../../deploy/local/postgres.mjs');
const kafkaPort = Number(process.env.BENCH_KAFKA_PORT ?? 29092);
const pgPort = Number(process.env.BENCH_POSTGRES_PORT ?? 25432);
const quiet = (): void => undefined;
const kafkaProc = await startKafka({ dataDir: path.join(dir, 'kafka'), port: kafkaPort, controllerPort: kafkaPort + 1, log: quiet });
const pg = await startPostgres({ dataDir: path.join(dir, 'postgres'), port: pgPort, log: quiet });
const adminToken = dataset?.adminToken ?? 'bench-admin-token-0123456789abcdef';
const secrets = testSecretsEnv();
const configFor = (recording: boolean) => {
  const parsed = parseConfig(allInOneConfig, {
    PORT: '0', MANAGEMENT_PORT: '0', OTLP_HTTP_PORT: '0', OTLP_GRPC_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn',
    KAFKA_BROKERS: kafkaProc.brokers, KAFKA_TOPIC_PREFIX: 'bench.',
    DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${pgPort}/postgres`,
    CLICKHOUSE_DATA_DIR: path.join(dir, 'clickhouse'), ADMIN_TOKEN: adminToken, EVENTS_READ_RECORDING: String(recording), ...secrets,
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.config;
};
const startApp = (recording: boolean) => startAllInOne(configFor(recording), createLogger({ name: 'bench', level: 'warn' }));
let app = await startApp(MODES[0]!);
let base = `http://127.0.0.1:${app.port}`;
const chConfig = configFor(MODES[0]!);
let ch = await openClickhouse({ dataDir: chConfig.CLICKHOUSE_DATA_DIR, database: chConfig.CLICKHOUSE_DATABASE });
const db = ch.database;
const scalar = async (query: string): Promise<string> => {
  const r = await ch.client.query({ query, format: 'JSONEachRow' });
  const rows = await r.json<Record<string, string>>();
  return String(Object.values(rows[0] ?? {})[0] ?? '');
};

try {
  if (!dataset) {
    const acc = await createAccount(base, adminToken);
    const endUs = Math.floor(Date.now() / 3_600_000) * 3_600_000_000;
    const shape: DatasetShape = { traces: TRACES, days: 30, sessions: 3_000, users: 2_000, endUs };
    const t0 = performance.now();
    let lastPrint = 0;
    const spans = await loadDataset(ch, acc.projectId, shape, (n) => {
      if (performance.now() - lastPrint > 5_000) {
        lastPrint = performance.now();
        const s = (lastPrint - t0) / 1000;
        process.stdout.write(`loading: ${n.toLocaleString('en')} / ${(TRACES * SPANS_PER_TRACE).toLocaleString('en')} spans, ${Math.round(n / s)} spans/s\n`);
      }
    });
    // What a long-running table looks like: background merges done.
    await ch.client.command({ query: `OPTIMIZE TABLE ${db}.spans FINAL`, clickhouse_settings: { max_execution_time: 0 } });
    await ch.client.command({ query: `OPTIMIZE TABLE ${db}.trace_index FINAL`, clickhouse_settings: { max_execution_time: 0 } });
    await ch.client.command({ query: `OPTIMIZE TABLE ${db}.trace_roots FINAL`, clickhouse_settings: { max_execution_time: 0 } });
    const loadSeconds = (performance.now() - t0) / 1000;
    dataset = { shape, apiKey: acc.apiKey, projectId: acc.projectId, adminToken, spans, loadSeconds };
    writeFileSync(datasetFile, JSON.stringify(dataset, null, 2));
    console.log(`loaded ${spans.toLocaleString('en')} spans in ${loadSeconds.toFixed(0)} s (${Math.round(spans / loadSeconds)} spans/s incl. OPTIMIZE)`);
  }
  // A dataset loaded before a newer migration: wait for its background column materialisation.
  for (let waited = 0; Number(await scalar(`SELECT count() FROM system.mutations WHERE database = '${db}' AND NOT is_done`)) > 0; waited++) {
    if (waited % 10 === 0) console.log('waiting for background mutations of the read model …');
    await new Promise((r) => setTimeout(r, 1000));
  }
  // A dataset loaded before the roots table (span migration 0006) got its roots copied at start-up:
  // merged like the rest of the load.
  if (Number(await scalar(`SELECT count() FROM system.parts WHERE database = '${db}' AND table = 'trace_roots' AND active`))
    > Number(await scalar(`SELECT uniqExact(partition) FROM system.parts WHERE database = '${db}' AND table = 'trace_roots' AND active`))) {
    await ch.client.command({ query: `OPTIMIZE TABLE ${db}.trace_roots FINAL`, clickhouse_settings: { max_execution_time: 0 } });
  }
  const d = dataset;
  const auth = { Authorization: `ApiKey ${d.apiKey}`, 'Content-Type': 'application/json' };
  const liveSpans = Number(await scalar(`SELECT count() FROM ${db}.spans FINAL WHERE is_deleted = 0`));
  const bytes = Number(await scalar(`SELECT sum(bytes_on_disk) FROM system.parts WHERE database = '${db}' AND table IN ('spans', 'trace_index') AND active`));
  const spanBytes = Number(await scalar(`SELECT sum(bytes_on_disk) FROM system.parts WHERE database = '${db}' AND table = 'spans' AND active`));
  console.log(`read model: ${liveSpans.toLocaleString('en')} spans, ${(bytes / 2 ** 30).toFixed(2)} GiB on disk, ${(bytes / liveSpans).toFixed(0)} bytes/span (span table ${(spanBytes / liveSpans).toFixed(0)}, trace index ${((bytes - spanBytes) / liveSpans).toFixed(1)})`);

  const traceIds = (await (await ch.client.query({ query: `SELECT trace_id FROM ${db}.trace_index WHERE project_id = {p:String} ORDER BY cityHash64(trace_id) LIMIT 500`, query_params: { p: d.projectId }, format: 'JSONEachRow' })).json<{ trace_id: string }>()).map((r) => r.trace_id);
  const endIso = new Date(d.shape.endUs / 1000).toISOString();
  const dayAgoIso = new Date((d.shape.endUs - DAY_US) / 1000).toISOString();
  const monthAgoIso = new Date((d.shape.endUs - d.shape.days * DAY_US) / 1000).toISOString();
  const models = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet', 'llama-3.1-70b', 'mistral-large', 'gemini-1.5-pro'];

  interface Probe { name: string; target: number; run: (i: number) => Promise<Response> }
  const post = (p: string, body: unknown): Promise<Response> => fetch(`${base}${p}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
  const probes: Probe[] = [
    { name: 'trace by id (GET /traces/{id})', target: 20, run: (i) => fetch(`${base}/traces/${traceIds[i % traceIds.length]}`, { headers: auth }) },
    {
      name: 'spans query, 2 attribute filters, 24 h, limit 50', target: 50,
      run: (i) => post('/spans/query', {
        filtering: { operator: 'and', conditions: [
          { field: 'attributes', key: 'ag.meta.request.model', operator: 'is', value: models[i % models.length] },
          { field: 'attributes', key: 'ag.meta.request.temperature', operator: 'lt', value: 0.5 },
        ] },
        windowing: { oldest: dayAgoIso, newest: endIso, limit: 50 },
      }),
    },
    { name: 'traces query, latest 50', target: 50, run: () => post('/traces/query', { windowing: { limit: 50 } }) },
    {
      name: 'analytics 24 h, 1-min buckets, 4 specs', target: 100,
      run: () => post('/spans/analytics/query', {
        oldest: dayAgoIso, newest: endIso, interval: 60,
        specs: [
          { type: 'numeric/continuous', path: 'attributes.ag.metrics.duration.cumulative' },
          { type: 'numeric/discrete', path: 'attributes.ag.metrics.tokens.cumulative.total' },
          { type: 'categorical/single', path: 'attributes.ag.meta.app' },
          { type: 'binary', path: 'attributes.tags.escalated' },
        ],
      }),
    },
    { name: 'legacy analytics 30 days, 1 h buckets', target: 100, run: () => post('/tracing/spans/analytics', { oldest: monthAgoIso, newest: endIso, interval: 3600 }) },
    { name: 'sessions query, page of 50', target: 50, run: () => post('/spans/sessions/query', { windowing: { limit: 50 } }) },
  ];

  // Time per step: the query side times every read-model query per store (read-timing.ts); the app
  // runs in this process, so its registry is read directly around each read's timed iterations.
  const storeTotals = async (): Promise<Record<string, { n: number; s: number }>> => {
    const text = await renderMetrics();
    const out: Record<string, { n: number; s: number }> = {};
    for (const m of text.matchAll(/^read_model_query_duration_seconds_(sum|count)\{([^}]*)\} ([0-9.e+-]+)$/gm)) {
      const store = /store="([^"]+)"/.exec(m[2]!)?.[1] ?? '?';
      const t = (out[store] ??= { n: 0, s: 0 });
      if (m[1] === 'count') t.n += Number(m[3]); else t.s += Number(m[3]);
    }
    return out;
  };
  const steps = (a: Record<string, { n: number; s: number }>, b: Record<string, { n: number; s: number }>, requests: number): string =>
    Object.keys(b).sort().map((k) => {
      const n = (b[k]!.n - (a[k]?.n ?? 0)) / requests;
      const ms = ((b[k]!.s - (a[k]?.s ?? 0)) * 1000) / requests;
      return `${k} ${n.toFixed(1)} queries ${ms.toFixed(1)} ms`;
    }).filter((x) => !x.includes(' 0.0 queries')).join(', ');
  // Same answers: each read's first answer, canonical (keys sorted, numbers to 9 significant digits:
  // parallel sums add in any order), hashed and kept beside the dataset; later runs compare.
  const canonical = (v: unknown): unknown => {
    if (typeof v === 'number') return Number(v.toPrecision(9));
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
    return v;
  };
  const answerHash = (body: string): string => createHash('sha256').update(JSON.stringify(canonical(JSON.parse(body)))).digest('hex').slice(0, 16);
  const answersFile = path.join(dir, 'answers.json');
  const knownAnswers = existsSync(answersFile) ? JSON.parse(readFileSync(answersFile, 'utf8')) as { at: string; hashes: Record<string, string> } : undefined;
  const answers: Record<string, string> = {};
  // The engine's share, statement by statement (the query profile): the statements of one
  // request are captured where the app sends them (the embedded engine's client is shared by
  // everything in this process), then each is estimated (`EXPLAIN ESTIMATE`: the parts, granules and
  // rows the primary key and partition pruning leave to read, per table) and re-run once through
  // `exec` for the engine's own elapsed time (chDB keeps no system.query_log, and its read counters
  // count result rows).
  interface Sent { query: string; query_params?: Record<string, unknown>; clickhouse_settings?: Record<string, unknown> }
  let captured: Sent[] | undefined;
  const watchStatements = (): void => {
    const c = ch.client as unknown as { query: (p: Sent) => Promise<unknown> };
    const send = c.query.bind(c);
    c.query = (p: Sent) => { captured?.push({ query: p.query, query_params: p.query_params, clickhouse_settings: p.clickhouse_settings }); return send(p); };
  };
  const engineProfile = async (sent: Sent[]): Promise<string> => {
    const parts: string[] = [];
    for (const [i, st] of sent.entries()) {
      const settings = st.clickhouse_settings as never;
      const est = await (await ch.client.query({ query: `EXPLAIN ESTIMATE ${st.query}`, query_params: st.query_params, clickhouse_settings: settings, format: 'JSONEachRow' }))
        .json<{ table: string; parts: string; rows: string; marks: string }>();
      const r = await ch.client.exec({ query: `${st.query} FORMAT Null`, query_params: st.query_params, clickhouse_settings: settings });
      r.stream.destroy();
      const read = est.map((e) => `${e.table} ${Number(e.rows).toLocaleString('en')} rows/${e.marks} granules/${e.parts} parts`).join(' + ') || 'no table';
      parts.push(`#${i + 1} ${read}, ${(Number(r.summary?.elapsed_ns ?? 0) / 1e6).toFixed(1)} ms`);
    }
    return parts.join('; ');
  };
  const pct = (xs: number[], p: number): number => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
  const results: string[] = [];
  // Cold: each read's first request comes right after a restart of the app and of the embedded
  // engine's session (its caches go with it; the operating system's page cache stays, as it does
  // when a process restarts).
  const restart = async (recording: boolean): Promise<void> => {
    await ch.close();
    await app.stop();
    app = await startApp(recording);
    base = `http://127.0.0.1:${app.port}`;
    ch = await openClickhouse({ dataDir: chConfig.CLICKHOUSE_DATA_DIR, database: chConfig.CLICKHOUSE_DATABASE });
    watchStatements();
  };
  for (const recording of MODES) {
    const mode = `read events ${recording ? 'on ' : 'off'}`;
    results.push(`-- ${mode} (EVENTS_READ_RECORDING=${recording})`);
    console.log(results[results.length - 1]);
    for (const probe of probes) {
      await restart(recording);
      const tFirst = performance.now();
      const first = await probe.run(0);
      const firstBody = await first.text();
      const firstMs = performance.now() - tFirst;
      if (first.status === 200) answers[probe.name] = answerHash(firstBody);
      if (first.status !== 200) {
        results.push(`${probe.name.padEnd(48)} HTTP ${first.status}: ${firstBody.slice(0, 120)}`);
        continue;
      }
      for (let i = 1; i < 4; i++) await (await probe.run(i)).arrayBuffer(); // warm
      const times: number[] = [];
      const before = await storeTotals();
      for (let i = 0; i < ITER; i++) {
        const t0 = performance.now();
        const res = await probe.run(i + 7);
        await res.arrayBuffer();
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`${probe.name}: HTTP ${res.status}`);
      }
      const perRequest = steps(before, await storeTotals(), ITER);
      captured = [];
      await (await probe.run(ITER + 7)).arrayBuffer();
      const sent = captured;
      captured = undefined;
      const profile = await engineProfile(sent);
      times.sort((a, b) => a - b);
      const p95 = pct(times, 95);
      results.push(`${probe.name.padEnd(48)} p50 ${pct(times, 50).toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms  p99 ${pct(times, 99).toFixed(1).padStart(7)} ms  target p95 ≤ ${probe.target} ms ${p95 <= probe.target ? 'OK' : 'MISSED'}  (${firstBody.length} bytes)`);
      results.push(`${''.padEnd(48)} cold (first after a restart) ${firstMs.toFixed(1)} ms; per request: ${perRequest}`);
      results.push(`${''.padEnd(48)} engine per statement (rows to read after pruning, time): ${profile}`);
      for (const line of results.slice(-3)) console.log(line);
    }
  }
  if (knownAnswers) {
    const differing = Object.keys(answers).filter((k) => knownAnswers.hashes[k] !== undefined && knownAnswers.hashes[k] !== answers[k]);
    results.push(differing.length === 0
      ? `answers: the same as the run of ${knownAnswers.at} (${Object.keys(answers).length} reads, canonical JSON hashed)`
      : `answers: DIFFERENT from the run of ${knownAnswers.at}: ${differing.join('; ')}`);
  } else {
    writeFileSync(answersFile, JSON.stringify({ at: new Date().toISOString(), hashes: answers }, null, 2));
    results.push(`answers: recorded in ${path.relative(root, answersFile)} (later runs on this dataset compare with them)`);
  }
  if (MODES.includes(true)) {
    const recorded = Number(await scalar(`SELECT count() FROM ${db}.platform_events`));
    console.log(`read events in the events table: ${recorded.toLocaleString('en')}`);
  }
  console.log(`\n${d.spans.toLocaleString('en')} spans, ${d.shape.traces.toLocaleString('en')} traces, ${d.shape.days} days, ${ITER} iterations per read, RSS ${(process.memoryUsage().rss / 2 ** 30).toFixed(2)} GiB`);
  for (const r of results) console.log(r);
} finally {
  await ch.close();
  await app.stop();
  await pg.stop();
  await kafkaProc.stop();
}
process.exit(0);
