// Conditions on the JSON array columns links, references, events and hashes. Elements are stored
// nested as the API returns them (`{trace_id, span_id, attributes:{key}}`, `{id, slug, version,
// attributes:{key}}`, `{name, timestamp, attributes}`, `{id, attributes:{key}}`), with ids
// normalised at ingest; probe values are normalised the same way before they are compared.
import { parseSpanId, parseTraceId, parseUuid, type Result } from '@llm/span-model';

import { checkList } from './compile-column-condition.ts';
import { assertNever, type Collection } from './field-catalog.ts';
import { MAX_KEY_SEGMENTS } from './limits.ts';
import type { NormalizedCondition } from './normalized-condition.ts';
import { containsJson, jsonHas, pathParams, someElement, splitKey } from './sql-json.ts';
import type { ParamSink } from './sql-params.ts';
import { done, fail, show, within, type Step } from './step.ts';

type Normalise = (v: unknown) => Result<unknown>;

const text: Normalise = (v) => (typeof v === 'string' ? { ok: true, value: v } : { ok: false, error: 'must be a string' });
const object: Normalise = (v) =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? { ok: true, value: v } : { ok: false, error: 'must be an object' };
// Versions are stored as strings; a client sending `3` means "3".
const version: Normalise = (v) =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? { ok: true, value: String(v) } : { ok: false, error: 'must be a string' };

/** The fields a probe may name per collection, each with its normalisation. */
const PROBE_FIELDS: Record<Collection, ReadonlyMap<string, Normalise>> = {
  links: new Map([['trace_id', parseTraceId], ['span_id', parseSpanId], ['attributes', object]]),
  references: new Map([['id', parseUuid], ['slug', text], ['version', version], ['attributes', object]]),
  events: new Map([['name', text], ['attributes', object]]),
  hashes: new Map([['id', parseUuid], ['attributes', object]]),
};

/** A bare string in a probe list stands for this field. */
const SHORTHAND_FIELD: Partial<Record<Collection, string>> = { events: 'name', hashes: 'id' };

export function compileCollectionCondition(column: Collection, c: NormalizedCondition, sink: ParamSink): Step<string> {
  switch (c.operator) {
    case 'in':
    case 'not_in':
      return probes(column, c, sink);
    case 'has':
    case 'has_not':
      return has(column, c, sink);
    case 'exists':
      // "Has at least one": an empty list is as good as none (links are '' when absent).
      return done(`JSONLength(${column}) > 0`);
    case 'not_exists':
      return done(`JSONLength(${column}) = 0`);
    case 'is':
    case 'is_not':
    case 'eq':
    case 'neq':
    case 'gt':
    case 'lt':
    case 'gte':
    case 'lte':
    case 'btwn':
    case 'startswith':
    case 'endswith':
    case 'contains':
    case 'matches':
    case 'like':
      return fail(`operator '${c.operator}' is not allowed for field '${column}'`);
    default:
      return assertNever(c.operator);
  }
}

/**
 * `in`: some element matches one of the probes (`all`: every probe has a matching element); a probe
 * matches an element holding all the probe's fields. The reference splits a reference probe
 * `{id, slug, version}` into single-field probes ORed together; we AND the fields of one probe, which
 * is what naming a reference by slug and version means. `not_in`: no probe matches.
 */
function probes(column: Collection, c: NormalizedCondition, sink: ParamSink): Step<string> {
  const list = checkList(c.value, c.operator);
  if (!list.ok) return list;
  const parts: string[] = [];
  for (let i = 0; i < list.value.length; i++) {
    const probe = normaliseProbe(column, list.value[i]);
    if (!probe.ok) return within(['value', i], probe);
    const r = someElement(column, [], probe.value, sink);
    if (!r.ok) return within(['value', i], r);
    parts.push(r.value);
  }
  const any = parts.join(c.all && c.operator === 'in' ? ' AND ' : ' OR ');
  return done(c.operator === 'in' ? any : `NOT (${any})`);
}

function normaliseProbe(column: Collection, raw: unknown): Step<Record<string, unknown>> {
  const shorthand = SHORTHAND_FIELD[column];
  const input = typeof raw === 'string' && shorthand !== undefined ? { [shorthand]: raw } : raw;
  const fields = PROBE_FIELDS[column];
  const allowed = [...fields.keys()].join(', ');
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return fail(`a ${column} probe must be an object with some of: ${allowed}${shorthand ? ` (or a ${shorthand} string)` : ''}`);
  }
  const entries = Object.entries(input);
  if (entries.length === 0) return fail(`a ${column} probe must name at least one of: ${allowed}`);
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    const normalise = fields.get(k);
    if (normalise === undefined) return fail(`unknown ${column} probe field ${show(k)} (allowed: ${allowed})`, [k]);
    const r = normalise(v);
    if (!r.ok) return fail(r.error, [k]);
    out[k] = r.value;
  }
  return done(out);
}

/**
 * `has`: some element holds `value` at the dotted `key` (e.g. key `attributes.key`, value
 * `invocation`; or key `slug`); without a value, some element has the key at all. Works for events
 * too, which the reference never matches. Id fields are normalised like probes.
 */
function has(column: Collection, c: NormalizedCondition, sink: ParamSink): Step<string> {
  if (c.key === undefined) return fail(`operator '${c.operator}' needs a key, e.g. 'attributes.key'`);
  const segments = splitKey(c.key, MAX_KEY_SEGMENTS);
  if (!segments.ok) return segments;
  const x = sink.lambdaVar();
  const path = pathParams(segments.value, sink);
  let match: string;
  if (c.value === undefined) {
    match = jsonHas(x, path);
  } else {
    const value = normaliseHasValue(column, segments.value, c.value);
    if (!value.ok) return value;
    const r = containsJson(x, path, value.value, sink);
    if (!r.ok) return within(['value'], r);
    match = r.value;
  }
  match = `arrayExists(${x} -> ${match}, JSONExtractArrayRaw(${column}))`;
  return done(c.operator === 'has' ? match : `NOT ${match}`);
}

function normaliseHasValue(column: Collection, segments: string[], value: unknown): Step<unknown> {
  const [first, ...rest] = segments;
  if (rest.length > 0 || first === undefined || first === 'attributes') return done(value);
  const normalise = PROBE_FIELDS[column].get(first);
  if (normalise === undefined) return done(value);
  const r = normalise(value);
  return r.ok ? done(r.value) : fail(r.error, ['value']);
}
