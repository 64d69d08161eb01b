import { cleanAgDraft, finishAg, moveToUnsupported, type AgDraft } from './clean-ag.ts';
import { COST_SPAN_TYPES, computeCosts } from './costs.ts';
import { parseSpanId, parseTraceId, parseUuid } from './ids.ts';
import { getOwn, isJsonObject } from './json-object.ts';
import { computeSpanHashes } from './span-hashes.ts';
import {
  SPAN_KINDS,
  SPAN_TYPES,
  STATUS_CODES,
  type JsonValue,
  type RawSpan,
  type Span,
  type SpanEvent,
  type SpanKind,
  type SpanLink,
  type SpanReference,
  type SpanType,
  type StatusCode,
} from './span.ts';
import { formatTimestamp, parseTimestampMicros } from './timestamps.ts';
import { unflatten } from './unflatten.ts';
import { capJsonDepth } from './json-depth.ts';

export interface NormalizeOptions {
  /** The current time (ISO string or epoch number) for spans sent without any time; default the clock. */
  now?: () => string | number;
}

export type NormalizeResult = { ok: true; span: Span } | { ok: false; error: string };

const SPAN_TYPE_SET: ReadonlySet<string> = new Set(SPAN_TYPES);
// Enum names are matched case-insensitively, with or without their prefix (`server`, `SPAN_KIND_SERVER`).
const SPAN_KIND_BY_NAME = enumLookup(SPAN_KINDS, 'SPAN_KIND_');
const STATUS_CODE_BY_NAME = enumLookup(STATUS_CODES, 'STATUS_CODE_');

/**
 * One raw span (native JSON or OTLP-decoded) → a canonical span, or the reason it is rejected.
 * Rejected (never partially kept): an invalid trace/span/parent/link id, an invalid or ambiguous
 * timestamp, an unknown span_kind/status_code, a non-object attributes/event/link/reference.
 * Everything else is accepted; bad `ag` content moves to `ag.unsupported` (see cleanAg).
 *
 * Derived here, per span (reference §1.3): missing times, default name, span_type, duration,
 * error count, references, hashes, session/user ids of root spans, and incremental costs.
 * `trace_type` is only this span's own view (its explicit `ag.type.trace`, else whether it has
 * links); `deriveTraceTypes` settles it per trace. Cumulative metrics are `rollupTrace`'s job.
 *
 * Pure: never mutates `raw`; sub-objects that need no change (inputs, outputs, meta…) are shared
 * with it rather than copied.
 */
export function normalizeSpan(raw: RawSpan, options: NormalizeOptions = {}): NormalizeResult {
  if (!isObject(raw)) return failure('span must be an object');
  const traceId = parseTraceId(raw.trace_id);
  if (!traceId.ok) return failure(`trace_id: ${traceId.error}`);
  const spanId = parseSpanId(raw.span_id);
  if (!spanId.ok) return failure(`span_id: ${spanId.error}`);
  let parentId: string | undefined;
  if (raw.parent_id !== undefined && raw.parent_id !== null && raw.parent_id !== '') {
    const parent = parseSpanId(raw.parent_id);
    if (!parent.ok) return failure(`parent_id: ${parent.error}`);
    parentId = parent.value;
  }

  const spanKind = enumValue(raw.span_kind, SPAN_KIND_BY_NAME, 'SPAN_KIND_UNSPECIFIED');
  if (spanKind === undefined) return failure(`span_kind: '${String(raw.span_kind)}' is not a span kind`);
  const statusCode = enumValue(raw.status_code, STATUS_CODE_BY_NAME, 'STATUS_CODE_UNSET');
  if (statusCode === undefined) return failure(`status_code: '${String(raw.status_code)}' is not a status code`);

  let start: number | undefined;
  let end: number | undefined;
  if (raw.start_time !== undefined && raw.start_time !== null) {
    const r = parseTimestampMicros(raw.start_time);
    if (!r.ok) return failure(`start_time: ${r.error}`);
    start = r.value;
  }
  if (raw.end_time !== undefined && raw.end_time !== null) {
    const r = parseTimestampMicros(raw.end_time);
    if (!r.ok) return failure(`end_time: ${r.error}`);
    end = r.value;
  }
  start ??= end ?? nowMicros(options);
  end ??= start;

  const rawAttributes = raw.attributes;
  if (rawAttributes !== undefined && rawAttributes !== null && !isJsonObject(rawAttributes)) {
    return failure('attributes: must be an object');
  }
  const attributes = rawAttributes === undefined || rawAttributes === null ? {} : unflatten(capJsonDepth(rawAttributes));
  const draft = cleanAgDraft(getOwn(attributes, 'ag'));

  const events: SpanEvent[] = [];
  let exceptions = 0;
  if (raw.events !== undefined && raw.events !== null) {
    if (!Array.isArray(raw.events)) return failure('events: must be a list');
    for (let i = 0; i < raw.events.length; i++) {
      const e: unknown = raw.events[i];
      if (!isObject(e) || typeof e.name !== 'string') return failure(`events[${i}]: must be an object with a string name`);
      let at = start;
      if (e.timestamp !== undefined && e.timestamp !== null) {
        const r = parseTimestampMicros(e.timestamp);
        if (!r.ok) return failure(`events[${i}].timestamp: ${r.error}`);
        at = r.value;
      }
      const event: SpanEvent = { name: e.name, timestamp: formatTimestamp(at) };
      if (e.attributes !== undefined && e.attributes !== null) {
        if (!isJsonObject(e.attributes)) return failure(`events[${i}].attributes: must be an object`);
        event.attributes = capJsonDepth(e.attributes);
      }
      if (e.name === 'exception') exceptions++;
      events.push(event);
    }
  }

  // Present-but-empty differs from absent: it is what makes a trace an annotation.
  let links: SpanLink[] | undefined;
  if (raw.links !== undefined && raw.links !== null) {
    if (!Array.isArray(raw.links)) return failure('links: must be a list');
    links = [];
    for (let i = 0; i < raw.links.length; i++) {
      const l: unknown = raw.links[i];
      if (!isObject(l)) return failure(`links[${i}]: must be an object`);
      const t = parseTraceId(l.trace_id);
      if (!t.ok) return failure(`links[${i}].trace_id: ${t.error}`);
      const s = parseSpanId(l.span_id);
      if (!s.ok) return failure(`links[${i}].span_id: ${s.error}`);
      // A link without attributes is kept (the reference system drops the whole span).
      const a = l.attributes ?? {};
      if (!isJsonObject(a)) return failure(`links[${i}].attributes: must be an object`);
      links.push({ trace_id: t.value, span_id: s.value, attributes: capJsonDepth(a) });
    }
  }

  const spanType = resolveSpanType(raw.span_type, draft);

  if (end > start) draft.metrics.duration.cumulative = Math.round(end - start) / 1000;
  if (events.length > 0) draft.metrics.errors.incremental = exceptions;

  let references: SpanReference[];
  if (draft.references !== undefined) {
    references = [];
    for (const key in draft.references) {
      references.push({ ...(draft.references[key] as SpanReference), attributes: { key } });
    }
  } else {
    const r = normalizeReferences(raw.references);
    if (typeof r === 'string') return failure(r);
    references = r;
  }

  if (COST_SPAN_TYPES.has(spanType)) applyCosts(draft);

  attributes.ag = finishAg(draft);

  const span: Span = {
    trace_id: traceId.value,
    span_id: spanId.value,
    span_name: '',
    span_kind: spanKind,
    span_type: spanType,
    trace_type: draft.traceType ?? (links === undefined ? 'invocation' : 'annotation'),
    status_code: statusCode,
    start_time: formatTimestamp(start),
    end_time: formatTimestamp(end),
    attributes,
    events,
    references,
    hashes: computeSpanHashes(references, links),
  };
  if (parentId !== undefined) span.parent_id = parentId;
  const name = raw.span_name;
  // No name: a stable stand-in derived from the span id (the reference draws 12 random hex), so
  // a retried or replayed ingest yields the same span.
  span.span_name = typeof name === 'string' ? name : name === undefined || name === null ? spanId.value.slice(0, 12) : String(name);
  if (raw.status_message !== undefined && raw.status_message !== null) span.status_message = String(raw.status_message);
  if (links !== undefined) span.links = links;
  const sessionId = (parentId === undefined ? draft.sessionId : undefined) ?? optionalString(raw.session_id);
  const userId = (parentId === undefined ? draft.userId : undefined) ?? optionalString(raw.user_id);
  if (sessionId !== undefined) span.session_id = sessionId;
  if (userId !== undefined) span.user_id = userId;
  return { ok: true, span };
}

/**
 * The top-level `span_type` wins when it is a valid type; else `ag.type.span` (OTLP adapters
 * write theirs there); else `task`. Whatever loses is kept in `ag.unsupported`.
 */
function resolveSpanType(given: unknown, draft: AgDraft): SpanType {
  let spanType: SpanType = draft.spanType ?? 'task';
  if (given !== undefined && given !== null && given !== '') {
    const t = typeof given === 'string' ? given.toLowerCase() : '';
    if (SPAN_TYPE_SET.has(t)) {
      if (draft.spanType !== undefined && draft.spanType !== t) moveToUnsupported(draft, ['type', 'span'], draft.spanType);
      spanType = t as SpanType;
    } else {
      moveToUnsupported(draft, ['span_type'], given as JsonValue);
    }
  }
  draft.type.span = spanType;
  return spanType;
}

// Costs the client sent are kept (it may know its negotiated price); otherwise priced from the
// model, looked up as response model, request model, then parameters.model.
function applyCosts(draft: AgDraft): void {
  const sent = draft.metrics.costs.incremental;
  if (isJsonObject(sent) && Object.keys(sent).length > 0) return;
  const tokens = draft.metrics.tokens.incremental;
  if (!isJsonObject(tokens)) return;
  const meta = draft.rest.meta;
  const request = isJsonObject(meta) ? getOwn(meta, 'request') : undefined;
  const response = isJsonObject(meta) ? getOwn(meta, 'response') : undefined;
  const parameters = draft.data.parameters;
  const costs = computeCosts(
    [
      isJsonObject(response) ? getOwn(response, 'model') : undefined,
      isJsonObject(request) ? getOwn(request, 'model') : undefined,
      isJsonObject(parameters) ? getOwn(parameters, 'model') : undefined,
    ],
    tokens,
  );
  if (costs !== undefined) draft.metrics.costs.incremental = { prompt: costs.prompt, completion: costs.completion, total: costs.total };
}

// Top-level references (used only when `ag.references` is absent): ids must be UUIDs.
function normalizeReferences(input: unknown): SpanReference[] | string {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) return 'references: must be a list';
  const out: SpanReference[] = [];
  for (let i = 0; i < input.length; i++) {
    const r: unknown = input[i];
    if (!isObject(r)) return `references[${i}]: must be an object`;
    const ref: SpanReference = {};
    if (r.id !== undefined && r.id !== null) {
      const id = parseUuid(r.id);
      if (!id.ok) return `references[${i}].id: ${id.error}`;
      ref.id = id.value;
    }
    if (r.slug !== undefined && r.slug !== null) {
      if (typeof r.slug !== 'string') return `references[${i}].slug: must be a string`;
      ref.slug = r.slug;
    }
    if (r.version !== undefined && r.version !== null) {
      if (typeof r.version !== 'string' && typeof r.version !== 'number') return `references[${i}].version: must be a string`;
      ref.version = String(r.version);
    }
    const a = r.attributes ?? {};
    if (!isJsonObject(a)) return `references[${i}].attributes: must be an object`;
    ref.attributes = a;
    out.push(ref);
  }
  return out;
}

function nowMicros(options: NormalizeOptions): number {
  if (options.now !== undefined) {
    const r = parseTimestampMicros(options.now());
    if (r.ok) return r.value;
  }
  return Date.now() * 1000;
}

function enumLookup<T extends string>(values: readonly T[], prefix: string): ReadonlyMap<string, T> {
  const m = new Map<string, T>();
  for (const v of values) {
    m.set(v, v);
    m.set(v.slice(prefix.length), v);
  }
  return m;
}

function enumValue<T extends string>(input: unknown, lookup: ReadonlyMap<string, T>, fallback: T): T | undefined {
  if (input === undefined || input === null) return fallback;
  if (typeof input !== 'string') return undefined;
  return lookup.get(input) ?? lookup.get(input.toUpperCase());
}

function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function failure(error: string): NormalizeResult {
  return { ok: false, error };
}
