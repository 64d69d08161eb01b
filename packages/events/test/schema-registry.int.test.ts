// Schema-registry framing against a real Confluent-compatible registry (Apicurio Registry, started
// here on the run's Kafka unless SCHEMA_REGISTRY_URL points at a running one).
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { createRegistryFraming, plainFraming, type EventFraming } from '../src/schema-registry.ts';
import { decodeEvent, encodeEvent } from '../src/codec.ts';
import { lookup } from '../src/proto-root.ts';

let url: string;
let stop: () => Promise<void> = async () => undefined;
let framing: EventFraming;
// Fresh topic names per run: subjects in a long-lived registry (SCHEMA_REGISTRY_URL) never clash.
const run = randomUUID().slice(0, 8);
const spansTopic = `sr-${run}.tracing.spans.v1`;
const accountsTopic = `sr-${run}.accounts.events.v1`;

const meta = { projectId: 'proj-1', organizationId: 'org-1', requestId: 'req-1', actorId: 'user-1', aggregateId: 'agg-1', timeUs: 1_700_000_000_000_123 };
const envelope = (): Buffer => encodeEvent('tracing.trace.deleted', { trace_id: 'trace-abc' }, meta);

async function getJson(p: string): Promise<any> {
  const res = await fetch(`${url}${p}`);
  expect(res.status, p).toBe(200);
  return res.json();
}

beforeAll(async () => {
  if (process.env.SCHEMA_REGISTRY_URL) {
    url = process.env.SCHEMA_REGISTRY_URL;
  } else {
    // @ts-expect-error plain .mjs modules without types (deploy scripts run before npm install)
    const { startSchemaRegistry } = await import('../../../deploy/local/schema-registry.mjs');
    // @ts-expect-error see above
    const { freePort } = await import('../../../deploy/local/ports.mjs');
    const sr = await startSchemaRegistry({
      kafkaBrokers: inject('kafkaBrokers'), port: await freePort(), dataDir: path.join(inject('runDir'), 'schema-registry'), log: () => undefined,
    });
    url = sr.url;
    stop = () => sr.stop();
  }
  framing = await createRegistryFraming(url, { topics: [spansTopic] });
});
afterAll(async () => { await stop(); });

describe('registry framing', () => {
  it('when an envelope is framed and unframed, then the bytes come back unchanged and still decode', async () => {
    const env = envelope();
    const framed = await framing.encode(spansTopic, env);
    const latest = await getJson(`/subjects/${spansTopic}-value/versions/latest`);
    expect(framed[0]).toBe(0);
    expect(framed.readInt32BE(1)).toBe(latest.id);
    expect(framed[5]).toBe(0); // message indexes [0]: the Envelope
    expect(framed.subarray(6).equals(env)).toBe(true);

    const back = await framing.decode(framed);
    expect(back.equals(env)).toBe(true);
    const ev = decodeEvent(back);
    expect(ev.ok && ev.value).toMatchObject({ type: 'tracing.trace.deleted', projectId: 'proj-1', timeUs: meta.timeUs, payload: { trace_id: 'trace-abc' } });
  });

  it('when a topic is written to, then its `<topic>-value` subject holds the Envelope schema as PROTOBUF, registered once', async () => {
    await framing.encode(accountsTopic, envelope());
    await framing.encode(accountsTopic, envelope());
    const subjects: string[] = await getJson('/subjects');
    expect(subjects).toEqual(expect.arrayContaining([`${spansTopic}-value`, `${accountsTopic}-value`]));
    expect(await getJson(`/subjects/${accountsTopic}-value/versions`)).toEqual([1]);
    const latest = await getJson(`/subjects/${accountsTopic}-value/versions/latest`);
    expect(latest.schemaType).toBe('PROTOBUF');
    expect(latest.schema).toContain('message Envelope');
    expect(latest.schema).toContain('package llm.events.v1;');
  });

  it('when a record was written before the registry was enabled, then it decodes unchanged', async () => {
    const env = envelope();
    const plain = await plainFraming.encode(spansTopic, env);
    expect(plain.equals(env)).toBe(true);
    const back = await framing.decode(plain);
    expect(back.equals(env)).toBe(true);
    expect(decodeEvent(back).ok).toBe(true);
  });

  it('when a frame names another message than the Envelope, then decoding fails instead of misreading it', async () => {
    const framed = await framing.encode(spansTopic, envelope());
    const other = Buffer.concat([framed.subarray(0, 5), Buffer.from([2, 2]), framed.subarray(6)]); // indexes [1]
    await expect(framing.decode(other)).rejects.toThrow(/another message/);
    await expect(framing.decode(framed.subarray(0, 4))).rejects.toThrow(/truncated/);
  });

  it('when a client knowing only the registry URL decodes a framed record, then it reads the Envelope fields', async () => {
    const env = envelope();
    const framed = await framing.encode(spansTopic, env);
    const stranger = new SchemaRegistry({ host: url });
    const msg = await stranger.decode(framed);
    // The library parses the registered schema with protobufjs defaults: camelCase names, Long int64.
    expect(msg).toMatchObject({
      eventId: expect.any(String), type: 'tracing.trace.deleted', schemaVersion: 1, projectId: 'proj-1',
      organizationId: 'org-1', requestId: 'req-1', actorId: 'user-1', aggregateId: 'agg-1',
    });
    expect(Number(msg.timeUs)).toBe(meta.timeUs);
    expect(lookup('TraceDeleted').toObject(lookup('TraceDeleted').decode(msg.payload))).toEqual({ trace_id: 'trace-abc' });
  });
});
