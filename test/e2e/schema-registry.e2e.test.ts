// With SCHEMA_REGISTRY_URL, events are registered and framed through a real Confluent-compatible
// registry (Apicurio Registry, started here from Maven Central jars), and the pipeline still works.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { createKafkaClient } from '@llm/kafka';
import { createAccount, eventually, type TestAccount } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
let registry: { url: string; stop: () => Promise<void> };
let t: TestApp;
let acc: TestAccount;

beforeAll(async () => {
  // @ts-expect-error plain .mjs without types
  const sr = await import('../../deploy/local/schema-registry.mjs');
  // @ts-expect-error plain .mjs without types
  const { freePort } = await import('../../deploy/local/ports.mjs');
  registry = await sr.startSchemaRegistry({ kafkaBrokers: inject('kafkaBrokers'), port: await freePort(), dataDir: path.join(inject('runDir'), `sr-${hex(3)}`), log: () => undefined });
  t = await startTestApp({ SCHEMA_REGISTRY_URL: registry.url });
  acc = await createAccount(t.baseUrl, t.adminToken);
}, 180_000);
afterAll(async () => { await t?.stop(); await registry?.stop(); });

describe('schema registry', () => {
  it('when spans are ingested, then the topic records are registry-framed and the trace still reads back', async () => {
    const trace_id = hex(16);
    const span_id = hex(8);
    const r = await fetch(`${t.baseUrl}/tracing/spans/ingest`, { method: 'POST', headers: { ...acc.auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ spans: [{ trace_id, span_id }] }) });
    expect(r.status).toBe(202);
    const got = await eventually(() => fetch(`${t.baseUrl}/spans/${trace_id}/${span_id}`, { headers: acc.auth }).then((x) => x.json() as Promise<any>), (b) => b.count === 1);
    expect(got.count).toBe(1);

    const subjects = await fetch(`${registry.url}/subjects`).then((x) => x.json() as Promise<string[]>);
    expect(subjects).toContain(`${t.topicPrefix}tracing.spans.v1-value`);
    expect(subjects).toContain(`${t.topicPrefix}accounts.events.v1-value`);

    const kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'test' });
    const firstBytes: number[] = [];
    const c = kafka.consumer({ groupId: `sr-${hex(4)}`, topics: [`${t.topicPrefix}tracing.spans.v1`], fromBeginning: true });
    await c.start(async (b) => { for (const rec of b.records) firstBytes.push(rec.value![0]!); });
    await eventually(async () => firstBytes.length, (n) => n > 0, 20_000);
    await c.stop();
    expect(firstBytes.every((b) => b === 0)).toBe(true);
  });
});
