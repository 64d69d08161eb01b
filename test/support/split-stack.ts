// The split deployment for one test file, every part a process of its own: the chDB-over-HTTP fixture
// standing in for a ClickHouse server, command ×2, query ×2, the four projectors and the webhook
// dispatcher, and the gateway in front balancing over the replicas. They share the run's real Kafka
// and Postgres (a fresh database and topic prefix each) and reach ClickHouse only by CLICKHOUSE_URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { testSecretsEnv, type TestSecretsEnv } from '@llm/testing/secrets';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STOP_GRACE_MS = 10_000;

export interface ManagedProcess {
  name: string;
  pid: number;
  /** The last output lines, for failure messages. */
  tail(): string;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after the grace period; resolves once the process has exited. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// Nothing outlives the test run, even when a file dies before its afterAll.
process.once('exit', () => { for (const c of running) c.kill('SIGKILL'); });

export function spawnProcess(name: string, args: string[], env: Record<string, string>, onLine?: (line: string) => void): ManagedProcess {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  let alive = true;
  const exited = new Promise<void>((resolve) => child.once('exit', () => { alive = false; running.delete(child); resolve(); }));
  const echo = process.env.TEST_LOG_LEVEL !== undefined;
  let partial = '';
  child.stdout.on('data', (b: Buffer) => {
    out = (out + b.toString()).slice(-8000);
    if (echo) process.stderr.write(`[${name}] ${b.toString()}`);
    if (!onLine) return;
    partial += b.toString();
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  });
  child.stderr.on('data', (b: Buffer) => {
    out = (out + b.toString()).slice(-8000);
    if (echo) process.stderr.write(`[${name}] ${b.toString()}`);
  });
  return {
    name,
    pid: child.pid ?? 0,
    tail: () => out,
    alive: () => alive,
    async stop() {
      if (!alive) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(t);
    },
  };
}

async function freePort(): Promise<number> {
  // @ts-expect-error plain .mjs module without types (deploy scripts run before npm install)
  const ports = (await import('../../deploy/local/ports.mjs')) as { freePort(): Promise<number> };
  return ports.freePort();
}

async function waitReady(p: ManagedProcess, url: string, timeoutMs = 150_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!p.alive()) throw new Error(`${p.name} exited before it was ready:\n${p.tail()}`);
    const status = await fetch(url).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${p.name} not ready at ${url} within ${timeoutMs} ms:\n${p.tail()}`);
}

/** The fixture alone, as its own process: ClickHouse's HTTP interface over chDB with its own data directory. */
export async function startChdbHttp(dataDir: string): Promise<{ url: string; process: ManagedProcess }> {
  let resolvePort: (port: number) => void = () => undefined;
  const port = new Promise<number>((r) => { resolvePort = r; });
  const proc = spawnProcess('chdb-http', ['--import', 'tsx', path.join(ROOT, 'test/support/chdb-http-main.ts'), dataDir], { ...process.env } as Record<string, string>, (line) => {
    if (line.startsWith('{"port":')) resolvePort((JSON.parse(line) as { port: number }).port);
  });
  const deadline = new Promise<never>((_r, reject) => setTimeout(() => reject(new Error(`chdb-http did not start:\n${proc.tail()}`)), 60_000).unref());
  const url = `http://127.0.0.1:${await Promise.race([port, deadline])}`;
  await waitReady(proc, `${url}/ping`);
  return { url, process: proc };
}

export type ServiceName = 'command' | 'query' | 'projector-spans' | 'projector-accounts' | 'projector-events' | 'projector-usage' | 'webhook-dispatcher' | 'gateway';
/** Services that serve no API, only their management listener. */
const API_LESS = new Set<ServiceName>(['projector-accounts', 'projector-events', 'projector-usage', 'webhook-dispatcher']);

/** `url`: the service's API port (projector-only services have none: their `url` is their management listener's). `managementUrl`: /healthz, /readyz, /metrics. */
export interface SplitService { name: ServiceName; url: string; managementUrl: string; process: ManagedProcess }

export interface SplitStack {
  /** The gateway: the one base URL clients use. */
  baseUrl: string;
  adminToken: string;
  clickhouseUrl: string;
  clickhouseDatabase: string;
  /** Set for every service; never created, since no service may open the embedded engine. */
  embeddedDataDir: string;
  kafkaBrokers: string;
  databaseUrl: string;
  topicPrefix: string;
  secrets: TestSecretsEnv;
  services: SplitService[];
  urls(name: ServiceName): string[];
  stop(): Promise<void>;
}

export interface SplitStackOptions {
  commandReplicas?: number;
  queryReplicas?: number;
  env?: Record<string, string>;
}

export async function startSplitStack(opts: SplitStackOptions = {}): Promise<SplitStack> {
  const id = randomBytes(4).toString('hex');
  const serverUrl = inject('databaseUrl');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE s_${id}`);
  await admin.end();
  const runDir = inject('runDir');
  const adminToken = randomBytes(16).toString('hex');
  const secrets = testSecretsEnv();
  const stopped: ManagedProcess[] = [];
  const services: SplitService[] = [];
  const stack = {
    adminToken, secrets, services,
    clickhouseDatabase: `s_${id}`,
    embeddedDataDir: path.join(runDir, `split-embedded-${id}`),
    kafkaBrokers: inject('kafkaBrokers'),
    databaseUrl: serverUrl.replace(/\/[^/]*$/, `/s_${id}`),
    topicPrefix: `s${id}.`,
  };
  // Stops in the reverse order of start: the gateway first, the fixture last.
  const stop = async (): Promise<void> => {
    for (const group of [['gateway'], ['command', 'query'], ['projector-spans', 'projector-accounts', 'projector-events', 'projector-usage', 'webhook-dispatcher']]) {
      await Promise.all(services.filter((s) => group.includes(s.name)).map((s) => s.process.stop()));
    }
    await Promise.all(stopped.map((p) => p.stop()));
  };
  try {
    const ch = await startChdbHttp(path.join(runDir, `split-ch-${id}`));
    stopped.push(ch.process);
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      KAFKA_BROKERS: stack.kafkaBrokers, KAFKA_TOPIC_PREFIX: stack.topicPrefix, KAFKA_SPANS_PARTITIONS: '3', KAFKA_ACCOUNTS_PARTITIONS: '1',
      DATABASE_URL: stack.databaseUrl, ADMIN_TOKEN: adminToken,
      CLICKHOUSE_URL: ch.url, CLICKHOUSE_DATABASE: stack.clickhouseDatabase, CLICKHOUSE_DATA_DIR: stack.embeddedDataDir,
      SHUTDOWN_DRAIN_MS: '0', SHUTDOWN_GRACE_MS: '5000',
      ...secrets,
      ...opts.env,
    };
    const launch = async (name: ServiceName, extra: Record<string, string> = {}): Promise<SplitService> => {
      const [port, managementPort] = [await freePort(), await freePort()];
      const proc = spawnProcess(`${name}#${services.filter((s) => s.name === name).length + 1}`,
        ['--import', 'tsx', path.join(ROOT, `services/${name}/src/main.ts`)], { ...env, PORT: String(port), MANAGEMENT_PORT: String(managementPort), ...extra });
      const managementUrl = `http://127.0.0.1:${managementPort}`;
      const svc = { name, url: API_LESS.has(name) ? managementUrl : `http://127.0.0.1:${port}`, managementUrl, process: proc };
      services.push(svc);
      await waitReady(proc, `${managementUrl}/readyz`);
      return svc;
    };
    // Projectors own their stores' migrations: they come first, so the read side finds its tables.
    await Promise.all((['projector-accounts', 'projector-spans', 'projector-events', 'projector-usage', 'webhook-dispatcher'] as const).map((n) => launch(n)));
    await Promise.all([
      ...Array.from({ length: opts.commandReplicas ?? 2 }, () => launch('command')),
      ...Array.from({ length: opts.queryReplicas ?? 2 }, () => launch('query')),
    ]);
    const urls = (name: ServiceName): string[] => services.filter((s) => s.name === name).map((s) => s.url);
    const gw = await launch('gateway', { COMMAND_URL: urls('command').join(','), QUERY_URL: urls('query').join(','), PROJECTOR_URL: urls('projector-spans').join(',') });
    return { ...stack, baseUrl: gw.url, clickhouseUrl: ch.url, urls, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
