// The split deployment: the command service runs as its own process, a gateway routes by the
// shared route table, and clients see the same base URL and answers as with the all-in-one app.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@llm/logging';
import { createReadiness, listen, type RunningServer } from '@llm/http';
import { createGateway } from '@llm/service-gateway';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
// The local stack's helper: the operating system picks a port nothing listens on.
// @ts-expect-error plain .mjs without types
const { freePort } = (await import('../../deploy/local/ports.mjs')) as { freePort(): Promise<number> };
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let t: TestApp;
let acc: TestAccount;
let command: ChildProcess;
let gateway: RunningServer;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  acc = await createAccount(t.baseUrl, t.adminToken);
  const port = await freePort();
  const managementPort = await freePort();
  command = spawn(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../services/command/src/main.ts')], {
    env: {
      ...process.env, PORT: String(port), MANAGEMENT_PORT: String(managementPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn', KAFKA_BROKERS: t.kafkaBrokers, KAFKA_TOPIC_PREFIX: t.topicPrefix,
      KAFKA_SPANS_PARTITIONS: '3', KAFKA_ACCOUNTS_PARTITIONS: '1', DATABASE_URL: t.databaseUrl, ADMIN_TOKEN: t.adminToken, ...t.secrets,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await eventually(() => fetch(`http://127.0.0.1:${managementPort}/readyz`).then((r) => r.status, () => 0), (s) => s === 200, 90_000);
  const app = createGateway({ command: `http://127.0.0.1:${port}`, query: t.baseUrl, projector: t.baseUrl }, createLogger({ name: 'gw', level: 'silent' }), createReadiness());
  gateway = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${gateway.port}`;
});
afterAll(async () => {
  await gateway?.close();
  command?.kill('SIGTERM');
  await t?.stop();
});

describe('split mode', () => {
  it('when a client writes and reads through the gateway, then the separate command process and the query side answer', async () => {
    const trace_id = hex(16);
    const span_id = hex(8);
    const w = await fetch(`${base}/api/tracing/spans/ingest`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ spans: [{ trace_id, span_id }] }) });
    expect(w.status).toBe(202);
    const got = await eventually(() => fetch(`${base}/spans/${trace_id}/${span_id}`, { headers: acc.auth }).then((r) => r.json() as Promise<any>), (b) => b.count === 1);
    expect(got.span.span_id).toBe(span_id);
    expect((await fetch(`${base}/traces/query`, { headers: acc.auth })).status).toBe(405);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

});
