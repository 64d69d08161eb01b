// A stored root span → the simple trace of reference tracing §3.3 (and the conditions a simple-trace
// query compiles to). Origin, kind and channel are not stored as such: they are read back from the
// flags POST /simple/traces/ derived from them.
import type { JsonObject, JsonValue, Span } from '@llm/span-model';

const obj = (v: JsonValue | undefined): JsonObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);

export type Origin = 'human' | 'auto' | 'custom';
export type Kind = 'adhoc' | 'eval' | 'play';
export type Channel = 'sdk' | 'api' | 'web' | 'otlp';

/**
 * Origin from the flags: `is_feedback` → human, `is_custom` → custom, neither → auto. (The reference
 * reads "neither" as custom, losing `auto`; we keep what was sent. `play` and `otlp` set no flag,
 * so they read back as adhoc and api, as in the reference.)
 */
export function originOf(flags: JsonObject): Origin {
  if (flags.is_feedback === true) return 'human';
  return flags.is_custom === true ? 'custom' : 'auto';
}

export function simpleTraceOf(span: Span): Record<string, unknown> | undefined {
  const ag = obj(span.attributes.ag) ?? {};
  const data = obj(ag.data);
  if (!data || Object.keys(data).length === 0) return undefined;
  const flags = obj(ag.flags) ?? {};
  const links: Record<string, { trace_id: string; span_id: string }> = {};
  for (const l of span.links ?? []) {
    const key = typeof l.attributes?.key === 'string' ? l.attributes.key : 'key';
    links[key] = { trace_id: l.trace_id, span_id: l.span_id };
  }
  const out: Record<string, unknown> = {
    trace_id: span.trace_id,
    span_id: span.span_id,
    origin: originOf(flags),
    kind: flags.is_evaluation === true ? 'eval' : 'adhoc',
    channel: flags.is_sdk === true ? 'sdk' : flags.is_web === true ? 'web' : 'api',
    data,
    references: obj(ag.references) ?? {},
    links,
  };
  const tags = obj(ag.tags);
  const meta = obj(ag.meta);
  if (tags && Object.keys(tags).length) out.tags = tags;
  if (meta && Object.keys(meta).length) out.meta = meta;
  // A simple trace's span starts when it is created (or replaced): its start time is its creation time.
  out.created_at = span.start_time;
  return out;
}

export interface SimpleTraceQuery {
  trace?: {
    origin?: Origin | undefined; kind?: Kind | undefined; channel?: Channel | undefined;
    tags?: Record<string, unknown> | null | undefined; meta?: Record<string, unknown> | null | undefined;
    references?: Record<string, { id?: string | null | undefined; slug?: string | null | undefined }> | null | undefined;
    links?: Record<string, { trace_id: string; span_id: string }> | Array<{ trace_id: string; span_id: string }> | null | undefined;
  } | null | undefined;
  links?: Array<{ trace_id: string; span_id?: string | undefined }> | null | undefined;
}

const flag = (name: string, on: boolean): JsonObject => ({ field: 'attributes', key: `ag.flags.${name}`, operator: on ? 'is' : 'is_not', value: true });

/** The filtering language (tracing §5.2) for a simple-trace query: root spans of invocation or annotation traces (`traceTypes`). */
export function simpleTraceFiltering(q: SimpleTraceQuery, traceTypes: readonly string[] = ['invocation', 'annotation']): JsonObject {
  const c: JsonValue[] = [
    { field: 'parent_id', operator: 'is', value: null },
    { field: 'trace_type', operator: 'in', value: [...traceTypes] },
  ];
  const t = q.trace ?? {};
  if (t.origin === 'human') c.push(flag('is_feedback', true));
  if (t.origin === 'custom') c.push(flag('is_custom', true));
  if (t.origin === 'auto') c.push(flag('is_feedback', false), flag('is_custom', false));
  if (t.kind === 'eval') c.push(flag('is_evaluation', true));
  if (t.kind === 'adhoc') c.push(flag('is_evaluation', false));
  if (t.channel === 'sdk') c.push(flag('is_sdk', true));
  if (t.channel === 'web') c.push(flag('is_web', true));
  if (t.channel === 'api') c.push(flag('is_sdk', false), flag('is_web', false));
  for (const [section, values] of [['tags', t.tags], ['meta', t.meta]] as const) {
    for (const [k, v] of Object.entries(values ?? {})) c.push({ field: 'attributes', key: `ag.${section}.${k}`, operator: 'is', value: v as JsonValue });
  }
  for (const ref of Object.values(t.references ?? {})) {
    const probe: JsonObject = {};
    if (ref.id) probe.id = ref.id;
    if (ref.slug) probe.slug = ref.slug;
    if (Object.keys(probe).length) c.push({ field: 'references', operator: 'in', value: [probe] });
  }
  if (Array.isArray(t.links)) {
    if (t.links.length) c.push({ field: 'links', operator: 'in', value: t.links.map((l) => ({ trace_id: l.trace_id, span_id: l.span_id })) });
  } else {
    for (const l of Object.values(t.links ?? {})) c.push({ field: 'links', operator: 'in', value: [{ trace_id: l.trace_id, span_id: l.span_id }] });
  }
  if (q.links?.length) c.push({ field: 'trace_id', operator: 'in', value: q.links.map((l) => l.trace_id) });
  return { operator: 'and', conditions: c };
}
