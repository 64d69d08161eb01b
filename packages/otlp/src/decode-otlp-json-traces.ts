// ExportTraceServiceRequest in the OTLP/JSON encoding → RawSpan[], the same normalised form as the
// protobuf decoder (decode-otlp-traces.ts), so everything after decoding is one path. The mapping is
// proto3 JSON with OTLP's exceptions (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding):
// lowerCamelCase field names (the proto's own snake_case names are accepted too, as proto3 JSON
// parsers must), trace and span ids as hex strings, 64-bit integers as decimal strings or numbers,
// enums as numbers or names, bytes as base64.
// The protobuf decoder's rules hold here: a body that is not an ExportTraceServiceRequest (not JSON,
// a field of the wrong type, nesting deeper than 64) is refused whole; a span whose ids, kind or
// status cannot be converted is counted in `rejected`. Unknown fields are ignored, as protobuf skips
// unknown tags. Resource and scope attributes are ignored, as in the reference.

import type { JsonValue, RawSpan, SpanKind, StatusCode } from '@llm/span-model';
import { applyAdapters } from './apply-adapters.ts';
import { MAX_REJECT_REASONS, type OtlpDecodeOptions, type OtlpDecodeResult } from './decode-otlp-traces.ts';
import { setAttribute, type FlatAttributes } from './flat-attributes.ts';
import { DEFAULT_MAX_INFLATED_BYTES, inflateBody } from './inflate-body.ts';
import { unixNanosToIso } from './unix-nanos-to-iso.ts';

const SPAN_KINDS: readonly SpanKind[] = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
];
const STATUS_CODES: readonly StatusCode[] = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];

/** As in the protobuf decoder: deep enough for any real attribute, too shallow to exhaust the stack. */
const MAX_VALUE_DEPTH = 64;

/** The body is not an ExportTraceServiceRequest (the protobuf decoder's WireFormatError). */
class JsonShapeError extends Error {}

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field by its JSON name or its proto name; null (proto3 JSON's "default") is absent. */
function field(o: Obj, camel: string, snake?: string): unknown {
  const v = Object.hasOwn(o, camel) ? o[camel] : snake !== undefined && Object.hasOwn(o, snake) ? o[snake] : undefined;
  return v === null ? undefined : v;
}

function list(o: Obj, camel: string, snake: string | undefined, where: string): unknown[] {
  const v = field(o, camel, snake);
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new JsonShapeError(`${where}.${camel} is not an array`);
  return v;
}

function objectAt(v: unknown, where: string): Obj {
  if (!isObject(v)) throw new JsonShapeError(`${where} is not an object`);
  return v;
}

/** Strings as the protobuf path yields them: never a lone surrogate (it cannot decode to one). */
function text(v: unknown, where: string): string {
  if (v === undefined) return '';
  if (typeof v !== 'string') throw new JsonShapeError(`${where} is not a string`);
  return wellFormed(v);
}

/** Lone surrogates (only a JSON escape can make one) become U+FFFD, as invalid UTF-8 does in protobuf. */
const wellFormed = (s: string): string => {
  const w = s as string & { isWellFormed(): boolean; toWellFormed(): string };
  return w.isWellFormed() ? s : w.toWellFormed();
};

/**
 * Decodes an OTLP/JSON trace export (gzip/zlib bodies are inflated first, as for protobuf). Spans
 * that cannot be converted are counted in `rejected`; the others are returned.
 */
export function decodeOtlpJsonTraces(body: Uint8Array, options: OtlpDecodeOptions = {}): OtlpDecodeResult {
  const inflated = inflateBody(body, options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES);
  if (!inflated.ok) return inflated;
  let parsed: unknown;
  try {
    const json = inflated.body.toString('utf8');
    parsed = JSON.parse(json.charCodeAt(0) === 0xfeff ? json.slice(1) : json);
  } catch (err) {
    return { ok: false, reason: `body is not JSON: ${(err as Error).message}` };
  }
  const batch = { spans: [] as RawSpan[], rejectReasons: [] as string[], rejected: 0, index: 0, adapt: options.adapt ?? true };
  try {
    const request = objectAt(parsed, 'request');
    list(request, 'resourceSpans', 'resource_spans', 'request').forEach((rs, i) => {
      const resourceSpans = objectAt(rs, `resourceSpans[${i}]`);
      list(resourceSpans, 'scopeSpans', 'scope_spans', `resourceSpans[${i}]`).forEach((ss, j) => {
        const where = `resourceSpans[${i}].scopeSpans[${j}]`;
        list(objectAt(ss, where), 'spans', undefined, where).forEach((s, k) => {
          const index = batch.index++;
          const result = readSpan(objectAt(s, `${where}.spans[${k}]`), `${where}.spans[${k}]`, batch.adapt);
          if (typeof result !== 'string') batch.spans.push(result);
          else {
            batch.rejected++;
            if (batch.rejectReasons.length < MAX_REJECT_REASONS) batch.rejectReasons.push(`span ${index}: ${result}`);
          }
        });
      });
    });
  } catch (err) {
    if (err instanceof JsonShapeError) return { ok: false, reason: `not an ExportTraceServiceRequest: ${err.message}` };
    throw err;
  }
  return { ok: true, spans: batch.spans, rejected: batch.rejected, rejectReasons: batch.rejectReasons };
}

/** The span, or why it is rejected (bad ids, unknown kind or status, a bad link). */
function readSpan(s: Obj, where: string, adapt: boolean): RawSpan | string {
  const name = text(field(s, 'name'), `${where}.name`);
  const traceId = id(field(s, 'traceId', 'trace_id'), `${where}.traceId`);
  const spanId = id(field(s, 'spanId', 'span_id'), `${where}.spanId`);
  const parentId = id(field(s, 'parentSpanId', 'parent_span_id'), `${where}.parentSpanId`);
  const kind = enumValue(field(s, 'kind'), SPAN_KINDS, `${where}.kind`);
  const start = nanos(field(s, 'startTimeUnixNano', 'start_time_unix_nano'), `${where}.startTimeUnixNano`);
  const end = nanos(field(s, 'endTimeUnixNano', 'end_time_unix_nano'), `${where}.endTimeUnixNano`);
  const attributes: FlatAttributes = {};
  const attributeKeys = readKeyValues(list(s, 'attributes', undefined, where), attributes, 0, `${where}.attributes`);
  const events = list(s, 'events', undefined, where).map((e, i) => readEvent(objectAt(e, `${where}.events[${i}]`), `${where}.events[${i}]`));
  let links: NonNullable<RawSpan['links']> | undefined;
  let linkError: string | undefined;
  list(s, 'links', undefined, where).forEach((l, i) => {
    const link = readLink(objectAt(l, `${where}.links[${i}]`), `${where}.links[${i}]`);
    if (typeof link === 'string') linkError ??= `link ${i}: ${link}`;
    else (links ??= []).push(link);
  });
  const statusField = field(s, 'status');
  const status = statusField === undefined ? undefined : objectAt(statusField, `${where}.status`);
  const statusCode = enumValue(status && field(status, 'code'), STATUS_CODES, `${where}.status.code`);
  const statusMessage = text(status && field(status, 'message'), `${where}.status.message`);

  // An empty or all-zero parent is what exporters send for "no parent".
  const idError = idProblem('trace_id', traceId, 16) ?? idProblem('span_id', spanId, 8)
    ?? (parentId === '' || /^0{16}$/.test(parentId) ? undefined : idProblem('parent_span_id', parentId, 8));
  if (idError !== undefined) return idError;
  if (linkError !== undefined) return linkError;
  if (typeof kind !== 'string') return `invalid kind ${kind.invalid}`;
  if (typeof statusCode !== 'string') return `invalid status code ${statusCode.invalid}`;

  const span: RawSpan = {
    trace_id: traceId,
    span_id: spanId,
    span_name: name,
    span_kind: kind,
    status_code: statusCode,
    attributes: adapt ? applyAdapters(attributes, name, attributeKeys) : attributes,
    events,
  };
  if (parentId !== '' && !/^0+$/.test(parentId)) span.parent_id = parentId;
  if (statusMessage !== '') span.status_message = statusMessage;
  const startTime = unixNanosToIso(start.lo, start.hi);
  if (startTime !== undefined) span.start_time = startTime;
  const endTime = unixNanosToIso(end.lo, end.hi);
  if (endTime !== undefined) span.end_time = endTime;
  if (links !== undefined) span.links = links;
  return span;
}

const HEX = /^[0-9a-f]*$/;

/** A hex id, lower-cased; '' when absent. Anything not hex comes back marked for idProblem. */
function id(v: unknown, where: string): string {
  const s = text(v, where).toLowerCase();
  return HEX.test(s) ? s : `!${s.length}`;
}

/** Why an id is unusable, or undefined when it is fine (`bytes` long, hex, not all zero). */
function idProblem(name: string, value: string, bytes: number): string | undefined {
  if (value.startsWith('!')) return `invalid ${name} (not hex)`;
  if (value === '') return `invalid ${name} length 0`;
  if (value.length !== bytes * 2) return value.length % 2 === 0 ? `invalid ${name} length ${value.length / 2}` : `invalid ${name} (odd number of hex digits)`;
  if (/^0+$/.test(value)) return `invalid ${name} (all zero)`;
  return undefined;
}

/**
 * An enum by number or by name: its name, or what was sent when it is none of `names` (the span is
 * rejected, as the protobuf decoder rejects an unknown number).
 */
function enumValue<T extends string>(v: unknown, names: readonly T[], where: string): T | { invalid: string } {
  if (v === undefined) return names[0]!;
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new JsonShapeError(`${where} is not an integer`);
    return names[v] ?? { invalid: String(v) };
  }
  if (typeof v === 'string') {
    if ((names as readonly string[]).includes(v)) return v as T;
    if (/^-?\d{1,10}$/.test(v)) return names[Number(v)] ?? { invalid: v };
    return { invalid: `'${v.slice(0, 40)}'` };
  }
  throw new JsonShapeError(`${where} is not an enum value`);
}

const TWO_POW_32 = 0x1_0000_0000;

/** A fixed64 nanosecond time (decimal string or number) as the two uint32 halves unixNanosToIso takes. */
function nanos(v: unknown, where: string): { lo: number; hi: number } {
  if (v === undefined) return { lo: 0, hi: 0 };
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 0) throw new JsonShapeError(`${where} is not a non-negative integer`);
    const hi = Math.floor(v / TWO_POW_32);
    return { lo: v - hi * TWO_POW_32, hi };
  }
  if (typeof v === 'string' && /^\d{1,20}$/.test(v)) {
    const big = BigInt(v);
    if (big >> 64n !== 0n) throw new JsonShapeError(`${where} does not fit 64 bits`);
    return { lo: Number(big & 0xffffffffn), hi: Number(big >> 32n) };
  }
  throw new JsonShapeError(`${where} is not a decimal integer`);
}

/** KeyValues into `target` (a later duplicate key wins); returns the keys in order. */
function readKeyValues(values: unknown[], target: Record<string, JsonValue>, depth: number, where: string): string[] {
  const keys: string[] = [];
  values.forEach((kv, i) => {
    const o = objectAt(kv, `${where}[${i}]`);
    const key = text(field(o, 'key'), `${where}[${i}].key`);
    const value = field(o, 'value');
    setAttribute(target, key, value === undefined ? null : readAnyValue(objectAt(value, `${where}[${i}].value`), depth, `${where}[${i}].value`));
    keys.push(key);
  });
  return keys;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** AnyValue → JSON exactly as the protobuf decoder maps it (empty → null, big ints as strings, bytes base64). */
function readAnyValue(v: Obj, depth: number, where: string): JsonValue {
  if (depth > MAX_VALUE_DEPTH) throw new JsonShapeError(`AnyValue nested deeper than ${MAX_VALUE_DEPTH} levels`);
  let s: unknown;
  if ((s = field(v, 'stringValue', 'string_value')) !== undefined) return text(s, `${where}.stringValue`);
  if ((s = field(v, 'boolValue', 'bool_value')) !== undefined) {
    if (typeof s !== 'boolean') throw new JsonShapeError(`${where}.boolValue is not a boolean`);
    return s;
  }
  if ((s = field(v, 'intValue', 'int_value')) !== undefined) {
    if (typeof s === 'number' && Number.isInteger(s)) return s;
    if (typeof s === 'string' && /^-?\d{1,20}$/.test(s)) {
      const big = BigInt.asIntN(64, BigInt(s));
      return big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big.toString();
    }
    throw new JsonShapeError(`${where}.intValue is not an integer`);
  }
  if ((s = field(v, 'doubleValue', 'double_value')) !== undefined) {
    const n = typeof s === 'number' ? s : typeof s === 'string' && s.trim() !== '' ? Number(s) : Number.NaN;
    if (typeof s !== 'number' && Number.isNaN(n) && s !== 'NaN') throw new JsonShapeError(`${where}.doubleValue is not a number`);
    return Number.isFinite(n) ? n : String(n);
  }
  if ((s = field(v, 'arrayValue', 'array_value')) !== undefined) {
    const values = list(objectAt(s, `${where}.arrayValue`), 'values', undefined, `${where}.arrayValue`);
    return values.map((item, i) => readAnyValue(objectAt(item, `${where}.arrayValue.values[${i}]`), depth + 1, `${where}.arrayValue.values[${i}]`));
  }
  if ((s = field(v, 'kvlistValue', 'kvlist_value')) !== undefined) {
    const object: Record<string, JsonValue> = {};
    readKeyValues(list(objectAt(s, `${where}.kvlistValue`), 'values', undefined, `${where}.kvlistValue`), object, depth + 1, `${where}.kvlistValue.values`);
    return object;
  }
  if ((s = field(v, 'bytesValue', 'bytes_value')) !== undefined) {
    if (typeof s !== 'string') throw new JsonShapeError(`${where}.bytesValue is not a base64 string`);
    // Standard or URL-safe base64 in; standard out, as the protobuf path writes it.
    return Buffer.from(s, 'base64').toString('base64');
  }
  return null;
}

function readEvent(e: Obj, where: string): NonNullable<RawSpan['events']>[number] {
  const name = text(field(e, 'name'), `${where}.name`);
  const time = nanos(field(e, 'timeUnixNano', 'time_unix_nano'), `${where}.timeUnixNano`);
  const values = list(e, 'attributes', undefined, where);
  const event: NonNullable<RawSpan['events']>[number] = { name };
  const timestamp = unixNanosToIso(time.lo, time.hi);
  if (timestamp !== undefined) event.timestamp = timestamp;
  if (values.length > 0) {
    const attributes: FlatAttributes = {};
    readKeyValues(values, attributes, 0, `${where}.attributes`);
    event.attributes = attributes;
  }
  return event;
}

function readLink(l: Obj, where: string): NonNullable<RawSpan['links']>[number] | string {
  const traceId = id(field(l, 'traceId', 'trace_id'), `${where}.traceId`);
  const spanId = id(field(l, 'spanId', 'span_id'), `${where}.spanId`);
  const attributes: FlatAttributes = {};
  readKeyValues(list(l, 'attributes', undefined, where), attributes, 0, `${where}.attributes`);
  const problem = idProblem('trace_id', traceId, 16) ?? idProblem('span_id', spanId, 8);
  if (problem !== undefined) return problem;
  return { trace_id: traceId, span_id: spanId, attributes };
}
