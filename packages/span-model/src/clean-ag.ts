import { parseUuid } from './ids.ts';
import { getOwn, isJsonObject } from './json-object.ts';
import { REFERENCE_KEY_SET } from './reference-keys.ts';
import { SPAN_TYPES, TRACE_TYPES, type JsonObject, type JsonValue, type SpanType, type TraceType } from './span.ts';
import { setPathLossless } from './unflatten.ts';

const SPAN_TYPE_SET: ReadonlySet<string> = new Set(SPAN_TYPES);
const TRACE_TYPE_SET: ReadonlySet<string> = new Set(TRACE_TYPES);
const SLUG = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
const NUMERIC_STRING = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * The `ag` namespace while a span is being normalised: the sections normalizeSpan reads and
 * writes (metrics, type) are at hand as objects, and later moves to `ag.unsupported` are still
 * possible. `finishAg` turns it into the stored object.
 */
export interface AgDraft {
  type: JsonObject;
  data: JsonObject;
  metrics: { duration: JsonObject; errors: JsonObject; tokens: JsonObject; costs: JsonObject };
  /** Cleaned `ag.references`: reference key → `{id?, slug?, version?}`; undefined when not sent. */
  references: JsonObject | undefined;
  spanType: SpanType | undefined;
  traceType: TraceType | undefined;
  sessionId: string | undefined;
  userId: string | undefined;
  /** The other accepted sections in input order (flags, tags, meta, exception, selector, session, user). */
  rest: JsonObject;
  unsupported: JsonObject;
  owned: Set<object>;
}

/**
 * Reference §1.2 step 3 as one object → object function: see `cleanAgDraft`.
 * Always returns `type`, `data` and `metrics` (with `duration`, `errors`, `tokens`, `costs`).
 */
export function cleanAg(ag: JsonValue | undefined): JsonObject {
  return finishAg(cleanAgDraft(ag));
}

/**
 * Cleans the `ag` namespace: what is accepted stays, everything else goes to `ag.unsupported`
 * (nothing is rejected). Unlike the reference, nothing is silently dropped either: unknown
 * reference keys, invalid slugs, `ag.refs`, extra keys of `ag.session`/`ag.user` and a
 * `meta.configuration` that cannot become `data.parameters` are moved to `ag.unsupported`; and a
 * type-invalid value moves alone (`ag.unsupported.tags.n = 5`) rather than its whole section, so
 * the valid rest stays usable. Null values are removed.
 */
export function cleanAgDraft(ag: JsonValue | undefined): AgDraft {
  const draft: AgDraft = {
    type: {},
    data: {},
    metrics: { duration: {}, errors: {}, tokens: {}, costs: {} },
    references: undefined,
    spanType: undefined,
    traceType: undefined,
    sessionId: undefined,
    userId: undefined,
    rest: {},
    unsupported: {},
    owned: new Set<object>(),
  };
  if (ag === undefined || ag === null) return draft;
  if (!isJsonObject(ag)) {
    moveToUnsupported(draft, ['_invalid'], ag);
    return draft;
  }
  const clientUnsupported = getOwn(ag, 'unsupported');
  if (clientUnsupported !== undefined && clientUnsupported !== null) {
    if (isJsonObject(clientUnsupported)) draft.unsupported = clientUnsupported; // copied on first write
    else moveToUnsupported(draft, ['_unsupported'], clientUnsupported);
  }
  let configuration: JsonValue | undefined;
  for (const key in ag) {
    const value = ag[key] as JsonValue;
    if (value === null) continue;
    switch (key) {
      case 'unsupported': break;
      case 'type': cleanType(draft, value); break;
      case 'data': cleanData(draft, value); break;
      case 'metrics': cleanMetrics(draft, value); break;
      case 'references': cleanReferences(draft, value); break;
      case 'session':
      case 'user': cleanIdentity(draft, key, value); break;
      case 'flags':
      case 'tags': {
        const cleaned = isJsonObject(value) ? cleanTagMap(draft, [key], value) : undefined;
        if (cleaned === undefined) moveToUnsupported(draft, [key], value);
        else draft.rest[key] = cleaned;
        break;
      }
      case 'meta': {
        if (!isJsonObject(value)) {
          moveToUnsupported(draft, [key], value);
        } else if (Object.hasOwn(value, 'configuration')) {
          const { configuration: c, ...meta } = value;
          configuration = c;
          draft.rest.meta = meta;
        } else {
          draft.rest.meta = value;
        }
        break;
      }
      case 'exception':
        if (isJsonObject(value)) draft.rest[key] = value;
        else moveToUnsupported(draft, [key], value);
        break;
      case 'selector': {
        if (!isJsonObject(value)) {
          moveToUnsupported(draft, [key], value);
          break;
        }
        const selector: JsonObject = {};
        for (const k in value) {
          const v = value[k] as JsonValue;
          if (typeof v === 'string') selector[k] = v;
          else if (v !== null) moveToUnsupported(draft, [key, k], v);
        }
        draft.rest.selector = selector;
        break;
      }
      // ag.refs, ag.agent, ag.hashes, ag.links and anything unknown: kept, but out of the way.
      default: moveToUnsupported(draft, [key], value);
    }
  }
  if (configuration !== undefined && configuration !== null) {
    // Legacy SDKs put the prompt/model configuration in meta; it is what data.parameters means now.
    const parameters = asObject(configuration);
    const current = draft.data.parameters;
    if (parameters !== undefined && (current === undefined || (isJsonObject(current) && isEmpty(current)))) {
      draft.data.parameters = parameters;
    } else {
      moveToUnsupported(draft, ['meta', 'configuration'], configuration);
    }
  }
  return draft;
}

/** The stored `ag` object: type, data, metrics first, then the other sections, `unsupported` last when non-empty. */
export function finishAg(draft: AgDraft): JsonObject {
  const ag: JsonObject = { type: draft.type, data: draft.data, metrics: draft.metrics };
  if (draft.references !== undefined) ag.references = draft.references;
  for (const key in draft.rest) ag[key] = draft.rest[key] as JsonValue;
  if (!isEmpty(draft.unsupported)) ag.unsupported = draft.unsupported;
  return ag;
}

/** Keeps `value` under `ag.unsupported.<path>`; collisions keep both values (see unflatten). */
export function moveToUnsupported(draft: AgDraft, path: readonly string[], value: JsonValue): void {
  if (!draft.owned.has(draft.unsupported)) {
    draft.unsupported = { ...draft.unsupported };
    draft.owned.add(draft.unsupported);
  }
  setPathLossless(draft.unsupported, path, value, draft.owned);
}

function cleanType(draft: AgDraft, value: JsonValue): void {
  if (!isJsonObject(value)) {
    moveToUnsupported(draft, ['type'], value);
    return;
  }
  let node: JsonValue | undefined;
  for (const k in value) {
    const v = value[k] as JsonValue;
    if (v === null) continue;
    if (k === 'span') {
      const t = typeof v === 'string' ? v.toLowerCase() : undefined;
      if (t !== undefined && SPAN_TYPE_SET.has(t)) draft.spanType = t as SpanType;
      else moveToUnsupported(draft, ['type', k], v);
    } else if (k === 'trace') {
      const t = typeof v === 'string' ? v.toLowerCase() : undefined;
      if (t !== undefined && TRACE_TYPE_SET.has(t)) draft.traceType = t as TraceType;
      else moveToUnsupported(draft, ['type', k], v);
    } else if (k === 'node') {
      node = v;
    } else {
      moveToUnsupported(draft, ['type', k], v);
    }
  }
  // `ag.type.node` is what the Agenta SDK emits for the span type; it stands in for a missing `span`.
  if (node !== undefined) {
    const t = typeof node === 'string' ? node.toLowerCase() : undefined;
    if (draft.spanType === undefined && t !== undefined && SPAN_TYPE_SET.has(t)) draft.spanType = t as SpanType;
    else if (t !== draft.spanType) moveToUnsupported(draft, ['type', 'node'], node);
  }
  if (draft.traceType !== undefined) draft.type.trace = draft.traceType;
  if (draft.spanType !== undefined) draft.type.span = draft.spanType;
}

function cleanData(draft: AgDraft, value: JsonValue): void {
  if (!isJsonObject(value)) {
    moveToUnsupported(draft, ['data'], value);
    return;
  }
  for (const k in value) {
    const v = value[k] as JsonValue;
    if (v === null) continue;
    switch (k) {
      case 'parameters':
      case 'inputs':
      case 'internals': {
        const o = asObject(v);
        if (o === undefined) moveToUnsupported(draft, ['data', k], v);
        else draft.data[k] = o;
        break;
      }
      // Outputs may be any JSON, and a string output is a string, even if it looks like JSON.
      case 'outputs': draft.data[k] = v; break;
      default: moveToUnsupported(draft, ['data', k], v);
    }
  }
}

function cleanMetrics(draft: AgDraft, value: JsonValue): void {
  if (!isJsonObject(value)) {
    moveToUnsupported(draft, ['metrics'], value);
    return;
  }
  for (const k in value) {
    const v = value[k] as JsonValue;
    if (v === null) continue;
    if (k === 'duration' || k === 'errors') cleanScalarMetric(draft, k, v);
    else if (k === 'tokens' || k === 'costs') cleanVectorMetric(draft, k, v);
    else moveToUnsupported(draft, ['metrics', k], v);
  }
}

function cleanScalarMetric(draft: AgDraft, name: 'duration' | 'errors', value: JsonValue): void {
  if (!isJsonObject(value)) {
    moveToUnsupported(draft, ['metrics', name], value);
    return;
  }
  const target = draft.metrics[name];
  for (const k in value) {
    const v = value[k] as JsonValue;
    if (v === null) continue;
    if (k !== 'cumulative' && k !== 'incremental') {
      moveToUnsupported(draft, ['metrics', name, k], v);
      continue;
    }
    let n = toNumber(v);
    let rest = false;
    if (n === undefined && isJsonObject(v)) {
      // A dict is read through its total/count/value, as the reference does.
      for (const field of ['total', 'count', 'value'] as const) {
        n = toNumber(getOwn(v, field));
        if (n !== undefined) {
          rest = Object.keys(v).length > 1;
          break;
        }
      }
    }
    if (n === undefined) {
      moveToUnsupported(draft, ['metrics', name, k], v);
    } else {
      target[k] = n;
      // The dict's other fields (a unit, …) are not lost either.
      if (rest) moveToUnsupported(draft, ['metrics', name, k], v);
    }
  }
}

function cleanVectorMetric(draft: AgDraft, name: 'tokens' | 'costs', value: JsonValue): void {
  if (!isJsonObject(value)) {
    moveToUnsupported(draft, ['metrics', name], value);
    return;
  }
  const target = draft.metrics[name];
  for (const k in value) {
    const v = value[k] as JsonValue;
    if (v === null) continue;
    if ((k !== 'cumulative' && k !== 'incremental') || !isJsonObject(v)) {
      moveToUnsupported(draft, ['metrics', name, k], v);
      continue;
    }
    const vector: JsonObject = {};
    for (const c in v) {
      const cv = v[c] as JsonValue;
      if (cv === null) continue;
      const n = toNumber(cv);
      if (n === undefined) moveToUnsupported(draft, ['metrics', name, k, c], cv);
      else vector[c] = n;
    }
    target[k] = vector;
  }
}

function cleanReferences(draft: AgDraft, value: JsonValue): void {
  if (!isJsonObject(value)) {
    moveToUnsupported(draft, ['references'], value);
    return;
  }
  const references: JsonObject = {};
  for (const key in value) {
    const v = value[key] as JsonValue;
    if (v === null) continue;
    if (!REFERENCE_KEY_SET.has(key) || !isJsonObject(v)) {
      moveToUnsupported(draft, ['references', key], v);
      continue;
    }
    let id: string | undefined;
    let slug: string | undefined;
    let version: string | undefined;
    for (const f in v) {
      const fv = v[f] as JsonValue;
      if (fv === null) continue;
      if (f === 'id') {
        const r = parseUuid(fv);
        if (r.ok) id = r.value;
        else moveToUnsupported(draft, ['references', key, f], fv);
      } else if (f === 'slug') {
        if (typeof fv === 'string' && SLUG.test(fv)) slug = fv;
        else moveToUnsupported(draft, ['references', key, f], fv);
      } else if (f === 'version') {
        if (typeof fv === 'string') version = fv;
        else if (typeof fv === 'number') version = String(fv);
        else moveToUnsupported(draft, ['references', key, f], fv);
      } else {
        moveToUnsupported(draft, ['references', key, f], fv);
      }
    }
    const entry: JsonObject = {};
    if (id !== undefined) entry.id = id;
    if (slug !== undefined) entry.slug = slug;
    if (version !== undefined) entry.version = version;
    references[key] = entry;
  }
  draft.references = references;
}

function cleanIdentity(draft: AgDraft, name: 'session' | 'user', value: JsonValue): void {
  if (!isJsonObject(value)) {
    moveToUnsupported(draft, [name], value);
    return;
  }
  const section: JsonObject = {};
  for (const k in value) {
    const v = value[k] as JsonValue;
    if (v === null) continue;
    if (k === 'id' && (typeof v === 'string' || typeof v === 'number')) {
      const id = String(v);
      section.id = id;
      if (name === 'session') draft.sessionId = id;
      else draft.userId = id;
    } else {
      moveToUnsupported(draft, [name, k], v);
    }
  }
  draft.rest[name] = section;
}

// Flags and tags: strings, booleans (0/1 read as booleans) and nested maps of those.
function cleanTagMap(draft: AgDraft, path: readonly string[], value: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k in value) {
    const v = value[k] as JsonValue;
    if (v === null) continue;
    if (typeof v === 'string' || typeof v === 'boolean') out[k] = v;
    else if (v === 0 || v === 1) out[k] = v === 1;
    else if (isJsonObject(v)) out[k] = cleanTagMap(draft, [...path, k], v);
    else moveToUnsupported(draft, [...path, k], v);
  }
  return out;
}

function asObject(v: JsonValue): JsonObject | undefined {
  if (isJsonObject(v)) return v;
  if (typeof v !== 'string') return undefined;
  // Parse only what can be an object: JSON.parse throwing on every plain-text input is slow.
  const s = v.trimStart();
  if (s.charCodeAt(0) !== 123 /* { */) return undefined;
  try {
    const parsed: unknown = JSON.parse(s);
    return isJsonObject(parsed) ? (parsed as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

function toNumber(v: JsonValue | undefined): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && NUMERIC_STRING.test(v)) return Number(v);
  return undefined;
}

function isEmpty(o: JsonObject): boolean {
  for (const _ in o) return false;
  return true;
}
