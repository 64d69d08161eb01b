// POST /simple/traces/: one annotation-style span under a fresh trace id (reference §3.3).
import { randomBytes } from 'node:crypto';
import type { JsonObject, RawSpan } from '@llm/span-model';

export interface SimpleTraceInput {
  origin: 'human' | 'auto' | 'custom';
  kind: 'adhoc' | 'eval' | 'play';
  channel: 'sdk' | 'api' | 'web' | 'otlp';
  data: Record<string, unknown>;
  tags?: Record<string, unknown> | null;
  meta?: Record<string, unknown> | null;
  references: Record<string, { id?: string | null; slug?: string | null; version?: string | number | null }>;
  links: Record<string, { trace_id: string; span_id?: string }> | Array<{ trace_id: string; span_id: string }>;
}

/** `ids` keeps an existing trace's ids (PATCH /simple/traces/{id} replaces its one span). */
export function simpleTraceSpan(t: SimpleTraceInput, nowIso: string, ids?: { traceId: string; spanId: string }): { raw: RawSpan; traceId: string; spanId: string } {
  const traceId = ids?.traceId ?? randomBytes(16).toString('hex');
  const spanId = ids?.spanId ?? randomBytes(8).toString('hex');
  const flags: Record<string, boolean> = {};
  if (t.origin === 'human') flags.is_feedback = true;
  if (t.origin === 'custom') flags.is_custom = true;
  if (t.kind === 'eval') flags.is_evaluation = true;
  if (t.channel === 'sdk') flags.is_sdk = true;
  if (t.channel === 'web') flags.is_web = true;
  const links = Array.isArray(t.links)
    ? t.links.map((l) => ({ trace_id: l.trace_id, span_id: l.span_id, attributes: { key: 'key' } }))
    : Object.entries(t.links).filter(([, l]) => l.trace_id && l.span_id).map(([k, l]) => ({ trace_id: l.trace_id, span_id: l.span_id!, attributes: { key: k } }));
  const ag: JsonObject = {
    type: { span: 'task' },
    flags,
    data: t.data as JsonObject,
    references: t.references as JsonObject,
  };
  if (t.tags) ag.tags = t.tags as JsonObject;
  if (t.meta) ag.meta = t.meta as JsonObject;
  const evaluator = t.references.evaluator?.slug;
  return {
    traceId,
    spanId,
    raw: {
      trace_id: traceId,
      span_id: spanId,
      span_name: evaluator ?? 'annotation',
      span_kind: 'SPAN_KIND_UNSPECIFIED',
      start_time: nowIso,
      end_time: nowIso,
      attributes: { ag },
      links,
    },
  };
}
