// Decode + adapt throughput on realistic LLM spans (~1.5 KB each, 100 per request), protobufjs
// reflection decoding of the same bytes for comparison, and decode + adapt per convention on the
// unit-test fixtures. Not a test: run by hand.
//   node --import tsx packages/otlp/scripts/measure.ts

import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { decodeOtlpTraces, encodeExportTraceServiceRequest } from '../src/index.ts';
import type { OtlpAttributesInput, OtlpSpanInput } from '../src/index.ts';
import { requestOf, span } from '../test/fixtures/build-request.ts';
import * as conventions from '../test/fixtures/llm-spans.ts';

const SPANS_PER_REQUEST = 100;
const REQUESTS = 50;
const ROUNDS = 5;

function llmSpan(i: number, traceId: Uint8Array, parent: Uint8Array | undefined): OtlpSpanInput {
  const start = 1_714_557_600_000_000_000n + BigInt(i) * 1_234_567n;
  const question = `Question ${i}: summarise the quarterly report for region ${i % 7} in three bullet points, please.`;
  const answer = `- Revenue grew ${i % 13}% quarter over quarter.\n- Costs were flat.\n- Outlook: cautious optimism for region ${i % 7}.`;
  const messages = [
    { role: 'system', parts: [{ type: 'text', content: 'You are a concise financial analyst. Answer in bullet points.' }] },
    { role: 'user', parts: [{ type: 'text', content: question }] },
  ];
  const output = [{ role: 'assistant', parts: [{ type: 'text', content: answer }], finish_reason: 'stop' }];
  return {
    traceId,
    spanId: randomBytes(8),
    ...(parent === undefined ? {} : { parentSpanId: parent }),
    name: 'chat gpt-4o-mini',
    kind: 3,
    startTimeUnixNano: start,
    endTimeUnixNano: start + 812_345_678n,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 512,
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.id': `chatcmpl-${i}abcdefghijklmnop`,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 120 + (i % 50),
      'gen_ai.usage.output_tokens': 40 + (i % 20),
      'gen_ai.input.messages': JSON.stringify(messages),
      'gen_ai.output.messages': JSON.stringify(output),
      'server.address': 'api.openai.com',
      'server.port': 443,
      'ag.data.parameters': `@ag.type=json:${JSON.stringify({ model: 'gpt-4o-mini', temperature: 0.2 })}`,
      'ag.refs.application.id': '0190c0de-0000-7000-8000-000000000001',
      'logfire.msg': `chat gpt-4o-mini ${i}`,
      'logfire.span_type': 'span',
      'code.filepath': 'app/agents/analyst.py',
      'code.lineno': 42,
    },
    events: [{ name: 'gen_ai.content.prompt', timeUnixNano: start + 1000n, attributes: { 'gen_ai.prompt': question } }],
    status: { code: 1 },
  };
}

function request(): Uint8Array {
  const spans: OtlpSpanInput[] = [];
  let traceId = randomBytes(16);
  let root: Uint8Array | undefined;
  for (let i = 0; i < SPANS_PER_REQUEST; i++) {
    if (i % 10 === 0) {
      traceId = randomBytes(16);
      root = undefined;
    }
    const span = llmSpan(i, traceId, root);
    root ??= span.spanId as Uint8Array;
    spans.push(span);
  }
  return encodeExportTraceServiceRequest({
    resourceSpans: [{ resource: { attributes: { 'service.name': 'bench' } }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }],
  });
}

function measure(label: string, bodies: Uint8Array[], run: (body: Uint8Array) => number): void {
  let best = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let spans = 0;
    const t0 = process.hrtime.bigint();
    for (const body of bodies) spans += run(body);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    best = Math.max(best, spans / seconds);
  }
  console.log(`${label}: ${Math.round(best).toLocaleString('en-US')} spans/s (best of ${ROUNDS} rounds)`);
}

const bodies = Array.from({ length: REQUESTS }, request);
const bytes = bodies.reduce((n, b) => n + b.length, 0);
console.log(`${REQUESTS} requests × ${SPANS_PER_REQUEST} spans, ${Math.round(bytes / (REQUESTS * SPANS_PER_REQUEST))} bytes/span on the wire`);

measure('decode + adapt (this package)', bodies, (body) => {
  const result = decodeOtlpTraces(body);
  if (!result.ok) throw new Error(result.reason);
  return result.spans.length;
});
measure('decode only    (this package)', bodies, (body) => {
  const result = decodeOtlpTraces(body, { adapt: false });
  if (!result.ok) throw new Error(result.reason);
  return result.spans.length;
});

const protoDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'proto');
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => join(protoDir, target);
root.loadSync('opentelemetry/proto/collector/trace/v1/trace_service.proto');
const Request = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
measure('protobufjs reflection Type.decode + toObject (no conversion)', bodies, (body) => {
  const message = Request.decode(body);
  const object = Request.toObject(message, { longs: String, bytes: String }) as {
    resourceSpans: { scopeSpans: { spans: unknown[] }[] }[];
  };
  return object.resourceSpans.reduce((n, rs) => n + rs.scopeSpans.reduce((m, ss) => m + ss.spans.length, 0), 0);
});

console.log('\ndecode + adapt per convention (test fixtures, 100 spans per request):');
for (const [name, attributes] of Object.entries(conventions) as Array<[string, OtlpAttributesInput]>) {
  const fixtureBodies = Array.from({ length: 30 }, () =>
    requestOf(Array.from({ length: SPANS_PER_REQUEST }, () => span({ spanId: randomBytes(8), attributes }))),
  );
  const perSpan = Math.round((fixtureBodies[0]?.length ?? 0) / SPANS_PER_REQUEST);
  measure(`  ${name.padEnd(20)} ${String(perSpan).padStart(5)} B/span`, fixtureBodies, (body) => {
    const result = decodeOtlpTraces(body);
    if (!result.ok) throw new Error(result.reason);
    return result.spans.length;
  });
}
