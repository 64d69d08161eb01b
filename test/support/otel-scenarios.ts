// Scenarios shared by the end-to-end tests of more than one deployment shape (the all-in-one app,
// the split deployment): the same client actions, the same expected answers.
import { context, trace, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { expect } from 'vitest';

// Response bodies are read loosely here, as in the test files (which turn the rule off).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

export interface ExportedGenAiTrace { traceId: string; agentSpanId: string }

/** The official OpenTelemetry SDK exports an agent span with one GenAI chat child, OTLP/HTTP protobuf. */
export async function exportGenAiTrace(baseUrl: string, headers: Record<string, string>): Promise<ExportedGenAiTrace> {
  const exporter = new OTLPTraceExporter({ url: `${baseUrl}/otlp/v1/traces`, headers });
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('e2e');
  const parent = tracer.startSpan('agent', { kind: SpanKind.SERVER, attributes: { 'gen_ai.operation.name': 'invoke_agent' } });
  const llm = tracer.startSpan('chat gpt-4o', {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.response.model': 'gpt-4o',
      'gen_ai.usage.input_tokens': 100, 'gen_ai.usage.output_tokens': 20,
    },
  }, trace.setSpan(context.active(), parent));
  llm.setStatus({ code: SpanStatusCode.OK });
  llm.end();
  parent.end();
  await provider.forceFlush();
  await provider.shutdown();
  return { traceId: parent.spanContext().traceId, agentSpanId: parent.spanContext().spanId };
}

/** True once GET /api/traces/{id} shows the exported trace with its child nested. */
export const genAiTraceArrived = (body: Body): boolean => body?.count === 1 && !!body.trace?.spans?.agent?.spans;

/** The answer of GET /api/traces/{id} for {@link exportGenAiTrace}: adapted attributes, a rolled-up parent. */
export function expectGenAiTrace(body: Body, exported: ExportedGenAiTrace): void {
  const agent = body.trace.spans.agent;
  expect(agent.span_id).toBe(exported.agentSpanId);
  expect(agent.span_kind).toBe('SPAN_KIND_SERVER');
  expect(agent.span_type).toBe('agent');
  const chat = agent.spans['chat gpt-4o'];
  expect(chat.span_type).toBe('chat');
  expect(chat.status_code).toBe('STATUS_CODE_OK');
  expect(chat.attributes.ag.meta.request.model).toBe('gpt-4o');
  expect(chat.attributes.ag.metrics.tokens.incremental).toMatchObject({ prompt: 100, completion: 20, total: 120 });
  expect(chat.attributes.ag.metrics.costs.incremental.total).toBeGreaterThan(0);
  expect(agent.attributes.ag.metrics.tokens.cumulative).toMatchObject({ prompt: 100, completion: 20, total: 120 });
  expect(chat.attributes.gen_ai.usage.input_tokens).toBe(100);
}
