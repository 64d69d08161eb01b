#!/usr/bin/env node
// `npm run test:contract [-- --seed N --max-examples N --max-time S --workers N --phases …] [-- <st args>]`
//
// Contract fuzzing: runs schemathesis (pinned, in a venv under .data/tools) against the all-in-one
// stack from its own OpenAPI document. Starts a fresh stack on free ports (local Kafka, embedded
// Postgres, the all-in-one server as a child process with embedded ClickHouse, all in a new data dir),
// creates an account through the admin API, and authenticates each operation with the credential its
// security requirement names (`[auth.openapi.<scheme>]` in a generated config: the API key for member
// and tracing routes, the admin token for /admin). Exits non-zero when any check fails (a 5xx, or a
// status, content type, header or body the document does not describe). Stops the stack afterwards.
// Not part of `npm test`: it takes minutes and drives the stack with thousands of requests.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureDeps, repoRoot } from './ensure-deps.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

await ensureSupportedNode();
ensureDeps();

const { values: opt, positionals: stArgs } = parseArgs({
  allowPositionals: true,
  options: {
    // A fixed seed by default: two runs of the same tree send the same requests.
    seed: { type: 'string', default: process.env.CONTRACT_SEED ?? '20260416' },
    'max-examples': { type: 'string', default: process.env.CONTRACT_MAX_EXAMPLES ?? '25' },
    // Wall-clock budget of schemathesis itself (stack start and install come on top).
    'max-time': { type: 'string', default: process.env.CONTRACT_MAX_TIME ?? '540' },
    // Two cores shared with the server, Kafka and Postgres: more workers only queue.
    workers: { type: 'string', default: process.env.CONTRACT_WORKERS ?? '2' },
    phases: { type: 'string', default: 'examples,coverage,fuzzing' },
    'keep-data': { type: 'boolean', default: false },
  },
});

// What the run must prove: no 5xx, and every status, content type, documented header and body as
// the document says. (negative_data_rejection / positive_data_acceptance judge the document's
// strictness rather than the server's answers, and are not part of the issue's bar.)
// The deployment's plan for the run: every entitlement, no quota, and throttles far above what the
// run sends. With the default catalog the hobby throttles (120 tracing writes, then 1 a minute)
// answered most requests with a (documented) 429 before any handler ran; the throttle middleware
// still runs on every request, only its buckets never empty.
const FUZZ_PLANS = JSON.stringify({
  contract_fuzz: {
    description: 'Contract fuzzing',
    flags: { rbac: true, audit: true, access: true, domains: true, sso: true },
    throttles: [{
      bucket: { capacity: 1_000_000_000, rate: 1_000_000_000 }, mode: 'include',
      categories: ['standard', 'core_fast', 'core_slow', 'tracing_fast', 'tracing_slow', 'services_fast', 'services_slow', 'ai_services'],
    }],
  },
});

const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_headers_conformance', 'response_schema_conformance'];

/**
 * The operations whose request body reaches a recursive schema (zod's shared `$defs`, converted to
 * `SharedInput_*` components: the span trees of the trace routes). Schemathesis's negative
 * generation cannot negate a nullable reference to such a schema ("a `not` whose complement is not
 * spelled out") and reports an error for the operation; its fuzzing phase runs positive-only there.
 * Their invalid inputs still come from the coverage phase, which does not hit that limitation.
 */
async function recursiveBodyOperations(base) {
  const doc = await (await fetch(`${base}/openapi.json`)).json();
  const schemas = doc.components?.schemas ?? {};
  const refsOf = (v, out = new Set()) => {
    if (Array.isArray(v)) v.forEach((x) => refsOf(x, out));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string') out.add(x.split('/').pop());
        else refsOf(x, out);
      }
    }
    return out;
  };
  const reaches = (start) => {
    const seen = new Set();
    const todo = [...refsOf(start)];
    while (todo.length) {
      const name = todo.pop();
      if (seen.has(name)) continue;
      seen.add(name);
      if (name.startsWith('SharedInput_')) return true;
      todo.push(...refsOf(schemas[name]));
    }
    return false;
  };
  const ids = [];
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) if (op.requestBody && reaches(op.requestBody)) ids.push(op.operationId);
  }
  return ids.sort();
}

const { ensureSchemathesis, SCHEMATHESIS_VERSION } = await import('../local/schemathesis.mjs');
const { checkPrerequisites, startKafka } = await import('../local/kafka.mjs');
const { startPostgres } = await import('../local/postgres.mjs');
const { freePort, waitForPort } = await import('../local/ports.mjs');

const log = (m) => console.log(`[contract] ${m}`);
const missing = checkPrerequisites();
if (missing.length) {
  console.error(`The local Kafka broker needs:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}
let st;
try {
  st = ensureSchemathesis({ log });
} catch (err) {
  console.error(`[contract] ${err.message}`);
  process.exit(1);
}

// A fresh data dir per run (the previous run's is replaced): the verdict never depends on old state.
// The server log and schemathesis's reports stay there after the run, for reading failures.
const runDir = path.join(repoRoot, '.data', 'contract');
rmSync(runDir, { recursive: true, force: true });
mkdirSync(runDir, { recursive: true });
const reportDir = path.join(runDir, 'report');

const stops = [];
let stopping;
function stopAll() {
  stopping ??= (async () => {
    for (const s of stops.reverse()) await s().catch((e) => console.error(e));
  })();
  return stopping;
}
let schemathesis;
const onSignal = (sig) => {
  log(`${sig}: stopping …`);
  if (schemathesis && schemathesis.exitCode === null) schemathesis.kill('SIGTERM');
  void stopAll().finally(() => process.exit(130));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const started = Date.now();
let exitCode = 1;
try {
  log('starting Kafka and PostgreSQL …');
  const [kafka, pg] = await Promise.all([
    startKafka({ dataDir: path.join(runDir, 'kafka'), port: await freePort(), controllerPort: await freePort(), log }),
    startPostgres({ dataDir: path.join(runDir, 'postgres'), port: await freePort(), log }),
  ]);
  stops.push(() => kafka.stop(), () => pg.stop());

  const port = await freePort();
  const adminToken = randomBytes(24).toString('hex');
  const serverLog = createWriteStream(path.join(runDir, 'server.log'));
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'services/all-in-one/src/main.ts')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      KAFKA_BROKERS: kafka.brokers, DATABASE_URL: pg.url, CLICKHOUSE_DATA_DIR: path.join(runDir, 'clickhouse'),
      ADMIN_TOKEN: adminToken,
      SESSION_SECRETS: randomBytes(32).toString('hex'), SECRETS_KEY: randomBytes(32).toString('base64'), SESSION_COOKIE_SECURE: 'false',
      SHUTDOWN_DRAIN_MS: '0', OTLP_HTTP_PORT: '0', OTLP_GRPC_PORT: '0', MANAGEMENT_PORT: '0',
      ACCESS_PLANS: FUZZ_PLANS, ACCESS_DEFAULT_PLAN: 'contract_fuzz',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout.pipe(serverLog);
  server.stderr.pipe(serverLog);
  const serverExited = new Promise((resolve) => server.on('exit', resolve));
  // Stopped first (stops run in reverse): the app drains before Kafka and Postgres go away.
  stops.push(async () => {
    if (server.exitCode !== null) return;
    server.kill('SIGTERM');
    const t = setTimeout(() => server.kill('SIGKILL'), 20_000);
    await serverExited;
    clearTimeout(t);
  });
  process.on('exit', () => { if (server.exitCode === null) server.kill('SIGKILL'); });
  log('starting the all-in-one server …');
  await waitForPort(port, { timeoutMs: 120_000, name: 'the all-in-one server', isAlive: () => server.exitCode === null });
  const base = `http://127.0.0.1:${port}`;

  const res = await fetch(`${base}/admin/simple/accounts/`, {
    method: 'POST',
    headers: { Authorization: `Access ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ accounts: { fuzz: { user: { email: `contract-${Date.now()}@example.com` } } } }),
  });
  if (!res.ok) throw new Error(`creating the account failed: ${res.status} ${await res.text()}`);
  const account = await res.json();
  const apiKey = account?.accounts?.fuzz?.api_keys?.key;
  if (typeof apiKey !== 'string') throw new Error(`the account answer carries no API key: ${JSON.stringify(account)}`);

  const positiveOnly = await recursiveBodyOperations(base);
  // One credential per security scheme of the document (packages/openapi/src/security.ts): schemathesis
  // sends, for each operation, the one its `security` names. No session cookie: the routes that only
  // take a session are fuzzed unauthenticated (their documented answer is then 401).
  const RUNNER_OPERATIONS = ['secrets.login_attempts.start', 'secrets.login_attempts.fetch', 'secrets.login_attempts.cancel'];
  const configFile = path.join(runDir, 'schemathesis.toml');
  writeFileSync(configFile, [
    '[auth.openapi.apiKey]',
    `api_key = ${JSON.stringify(`ApiKey ${apiKey}`)}`,
    '[auth.openapi.adminToken]',
    `api_key = ${JSON.stringify(`Access ${adminToken}`)}`,
    ...(positiveOnly.length ? [
      '[[operations]]',
      `include-operation-id = ${JSON.stringify(positiveOnly)}`,
      'phases.fuzzing.generation.mode = "positive"',
    ] : []),
    // The device sign-in routes call the operator's agent runner, which this stack has none of
    // (AGENT_RUNNER_URL unset): once a subscription secret exists they answer the documented 503
    // "agent runner not configured", a deployment fact, not an input's. Only that check is off for
    // them; status, content type, headers and bodies are still checked.
    '[[operations]]',
    `include-operation-id = ${JSON.stringify(RUNNER_OPERATIONS)}`,
    'checks.not_a_server_error.enabled = false',
    '',
  ].join('\n'));

  const args = [
    ...st.slice(1), '--config-file', configFile, 'run', `${base}/openapi.json`,
    '--checks', CHECKS.join(','),
    '--phases', opt.phases,
    '--max-examples', opt['max-examples'],
    '--max-time', opt['max-time'],
    '--workers', opt.workers,
    '--seed', opt.seed,
    '--request-timeout', '30',
    '--no-shrink',
    '--report', 'junit', '--report-dir', reportDir,
    ...stArgs,
  ];
  if (positiveOnly.length) log(`fuzzing phase positive-only (recursive bodies schemathesis cannot negate) for: ${positiveOnly.join(', ')}`);
  log(`schemathesis ${SCHEMATHESIS_VERSION}: st ${args.slice(st.length - 1).join(' ')}`);
  // The hooks teach schemathesis to generate the OTLP route's protobuf bodies.
  const hooksEnv = { SCHEMATHESIS_HOOKS: 'contract_hooks', PYTHONPATH: [path.join(repoRoot, 'deploy', 'contract'), process.env.PYTHONPATH].filter(Boolean).join(path.delimiter) };
  schemathesis = spawn(st[0], args, { cwd: runDir, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...hooksEnv } });
  // A hard stop beyond schemathesis's own budget, so a stuck request cannot hang the run.
  const hardStop = setTimeout(() => { log('time budget exceeded: stopping schemathesis'); schemathesis.kill('SIGTERM'); }, (Number(opt['max-time']) + 120) * 1000);
  exitCode = await new Promise((resolve) => schemathesis.on('exit', (code) => resolve(code ?? 1)));
  clearTimeout(hardStop);
  if (server.exitCode !== null) {
    log(`the server exited during the run (code ${server.exitCode}): see ${path.relative(repoRoot, path.join(runDir, 'server.log'))}`);
    exitCode ||= 1;
  }
} catch (err) {
  console.error(`[contract] ${err.stack ?? err.message}`);
  exitCode = 1;
} finally {
  log('stopping the stack …');
  await stopAll();
}
log(`${exitCode === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s (server log and reports in ${path.relative(repoRoot, runDir)})`);
if (!opt['keep-data']) {
  // The stores are large and useless once stopped; the log and reports are what a failure needs.
  for (const d of ['kafka', 'postgres', 'clickhouse']) rmSync(path.join(runDir, d), { recursive: true, force: true });
}
process.exit(exitCode);
