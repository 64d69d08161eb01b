// ExportTraceServiceRequest (binary protobuf) → RawSpan[], in one pass over the bytes, with the
// semantic-convention adapters applied per span. Field numbers: proto/opentelemetry/proto/…/*.proto;
// test/decode-conformance.test.ts checks this decoder against protobufjs loaded from those files.
// Legacy TracesData bodies have the same wire layout (resource_spans = 1), so they decode too.

import type { JsonValue, RawSpan, SpanKind, StatusCode } from '@llm/span-model';
import { applyAdapters } from './apply-adapters.ts';
import { setAttribute, type FlatAttributes } from './flat-attributes.ts';
import { DEFAULT_MAX_INFLATED_BYTES, inflateBody } from './inflate-body.ts';
import { unixNanosToIso } from './unix-nanos-to-iso.ts';
import { cachedKey } from './wire/key-cache.ts';
import { ProtoReader } from './wire/proto-reader.ts';
import { WireFormatError } from './wire/wire-format-error.ts';

export type OtlpDecodeResult =
  | { ok: true; spans: RawSpan[]; rejected: number; rejectReasons: string[] }
  /** The body is not a parseable ExportTraceServiceRequest. */
  | { ok: false; reason: string };

export interface OtlpDecodeOptions {
  /** Run the semantic-convention adapters (default true); false yields the raw flat attributes. */
  adapt?: boolean;
  /** Upper bound for gzip/zlib bodies once inflated (default 64 MiB). */
  maxInflatedBytes?: number;
}

/** Reasons are for humans and logs; a flood of bad spans should not make the result huge. */
export const MAX_REJECT_REASONS = 100;

const SPAN_KIND_NAMES: readonly SpanKind[] = [
  'SPAN_KIND_UNSPECIFIED',
  'SPAN_KIND_INTERNAL',
  'SPAN_KIND_SERVER',
  'SPAN_KIND_CLIENT',
  'SPAN_KIND_PRODUCER',
  'SPAN_KIND_CONSUMER',
];
const STATUS_CODE_NAMES: readonly StatusCode[] = ['STATUS_CODE_UNSET', 'STATUS_CODE_OK', 'STATUS_CODE_ERROR'];

/** Deep enough for any real attribute; shallow enough that hostile nesting cannot exhaust the stack. */
const MAX_VALUE_DEPTH = 64;

// Tags are (field number << 3) | wire type, matched whole so a wrong wire type falls to skip().
const TAG = {
  request: { resourceSpans: 0x0a },
  resourceSpans: { scopeSpans: 0x12 },
  scopeSpans: { spans: 0x12 },
  span: {
    traceId: 0x0a,
    spanId: 0x12,
    parentSpanId: 0x22,
    name: 0x2a,
    kind: 0x30,
    startTime: 0x39,
    endTime: 0x41,
    attributes: 0x4a,
    events: 0x5a,
    links: 0x6a,
    status: 0x7a,
  },
  event: { time: 0x09, name: 0x12, attributes: 0x1a },
  link: { traceId: 0x0a, spanId: 0x12, attributes: 0x22 },
  status: { message: 0x12, code: 0x18 },
  keyValue: { key: 0x0a, value: 0x12 },
  anyValue: { string: 0x0a, bool: 0x10, int: 0x18, double: 0x21, array: 0x2a, kvlist: 0x32, bytes: 0x3a },
  list: { values: 0x0a },
} as const;

class Batch {
  readonly spans: RawSpan[] = [];
  readonly rejectReasons: string[] = [];
  rejected = 0;
  index = 0;

  constructor(readonly adapt: boolean) {}

  reject(index: number, reason: string): void {
    this.rejected++;
    if (this.rejectReasons.length < MAX_REJECT_REASONS) this.rejectReasons.push(`span ${index}: ${reason}`);
  }
}

/**
 * Decodes a binary OTLP trace export (gzip/zlib bodies are inflated first). Spans that cannot be
 * converted (bad ids, unknown kind or status) are counted in `rejected`; the others are returned.
 * A body that is not protobuf at all — JSON included — gives `ok: false`.
 */
export function decodeOtlpTraces(body: Uint8Array, options: OtlpDecodeOptions = {}): OtlpDecodeResult {
  const inflated = inflateBody(body, options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES);
  if (!inflated.ok) return inflated;
  const buf = inflated.body;
  if (looksLikeJson(buf)) {
    return { ok: false, reason: 'body is JSON; only binary protobuf (application/x-protobuf) is accepted' };
  }
  const batch = new Batch(options.adapt ?? true);
  try {
    readRequest(new ProtoReader(buf), batch);
  } catch (err) {
    if (err instanceof WireFormatError) return { ok: false, reason: `not an ExportTraceServiceRequest: ${err.message}` };
    throw err;
  }
  return { ok: true, spans: batch.spans, rejected: batch.rejected, rejectReasons: batch.rejectReasons };
}

/** The wire reader refuses JSON anyway; this only makes the reason readable. */
function looksLikeJson(buf: Buffer): boolean {
  for (const byte of buf) {
    if (byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d) continue;
    return byte === 0x7b /* { */ || byte === 0x5b /* [ */;
  }
  return false;
}

function readRequest(r: ProtoReader, batch: Batch): void {
  const end = r.length;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === TAG.request.resourceSpans) readResourceSpans(r, r.lengthDelimitedEnd(), batch);
    else r.skip(tag & 7);
  }
  r.expectEnd(end);
}

/** Resource attributes are ignored, as in the reference. */
function readResourceSpans(r: ProtoReader, end: number, batch: Batch): void {
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === TAG.resourceSpans.scopeSpans) readScopeSpans(r, r.lengthDelimitedEnd(), batch);
    else r.skip(tag & 7);
  }
  r.expectEnd(end);
}

/** Scope attributes are ignored, as in the reference. */
function readScopeSpans(r: ProtoReader, end: number, batch: Batch): void {
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === TAG.scopeSpans.spans) readSpan(r, r.lengthDelimitedEnd(), batch);
    else r.skip(tag & 7);
  }
  r.expectEnd(end);
}

function readSpan(r: ProtoReader, end: number, batch: Batch): void {
  let traceStart = 0;
  let traceEnd = 0;
  let spanStart = 0;
  let spanEnd = 0;
  let parentStart = 0;
  let parentEnd = 0;
  let name = '';
  let kind = 0;
  let startLo = 0;
  let startHi = 0;
  let endLo = 0;
  let endHi = 0;
  const attributes: FlatAttributes = {};
  const attributeKeys: string[] = [];
  const events: NonNullable<RawSpan['events']> = [];
  let links: NonNullable<RawSpan['links']> | undefined;
  let linkError: string | undefined;
  let statusCode = 0;
  let statusMessage = '';

  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case TAG.span.traceId:
        traceEnd = r.lengthDelimitedEnd();
        traceStart = r.pos;
        r.pos = traceEnd;
        break;
      case TAG.span.spanId:
        spanEnd = r.lengthDelimitedEnd();
        spanStart = r.pos;
        r.pos = spanEnd;
        break;
      case TAG.span.parentSpanId:
        parentEnd = r.lengthDelimitedEnd();
        parentStart = r.pos;
        r.pos = parentEnd;
        break;
      case TAG.span.name:
        name = r.string();
        break;
      case TAG.span.kind:
        kind = r.varint32();
        break;
      case TAG.span.startTime:
        r.fixed64();
        startLo = r.lo;
        startHi = r.hi;
        break;
      case TAG.span.endTime:
        r.fixed64();
        endLo = r.lo;
        endHi = r.hi;
        break;
      case TAG.span.attributes:
        attributeKeys.push(readKeyValue(r, r.lengthDelimitedEnd(), attributes, 0));
        break;
      case TAG.span.events:
        events.push(readEvent(r, r.lengthDelimitedEnd()));
        break;
      case TAG.span.links: {
        const linkIndex = links?.length ?? 0;
        const link = readLink(r, r.lengthDelimitedEnd());
        if (typeof link === 'string') linkError ??= `link ${linkIndex}: ${link}`;
        else (links ??= []).push(link);
        break;
      }
      case TAG.span.status: {
        const statusEnd = r.lengthDelimitedEnd();
        while (r.pos < statusEnd) {
          const statusTag = r.tag();
          if (statusTag === TAG.status.message) statusMessage = r.string();
          else if (statusTag === TAG.status.code) statusCode = r.varint32();
          else r.skip(statusTag & 7);
        }
        r.expectEnd(statusEnd);
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  r.expectEnd(end);

  const index = batch.index++;
  const buf = r.buf;
  const idError =
    idProblem('trace_id', buf, traceStart, traceEnd, 16) ??
    idProblem('span_id', buf, spanStart, spanEnd, 8) ??
    (parentEnd - parentStart === 0 || parentEnd - parentStart === 8
      ? undefined
      : `invalid parent_span_id length ${parentEnd - parentStart}`);
  if (idError !== undefined) return batch.reject(index, idError);
  if (linkError !== undefined) return batch.reject(index, linkError);
  const spanKind = SPAN_KIND_NAMES[kind];
  if (spanKind === undefined) return batch.reject(index, `invalid kind ${kind}`);
  const status = STATUS_CODE_NAMES[statusCode];
  if (status === undefined) return batch.reject(index, `invalid status code ${statusCode}`);

  const span: RawSpan = {
    trace_id: buf.toString('hex', traceStart, traceEnd),
    span_id: buf.toString('hex', spanStart, spanEnd),
    span_name: name,
    span_kind: spanKind,
    status_code: status,
    attributes: batch.adapt ? applyAdapters(attributes, name, attributeKeys) : attributes,
    events,
  };
  // An all-zero parent is what some exporters send for "no parent".
  if (parentEnd > parentStart && !isAllZero(buf, parentStart, parentEnd)) {
    span.parent_id = buf.toString('hex', parentStart, parentEnd);
  }
  if (statusMessage !== '') span.status_message = statusMessage;
  const startTime = unixNanosToIso(startLo, startHi);
  if (startTime !== undefined) span.start_time = startTime;
  const endTime = unixNanosToIso(endLo, endHi);
  if (endTime !== undefined) span.end_time = endTime;
  // Absent, not empty, when the span has no links: presence of links is what marks an annotation.
  if (links !== undefined) span.links = links;
  batch.spans.push(span);
}

/** Why an id is unusable, or undefined when it is fine. All-zero ids are invalid in OTLP. */
function idProblem(field: string, buf: Buffer, start: number, end: number, length: number): string | undefined {
  if (end - start !== length) return `invalid ${field} length ${end - start}`;
  if (isAllZero(buf, start, end)) return `invalid ${field} (all zero)`;
  return undefined;
}

function isAllZero(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (buf[i] !== 0) return false;
  return true;
}

function readEvent(r: ProtoReader, end: number): NonNullable<RawSpan['events']>[number] {
  let name = '';
  let lo = 0;
  let hi = 0;
  let attributes: FlatAttributes | undefined;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === TAG.event.time) {
      r.fixed64();
      lo = r.lo;
      hi = r.hi;
    } else if (tag === TAG.event.name) name = r.string();
    else if (tag === TAG.event.attributes) readKeyValue(r, r.lengthDelimitedEnd(), (attributes ??= {}), 0);
    else r.skip(tag & 7);
  }
  r.expectEnd(end);
  const event: NonNullable<RawSpan['events']>[number] = { name };
  const timestamp = unixNanosToIso(lo, hi);
  if (timestamp !== undefined) event.timestamp = timestamp;
  if (attributes !== undefined) event.attributes = attributes;
  return event;
}

/** The link, or why its ids are unusable. */
function readLink(r: ProtoReader, end: number): NonNullable<RawSpan['links']>[number] | string {
  let traceStart = 0;
  let traceEnd = 0;
  let spanStart = 0;
  let spanEnd = 0;
  const attributes: FlatAttributes = {};
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === TAG.link.traceId) {
      traceEnd = r.lengthDelimitedEnd();
      traceStart = r.pos;
      r.pos = traceEnd;
    } else if (tag === TAG.link.spanId) {
      spanEnd = r.lengthDelimitedEnd();
      spanStart = r.pos;
      r.pos = spanEnd;
    } else if (tag === TAG.link.attributes) readKeyValue(r, r.lengthDelimitedEnd(), attributes, 0);
    else r.skip(tag & 7);
  }
  r.expectEnd(end);
  const problem =
    idProblem('trace_id', r.buf, traceStart, traceEnd, 16) ?? idProblem('span_id', r.buf, spanStart, spanEnd, 8);
  if (problem !== undefined) return problem;
  return {
    trace_id: r.buf.toString('hex', traceStart, traceEnd),
    span_id: r.buf.toString('hex', spanStart, spanEnd),
    // Always an object: links without attributes are treated as malformed downstream.
    attributes,
  };
}

/** One KeyValue into `target` (a later duplicate key wins); returns the key. */
function readKeyValue(r: ProtoReader, end: number, target: Record<string, JsonValue>, depth: number): string {
  let key = '';
  let value: JsonValue = null;
  while (r.pos < end) {
    const tag = r.tag();
    if (tag === TAG.keyValue.key) {
      const keyEnd = r.lengthDelimitedEnd();
      key = cachedKey(r.buf, r.pos, keyEnd);
      r.pos = keyEnd;
    }
    else if (tag === TAG.keyValue.value) value = readAnyValue(r, r.lengthDelimitedEnd(), depth);
    else r.skip(tag & 7);
  }
  r.expectEnd(end);
  setAttribute(target, key, value);
  return key;
}

/** AnyValue → JSON: an empty AnyValue is null, ints beyond 2^53 become decimal strings, bytes base64. */
function readAnyValue(r: ProtoReader, end: number, depth: number): JsonValue {
  if (depth > MAX_VALUE_DEPTH) throw new WireFormatError(`AnyValue nested deeper than ${MAX_VALUE_DEPTH} levels`);
  let value: JsonValue = null;
  while (r.pos < end) {
    const tag = r.tag();
    switch (tag) {
      case TAG.anyValue.string:
        value = r.string();
        break;
      case TAG.anyValue.bool:
        r.varint64();
        value = (r.lo | r.hi) !== 0;
        break;
      case TAG.anyValue.int:
        r.varint64();
        value = int64ToJson(r.lo, r.hi);
        break;
      case TAG.anyValue.double:
        value = doubleToJson(r.double());
        break;
      case TAG.anyValue.array: {
        const arrayEnd = r.lengthDelimitedEnd();
        const items: JsonValue[] = [];
        while (r.pos < arrayEnd) {
          const itemTag = r.tag();
          if (itemTag === TAG.list.values) items.push(readAnyValue(r, r.lengthDelimitedEnd(), depth + 1));
          else r.skip(itemTag & 7);
        }
        r.expectEnd(arrayEnd);
        value = items;
        break;
      }
      case TAG.anyValue.kvlist: {
        const listEnd = r.lengthDelimitedEnd();
        const object: Record<string, JsonValue> = {};
        while (r.pos < listEnd) {
          const itemTag = r.tag();
          if (itemTag === TAG.list.values) readKeyValue(r, r.lengthDelimitedEnd(), object, depth + 1);
          else r.skip(itemTag & 7);
        }
        r.expectEnd(listEnd);
        value = object;
        break;
      }
      case TAG.anyValue.bytes: {
        const bytesEnd = r.lengthDelimitedEnd();
        value = r.buf.toString('base64', r.pos, bytesEnd);
        r.pos = bytesEnd;
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  r.expectEnd(end);
  return value;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** int64 as a JS number when exactly representable, else its decimal string (no precision loss). */
function int64ToJson(lo: number, hi: number): number | string {
  if (hi === 0) return lo;
  if (hi === 0xffffffff && lo !== 0) return lo - 0x1_0000_0000;
  const big = BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
  return big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big.toString();
}

/** JSON has no NaN or infinities; their names survive where null would not. */
function doubleToJson(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}
