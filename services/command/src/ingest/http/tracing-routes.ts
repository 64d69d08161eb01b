// Write side of tracing: native, canonical, deprecated and simple shapes → span events.
import type { Request } from 'express';
import { otelTracingRequest, simpleTraceEdit, simpleTraceRequest, traceRequest, tracesRequest, type SpanInput } from '@llm/contracts';
import { RequestValidationError, validate, type Handlers, type Guards } from '@llm/http';
import { invalid } from '@llm/errors';
import { parseTraceId, type RawSpan } from '@llm/span-model';
import type { SpanAppender } from '../adapters/span-appender.ts';
import { flattenTree, topLevel } from '../domain/flatten-tree.ts';
import type { QuotaGate } from '../../quota/adapters/quota-gate.ts';
import type { IngestPressure } from '../adapters/ingest-pressure.ts';
import type { PreparedSpans } from '../domain/prepare-spans.ts';
import { checkRoot, checkSameTrace } from '../domain/trace-payload-rules.ts';
import { simpleTraceSpan } from '../domain/simple-trace.ts';
import { findSimpleTrace, type TraceLookup } from '../adapters/trace-lookup.ts';
import type { RedactionPolicies } from '../adapters/redaction-policies.ts';
import { appendMetaOf, TraceWrites } from '../adapters/trace-writes.ts';

const metaOf = appendMetaOf;

/** Links response of the deprecated endpoints, with the rejected spans reported (never silent). */
function linksBody(p: PreparedSpans) {
  const body: Record<string, unknown> = {
    count: p.accepted.length,
    links: p.accepted.map((s) => ({ trace_id: s.trace_id, span_id: s.span_id })),
  };
  if (p.rejected.length) body.rejected = { count: p.rejected.length, spans: p.rejected };
  return body;
}

function otelSpans(body: { spans?: SpanInput[] | null; traces?: Record<string, { spans?: Record<string, unknown> | null }> | null }): RawSpan[] {
  if (body.spans) return body.spans as RawSpan[];
  if (body.traces) return Object.values(body.traces).flatMap((t) => flattenTree(t.spans as Parameters<typeof flattenTree>[0]));
  return [];
}

/**
 * `traces` reads the stored simple trace for PATCH/DELETE /simple/traces/{id} (503 without it);
 * `editSpans` guards those two (the edit_spans permission);
 * `redaction` gives each project's redaction policy, applied to the normalised spans before the append.
 */
export interface TracingRouteDeps {
  appender: SpanAppender;
  quota: QuotaGate;
  /** The stored simple traces (PATCH/DELETE /simple/traces); none = those routes answer 503. */
  traces?: TraceLookup | undefined;
  pressure?: IngestPressure | undefined;
  redaction?: RedactionPolicies | undefined;
}

export function tracingRoutes(deps: TracingRouteDeps, guards: Guards<'auth' | 'editSpans'>): Handlers {
  const { appender, quota, traces, pressure, redaction } = deps;
  const writes = new TraceWrites({ appender, quota, pressure, redaction });
  const ingest = (req: Request, raw: RawSpan[]): Promise<PreparedSpans> => writes.ingest(req, raw);
  const replaceTrace = (req: Request, traceId: string, raw: RawSpan[]): Promise<PreparedSpans> => writes.replace(req, traceId, raw);

  const pathTraceId = (req: Request, message = 'Invalid trace_id'): string => {
    const r = parseTraceId(String(req.params.trace_id));
    if (!r.ok) throw invalid('invalid_trace_id', message);
    return r.value;
  };

  /** A malformed simple-trace id is a path validation error (422), as the typed path parameter. */
  const simpleTraceId = (req: Request): string => {
    const r = parseTraceId(String(req.params.trace_id));
    if (!r.ok) throw new RequestValidationError([{ loc: ['path', 'trace_id'], msg: 'value is not a valid trace id', type: 'value_error' }]);
    return r.value;
  };

  return {
    'tracing.spans.ingest': [...guards.auth, async (req, res) => {
      const body = validate(otelTracingRequest, req.body);
      res.status(202).json(linksBody(await ingest(req, otelSpans(body))));
    }],
    'tracing.traces.create': [...guards.auth, async (req, res) => {
      const body = validate(otelTracingRequest, req.body);
      if (!body.spans && body.traces && Object.keys(body.traces).length > 1) throw invalid('too_many_traces', 'Too many traces');
      const top = body.spans ?? (body.traces ? topLevel(Object.values(body.traces)[0]?.spans) : []);
      const root = checkRoot(top);
      if (!root.ok) throw invalid('bad_trace_payload', root.error);
      res.status(202).json(linksBody(await ingest(req, otelSpans(body))));
    }],
    'tracing.traces.edit': [...guards.auth, async (req, res) => {
      const body = validate(otelTracingRequest, req.body);
      if (!body.spans && body.traces && Object.keys(body.traces).length > 1) throw invalid('too_many_traces', 'Too many traces');
      const raw = otelSpans(body);
      if (raw.length === 0) throw invalid('bad_trace_payload', 'Missing spans');
      const same = checkSameTrace(String(req.params.trace_id), raw);
      if (!same.ok) throw invalid('bad_trace_payload', same.error);
      const top = body.spans ?? topLevel(Object.values(body.traces ?? {})[0]?.spans);
      const root = checkRoot(top);
      if (!root.ok) throw invalid('bad_trace_payload', root.error);
      res.status(202).json(linksBody(await replaceTrace(req, same.value, raw)));
    }],
    'tracing.traces.delete': [...guards.auth, async (req, res) => {
      const traceId = pathTraceId(req);
      await appender.delete(traceId, metaOf(req));
      // Deletion is asynchronous like every write: the count of removed spans is not known here.
      res.status(202).json({ count: 0, links: [], trace_id: traceId });
    }],
    'traces.create': [...guards.auth, async (req, res) => {
      const body = validate(traceRequest, req.body);
      if (!body.trace || !body.trace.trace_id) throw invalid('bad_trace_payload', 'Missing trace');
      const root = checkRoot(topLevel(body.trace.spans));
      if (!root.ok) throw invalid('bad_trace_payload', root.error);
      const p = await ingest(req, flattenTree(body.trace.spans));
      const first = p.accepted[0];
      res.status(202).json(first ? { count: 1, trace_id: first.trace_id, ...rejectedOf(p) } : { count: 0, ...rejectedOf(p) });
    }],
    'traces.ingest': [...guards.auth, async (req, res) => {
      const body = validate(tracesRequest, req.body);
      const traces = (body.traces ?? []).filter((t) => t.trace_id);
      if (traces.length === 0) throw invalid('bad_trace_payload', 'Missing traces');
      const p = await ingest(req, traces.flatMap((t) => flattenTree(t.spans)));
      const ids = [...new Set(p.accepted.map((s) => s.trace_id))];
      res.status(202).json({ count: ids.length, trace_ids: ids, ...rejectedOf(p) });
    }],
    'traces.edit': [...guards.auth, async (req, res) => {
      const body = validate(traceRequest, req.body);
      if (!body.trace || !body.trace.trace_id) throw invalid('bad_trace_payload', 'Missing trace');
      const raw = flattenTree(body.trace.spans);
      if (raw.length === 0) throw invalid('bad_trace_payload', 'Missing spans');
      const same = checkSameTrace(String(req.params.trace_id), raw, body.trace.trace_id);
      if (!same.ok) throw invalid('bad_trace_payload', same.error);
      const root = checkRoot(topLevel(body.trace.spans));
      if (!root.ok) throw invalid('bad_trace_payload', root.error);
      await replaceTrace(req, same.value, raw);
      res.status(202).json({ count: 1, trace_id: same.value });
    }],
    'traces.delete': [...guards.auth, async (req, res) => {
      const traceId = pathTraceId(req);
      await appender.delete(traceId, metaOf(req));
      res.status(202).json({ count: 1, trace_id: traceId });
    }],
    'simple.traces.create': [...guards.auth, async (req, res) => {
      const { trace } = validate(simpleTraceRequest, req.body);
      const built = simpleTraceSpan(trace, new Date().toISOString());
      const p = await ingest(req, [built.raw]);
      if (p.accepted.length === 0) throw invalid('invalid_simple_trace', p.rejected.map((r) => r.reason).join('; '));
      const out: Record<string, unknown> = {
        trace_id: built.traceId, span_id: built.spanId, origin: trace.origin, kind: trace.kind, channel: trace.channel,
        data: trace.data, references: trace.references, links: trace.links,
      };
      if (trace.tags) out.tags = trace.tags;
      if (trace.meta) out.meta = trace.meta;
      res.status(202).json({ count: 1, trace: out });
    }],
    // PATCH and DELETE need the stored trace (root span id, origin/kind/channel), which only the
    // span store knows: read through the TraceLookup port, written as the usual trace replacement
    // or deletion event.
    'simple.traces.edit': [...guards.auth, ...guards.editSpans, async (req, res) => {
      const traceId = simpleTraceId(req);
      const { trace } = validate(simpleTraceEdit, req.body);
      const stored = await findSimpleTrace(traces, req.scope.projectId, traceId);
      if (!stored) { res.json({ count: 0 }); return; }
      const next = {
        origin: stored.origin, kind: stored.kind, channel: stored.channel, data: trace.data,
        tags: trace.tags === undefined ? (stored.tags ?? null) : trace.tags,
        meta: trace.meta === undefined ? (stored.meta ?? null) : trace.meta,
        references: trace.references ?? stored.references,
        links: trace.links ?? stored.links,
      };
      const built = simpleTraceSpan(next, stored.created_at, { traceId: stored.trace_id, spanId: stored.span_id });
      await replaceTrace(req, stored.trace_id, [built.raw]);
      const out: Record<string, unknown> = {
        trace_id: stored.trace_id, span_id: stored.span_id, origin: next.origin, kind: next.kind, channel: next.channel,
        data: next.data, references: next.references, links: next.links,
      };
      if (next.tags) out.tags = next.tags;
      if (next.meta) out.meta = next.meta;
      res.json({ count: 1, trace: out });
    }],
    'simple.traces.delete': [...guards.auth, ...guards.editSpans, async (req, res) => {
      const traceId = simpleTraceId(req);
      const stored = await findSimpleTrace(traces, req.scope.projectId, traceId);
      if (!stored) { res.json({ count: 0 }); return; }
      await appender.delete(stored.trace_id, metaOf(req));
      res.json({ count: 1, link: { trace_id: stored.trace_id, span_id: stored.span_id } });
    }],
  };
}

function rejectedOf(p: PreparedSpans): Record<string, unknown> {
  return p.rejected.length ? { rejected: { count: p.rejected.length, spans: p.rejected } } : {};
}
