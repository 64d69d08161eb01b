// The OpenTelemetry JS SDK's own serializers (what its OTLP/HTTP JSON and protobuf exporters send)
// against our two decoders: the same spans, serialized by each, decode to the same RawSpans.
import { describe, expect, it } from 'vitest';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { decodeOtlpJsonTraces, decodeOtlpTraces } from '../src/index.ts';

function finishedSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('serializers');
  const parent = tracer.startSpan('agent', { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'app.list': ['a', 'b'], 'app.flags': [true, false], 'app.ints': [1, 2], 'app.big': 2 ** 40, 'app.ratio': 0.5 } });
  const other = tracer.startSpan('other');
  other.end();
  const llm = tracer.startSpan('chat gpt-4o', {
    kind: SpanKind.CLIENT,
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20 },
    links: [{ context: other.spanContext(), attributes: { 'link.kind': 'follows' } }],
  }, trace.setSpan(context.active(), parent));
  llm.addEvent('retry', { attempt: 2 });
  llm.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream said no' });
  llm.end();
  parent.end();
  return exporter.getFinishedSpans();
}

describe('the OpenTelemetry JS serializers', () => {
  it('when the same spans are serialized as OTLP/JSON and as protobuf by the SDK, then both decode to the same spans', () => {
    const spans = finishedSpans();
    const json = JsonTraceSerializer.serializeRequest(spans)!;
    const protobuf = ProtobufTraceSerializer.serializeRequest(spans)!;
    for (const adapt of [false, true]) {
      const fromJson = decodeOtlpJsonTraces(json, { adapt });
      expect(fromJson).toEqual(decodeOtlpTraces(protobuf, { adapt }));
      expect(fromJson).toMatchObject({ ok: true, rejected: 0 });
    }
    const decoded = decodeOtlpJsonTraces(json, { adapt: false });
    if (!decoded.ok) throw new Error(decoded.reason);
    const chat = decoded.spans.find((s) => s.span_name === 'chat gpt-4o')!;
    expect(chat).toMatchObject({ span_kind: 'SPAN_KIND_CLIENT', status_code: 'STATUS_CODE_ERROR', status_message: 'upstream said no', events: [{ name: 'retry', attributes: { attempt: 2 } }] });
    expect(chat.links).toHaveLength(1);
    expect(decoded.spans.find((s) => s.span_name === 'agent')!.attributes).toMatchObject({ 'app.list': ['a', 'b'], 'app.flags': [true, false], 'app.ints': [1, 2], 'app.big': 2 ** 40, 'app.ratio': 0.5 });
  });
});
