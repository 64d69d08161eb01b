#!/usr/bin/env node
// `npm start`: installs what is missing, starts local Kafka and Postgres (unless KAFKA_BROKERS /
// DATABASE_URL point elsewhere), runs every service in one process with embedded ClickHouse
// (unless CLICKHOUSE_URL is set), prints the base URL and admin token, and stops it all on Ctrl-C.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDeps, repoRoot } from './ensure-deps.mjs';

ensureDeps();
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
  env.CLICKHOUSE_DATA_DIR ||= path.join(dataDir, 'clickhouse');
  if (!env.ADMIN_TOKEN) {
    const f = path.join(dataDir, 'admin-token');
    if (!existsSync(f)) writeFileSync(f, randomBytes(24).toString('hex'), { mode: 0o600 });
    env.ADMIN_TOKEN = readFileSync(f, 'utf8').trim();
  }
  env.PORT ||= '8000';
} catch (err) {
  console.error(`[start] ${err.message}`);
  await stopAll();
  process.exit(1);
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'services/all-in-one/src/main.ts')], {
  env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], cwd: repoRoot,
});
child.on('message', (m) => {
  if (m && m.ready) {
    console.log(`\n  Base URL:     http://localhost:${m.port}\n  Admin token:  ${env.ADMIN_TOKEN}\n  (create an account: curl -X POST http://localhost:${m.port}/admin/simple/accounts/ -H "Authorization: Access $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"accounts":{"me":{"user":{"email":"me@example.com"}}}}')\n  Ctrl-C stops everything.\n`);
  }
});
let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  log('stopping …');
  if (child.exitCode === null) child.kill('SIGTERM');
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
child.on('exit', async (code) => {
  await stopAll();
  log('stopped');
  process.exit(stopping ? 0 : code ?? 1);
});
