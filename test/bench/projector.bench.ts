// npm run bench:projector [-- --spans 200000 --client platformatic|kafkajs]: the span projector alone.
// Fills a fresh spans topic with realistic events (the ingest path's own encoding: OTLP GenAI spans →
// normalise → SpansUpserted per trace), then runs the projector in this process against the embedded
// ClickHouse and reports spans/s and CPU per span. Run with --cpu-prof to see where the time goes.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openClickhouse } from '@llm/clickhouse';
import { encodeEvent, spansKey, topicsFor } from '@llm/events';
import { createKafkaClient, DEFAULT_KAFKA_CLIENT, type KafkaClientKind } from '@llm/kafka';
import { createLogger } from '@llm/logging';
import { decodeOtlpTraces, encodeExportTraceServiceRequest, type OtlpSpanInput } from '@llm/otlp';
import { normalizeBatch } from '@llm/span-model';
import { createSpansProjector } from '@llm/service-projector-spans';
import { groupByTrace } from '../../services/command/src/ingest/domain/span-records.ts';

const { values: opt } = parseArgs({ options: { spans: { type: 'string', default: '200000' }, client: { type: 'string', default: DEFAULT_KAFKA_CLIENT }, 'cpu-profile': { type: 'boolean', default: false } } });
const TOTAL = Number(opt.spans);
const root = path.resolve(import.meta.dirname, '../..');
// @ts-expect-error plain .mjs without types
const { startKafka } = await import('../../deploy/local/kafka.mjs');
// @ts-expect-error plain .mjs without types
const { freePort } = await import('../../deploy/local/ports.mjs');
mkdirSync(path.join(root, '.data'), { recursive: true });
const dir = mkdtempSync(path.join(root, '.data', 'pbench-'));
const kafkaProc = await startKafka({ dataDir: path.join(dir, 'kafka'), port: await freePort(), controllerPort: await freePort(), log: () => undefined });
const log = createLogger({ name: 'bench', level: 'warn' });
try {
  const kafka = await createKafkaClient({ brokers: [kafkaProc.brokers], clientId: 'pbench' }, opt.client as KafkaClientKind);
  const topics = topicsFor({ prefix: '', spansPartitions: 6, accountsPartitions: 1, spansRetentionMs: 3600_000, dlqRetentionMs: 3600_000 });
  const admin = await kafka.admin();
  await admin.ensureTopics(topics.all);
  const producer = await kafka.producer();
  const prompt = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'What is the capital of France? Please answer in one sentence and cite one reliable source for it.' }] }]);
  const answer = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'The capital of France is Paris (source: Encyclopaedia Britannica, entry on Paris).' }], finish_reason: 'stop' }]);
  let produced = 0;
  while (produced < TOTAL) {
    const spans: OtlpSpanInput[] = [];
    const now = BigInt(Date.now()) * 1_000_000n;
    for (let t = 0; t < 20; t++) {
      const traceId = randomBytes(16); const rootId = randomBytes(8);
      spans.push({ traceId, spanId: rootId, name: 'agent', kind: 2, startTimeUnixNano: now, endTimeUnixNano: now + 900_000_000n, attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
      for (let i = 1; i < 5; i++) spans.push({ traceId, spanId: randomBytes(8), parentSpanId: rootId, name: 'chat', kind: 3, startTimeUnixNano: now, endTimeUnixNano: now + 80_000_000n, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 40, 'gen_ai.input.messages': prompt, 'gen_ai.output.messages': answer } });
    }
    const d = decodeOtlpTraces(encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans }] }] }));
    if (!d.ok) throw new Error(d.reason);
    const records = [...groupByTrace(normalizeBatch(d.spans).spans)].map(([traceId, s]) => ({ key: spansKey('p1', traceId), value: encodeEvent('tracing.spans.upserted', { trace_id: traceId, spans: s }, { projectId: 'p1' }) }));
    await producer.send(topics.spans, records);
    produced += spans.length;
  }
  const end = await admin.endOffsets(topics.spans);
  const totalRecords = [...end.values()].reduce((a, b) => a + b, 0n);
  const ch = await openClickhouse({ dataDir: path.join(dir, 'ch'), database: 'llm' });
  let done = 0n;
  let resolveDone!: () => void;
  const finished = new Promise<void>((r) => (resolveDone = r));
  const projector = createSpansProjector({ kafka, producer, ch, topics, log });
  // --cpu-profile: profile only the projection phase (not the topic filling) with the inspector.
  const inspector = opt['cpu-profile'] ? new (await import('node:inspector/promises')).Session() : undefined;
  if (inspector) { inspector.connect(); await inspector.post('Profiler.enable'); await inspector.post('Profiler.start'); }
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // Count applied records through the consumer's hook by polling the table instead: it is what "visible" means.
  await projector.start();
  const poll = setInterval(() => {
    void ch.client.query({ query: 'SELECT count() AS n FROM llm.spans', format: 'JSONEachRow' }).then((r) => r.json<{ n: string }>()).then((rows) => {
      done = BigInt(rows[0]?.n ?? 0);
      if (done >= BigInt(produced)) resolveDone();
    });
  }, 200);
  await finished;
  clearInterval(poll);
  const secs = (performance.now() - t0) / 1000;
  if (inspector) {
    const { profile } = await inspector.post('Profiler.stop');
    const file = path.join(root, '.data', `projector-${Date.now()}.cpuprofile`);
    (await import('node:fs')).writeFileSync(file, JSON.stringify(profile));
    console.log(`cpu profile: ${file}`);
  }
  const cpu = process.cpuUsage(c0);
  console.log(`projector (${opt.client}): ${Math.round(produced / secs)} spans/s (${produced} spans, ${totalRecords} records, ${secs.toFixed(1)} s), ${((cpu.user + cpu.system) / produced).toFixed(0)} µs CPU per span (all threads)`);
  await projector.stop();
  await producer.close();
  await admin.close();
  await ch.close();
} finally {
  await kafkaProc.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
