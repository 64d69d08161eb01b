// The compiled services (`npm run build`, what the production image runs): built into a scratch
// folder, then the command service, projector-accounts and the gateway are started from plain
// JavaScript — no TypeScript loader — against the test Kafka and Postgres. An account is created and
// a trace ingested through the gateway, which exercises the files the build copies beside the code
// (migrations, .proto files) and the compiled OTLP worker thread. Every other entry point must start
// and stop at its configuration check.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { encodeExportTraceServiceRequest } from '@llm/otlp';
import { createAccount, eventually, testSecretsEnv } from '@llm/testing';
// The local stack's helper: the operating system picks a port nothing listens on.
// @ts-expect-error plain .mjs without types
const { freePort } = (await import('../../deploy/local/ports.mjs')) as { freePort(): Promise<number> };

const repoRoot = path.resolve(import.meta.dirname, '../..');
const outDir = path.join(repoRoot, '.data', `build-test-${process.pid}-${randomBytes(3).toString('hex')}`);
const id = randomBytes(4).toString('hex');
const adminToken = randomBytes(16).toString('hex');
const children: ChildProcess[] = [];
let databaseUrl = '';
let gatewayUrl = '';

interface BuildManifest { entries: Array<{ source: string; output: string }>; assets: string[] }
let manifest: BuildManifest;

const builtEntry = (service: string): string => path.join(outDir, 'services', service, 'src', 'main.mjs');

async function startBuilt(service: string, env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const managementPort = await freePort();
  // No --import tsx and no inherited NODE_OPTIONS (vitest's loaders): plain node, as in the image.
  const child = spawn(process.execPath, [builtEntry(service)], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), MANAGEMENT_PORT: String(managementPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SHUTDOWN_DRAIN_MS: '0', OTLP_HTTP_PORT: '0', OTLP_GRPC_PORT: '0', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await eventually(() => fetch(`http://127.0.0.1:${managementPort}/readyz`).then((r) => r.status, () => 0), (s) => s === 200 || child.exitCode !== null, 90_000);
  expect(child.exitCode, `${service} exited during start-up`).toBeNull();
  return { url, child };
}

/** Runs a built entry with an empty environment; its exit code and everything it printed. */
function runToExit(entry: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { cwd: repoRoot, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let output = '';
    child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

beforeAll(async () => {
  const build = spawnSync(process.execPath, ['deploy/bin/build.mjs', '--out', path.relative(repoRoot, outDir)], { cwd: repoRoot, encoding: 'utf8' });
  expect(build.stderr).toBe('');
  expect(build.status).toBe(0);
  manifest = JSON.parse(readFileSync(path.join(outDir, 'build-manifest.json'), 'utf8')) as BuildManifest;

  const serverUrl = inject('databaseUrl');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE t_${id}`);
  await admin.end();
  databaseUrl = serverUrl.replace(/\/[^/]*$/, `/t_${id}`);
  const shared = {
    KAFKA_BROKERS: inject('kafkaBrokers'), KAFKA_TOPIC_PREFIX: `t${id}.`, KAFKA_SPANS_PARTITIONS: '3', KAFKA_ACCOUNTS_PARTITIONS: '1',
    DATABASE_URL: databaseUrl, ...testSecretsEnv(),
  };
  await startBuilt('projector-accounts', shared);
  const command = await startBuilt('command', { ...shared, ADMIN_TOKEN: adminToken, OTLP_WORKERS: '1' });
  // The query and projector-spans upstreams are not started: these requests route to the command side.
  const gateway = await startBuilt('gateway', { COMMAND_URL: command.url, QUERY_URL: 'http://127.0.0.1:9', PROJECTOR_URL: 'http://127.0.0.1:9' });
  gatewayUrl = gateway.url;
}, 180_000);

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  rmSync(outDir, { recursive: true, force: true });
});

describe('built services (npm run build)', () => {
  it('when built, then every service entry and the worker it spawns are compiled, with the run-time files beside them', () => {
    const sources = manifest.entries.map((e) => e.source);
    for (const service of ['all-in-one', 'command', 'query', 'gateway', 'projector-spans', 'projector-accounts', 'projector-events', 'projector-usage', 'projector-evaluations', 'webhook-dispatcher']) {
      expect(sources).toContain(`services/${service}/src/main.ts`);
    }
    expect(sources).toEqual(expect.arrayContaining(['services/command/src/workers/prepare-otlp-worker.ts', 'services/projector-spans/src/replay-main.ts', 'packages/runtime/src/redrive-main.ts', 'services/command/src/secrets-rotate-main.ts']));
    for (const e of manifest.entries) expect(existsSync(path.join(outDir, e.output)), e.output).toBe(true);
    expect(existsSync(path.join(outDir, 'packages/events/proto/envelope.proto'))).toBe(true);
    expect(existsSync(path.join(outDir, 'services/projector-accounts/migrations'))).toBe(true);
    // The worker is compiled, not the tsx bootstrap that the source tree has under the same name.
    expect(readFileSync(path.join(outDir, 'services/command/src/workers/prepare-otlp-worker.mjs'), 'utf8')).not.toContain('tsx');
  });

  it('when an account is created and a trace sent through the built gateway, then the built command side accepts both', async () => {
    const acc = await createAccount(gatewayUrl, adminToken);
    const body = encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [{
      traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), name: 'built-image-check',
      startTimeUnixNano: `${Date.now()}000000`, endTimeUnixNano: `${Date.now() + 5}000000`,
    }] }] }] });
    const res = await fetch(`${gatewayUrl}/otlp/v1/traces`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/x-protobuf' }, body });
    expect(res.status).toBe(200);
  }, 60_000);

  it('when a built service gets SIGTERM, then it shuts down cleanly (exit 0)', async () => {
    const gateway = children[children.length - 1]!;
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => resolve(code)));
    gateway.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);

  it('when the other built entry points start without their settings, then each stops at the configuration check naming what is missing', async () => {
    const expectations: Record<string, string> = {
      'all-in-one': 'KAFKA_BROKERS', query: 'SESSION_SECRETS', 'projector-spans': 'ADMIN_TOKEN', 'projector-events': 'KAFKA_BROKERS',
      'projector-usage': 'DATABASE_URL', 'projector-evaluations': 'KAFKA_BROKERS', 'webhook-dispatcher': 'SECRETS_KEY',
    };
    await Promise.all(Object.entries(expectations).map(async ([service, missing]) => {
      const r = await runToExit(builtEntry(service));
      expect(r.code, service).toBe(1);
      expect(r.output, service).toMatch(new RegExp(`invalid configuration[\\s\\S]*${missing}`));
    }));
  }, 120_000);
});
