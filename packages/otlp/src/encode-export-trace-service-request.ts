// ExportTraceServiceRequest from a plain object, for tests, fixtures and benchmarks (what an OTLP
// exporter would send). Not on the ingest path.

import { ProtoWriter } from './wire/proto-writer.ts';

/**
 * An attribute value: strings, booleans, numbers (integers → int_value, others → double_value),
 * bigint (int_value), bytes, arrays (array_value), plain objects (kvlist_value), null (empty
 * AnyValue). `{ double: n }` forces a double_value for an integral number.
 */
export type OtlpAnyValueInput =
  | string
  | boolean
  | number
  | bigint
  | Uint8Array
  | null
  | { readonly double: number }
  | readonly OtlpAnyValueInput[]
  | { readonly [key: string]: OtlpAnyValueInput };

export type OtlpAttributesInput = Readonly<Record<string, OtlpAnyValueInput>>;

/** Ids as bytes or hex; times in nanoseconds since the epoch (bigint, decimal string or safe number). */
export type OtlpIdInput = Uint8Array | string;
export type OtlpNanosInput = bigint | string | number;

export interface OtlpEventInput {
  name: string;
  timeUnixNano?: OtlpNanosInput;
  attributes?: OtlpAttributesInput;
}

export interface OtlpLinkInput {
  traceId: OtlpIdInput;
  spanId: OtlpIdInput;
  traceState?: string;
  attributes?: OtlpAttributesInput;
}

export interface OtlpSpanInput {
  traceId: OtlpIdInput;
  spanId: OtlpIdInput;
  parentSpanId?: OtlpIdInput;
  traceState?: string;
  flags?: number;
  name: string;
  /** 0..5 = SPAN_KIND_UNSPECIFIED..CONSUMER; any other number is sent as is. */
  kind?: number;
  startTimeUnixNano?: OtlpNanosInput;
  endTimeUnixNano?: OtlpNanosInput;
  attributes?: OtlpAttributesInput;
  events?: readonly OtlpEventInput[];
  links?: readonly OtlpLinkInput[];
  status?: { code?: number; message?: string };
}

export interface OtlpScopeSpansInput {
  scope?: { name?: string; version?: string; attributes?: OtlpAttributesInput };
  spans: readonly OtlpSpanInput[];
}

export interface OtlpResourceSpansInput {
  resource?: { attributes?: OtlpAttributesInput };
  scopeSpans: readonly OtlpScopeSpansInput[];
}

export interface OtlpRequestInput {
  resourceSpans: readonly OtlpResourceSpansInput[];
}

export function encodeExportTraceServiceRequest(req: OtlpRequestInput): Uint8Array {
  const w = new ProtoWriter();
  for (const rs of req.resourceSpans) w.message(1, (m) => writeResourceSpans(m, rs));
  return w.finish();
}

function writeResourceSpans(w: ProtoWriter, rs: OtlpResourceSpansInput): void {
  if (rs.resource !== undefined) w.message(1, (m) => writeAttributes(m, 1, rs.resource?.attributes));
  for (const ss of rs.scopeSpans) w.message(2, (m) => writeScopeSpans(m, ss));
}

function writeScopeSpans(w: ProtoWriter, ss: OtlpScopeSpansInput): void {
  const scope = ss.scope;
  if (scope !== undefined) {
    w.message(1, (m) => {
      if (scope.name !== undefined) m.tag(1, 2).string(scope.name);
      if (scope.version !== undefined) m.tag(2, 2).string(scope.version);
      writeAttributes(m, 3, scope.attributes);
    });
  }
  for (const span of ss.spans) w.message(2, (m) => writeSpan(m, span));
}

function writeSpan(w: ProtoWriter, span: OtlpSpanInput): void {
  w.tag(1, 2).bytes(toIdBytes(span.traceId));
  w.tag(2, 2).bytes(toIdBytes(span.spanId));
  if (span.traceState !== undefined) w.tag(3, 2).string(span.traceState);
  if (span.parentSpanId !== undefined) w.tag(4, 2).bytes(toIdBytes(span.parentSpanId));
  w.tag(5, 2).string(span.name);
  if (span.kind !== undefined && span.kind !== 0) w.tag(6, 0).int32(span.kind);
  if (span.startTimeUnixNano !== undefined) w.tag(7, 1).fixed64(BigInt(span.startTimeUnixNano));
  if (span.endTimeUnixNano !== undefined) w.tag(8, 1).fixed64(BigInt(span.endTimeUnixNano));
  writeAttributes(w, 9, span.attributes);
  for (const event of span.events ?? []) {
    w.message(11, (m) => {
      if (event.timeUnixNano !== undefined) m.tag(1, 1).fixed64(BigInt(event.timeUnixNano));
      m.tag(2, 2).string(event.name);
      writeAttributes(m, 3, event.attributes);
    });
  }
  for (const link of span.links ?? []) {
    w.message(13, (m) => {
      m.tag(1, 2).bytes(toIdBytes(link.traceId));
      m.tag(2, 2).bytes(toIdBytes(link.spanId));
      if (link.traceState !== undefined) m.tag(3, 2).string(link.traceState);
      writeAttributes(m, 4, link.attributes);
    });
  }
  const status = span.status;
  if (status !== undefined) {
    w.message(15, (m) => {
      if (status.message !== undefined && status.message !== '') m.tag(2, 2).string(status.message);
      if (status.code !== undefined && status.code !== 0) m.tag(3, 0).int32(status.code);
    });
  }
  if (span.flags !== undefined) w.tag(16, 5).fixed32(span.flags);
}

function writeAttributes(w: ProtoWriter, field: number, attributes: OtlpAttributesInput | undefined): void {
  if (attributes === undefined) return;
  for (const [key, value] of Object.entries(attributes)) w.message(field, (m) => writeKeyValue(m, key, value));
}

function writeKeyValue(w: ProtoWriter, key: string, value: OtlpAnyValueInput): void {
  w.tag(1, 2).string(key);
  w.message(2, (m) => writeAnyValue(m, value));
}

function writeAnyValue(w: ProtoWriter, value: OtlpAnyValueInput): void {
  if (value === null) return;
  if (typeof value === 'string') w.tag(1, 2).string(value);
  else if (typeof value === 'boolean') w.tag(2, 0).varint(value ? 1 : 0);
  else if (typeof value === 'bigint') w.tag(3, 0).varintBig(value);
  else if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) w.tag(3, 0).varintBig(BigInt(value));
    else w.tag(4, 1).double(value);
  } else if (value instanceof Uint8Array) w.tag(7, 2).bytes(value);
  else if (isArray(value)) {
    w.message(5, (m) => {
      for (const item of value) m.message(1, (v) => writeAnyValue(v, item));
    });
  } else if (isDouble(value)) w.tag(4, 1).double(value.double);
  else {
    w.message(6, (m) => {
      for (const [k, v] of Object.entries(value)) m.message(1, (kv) => writeKeyValue(kv, k, v));
    });
  }
}

function isArray(value: OtlpAnyValueInput): value is readonly OtlpAnyValueInput[] {
  return Array.isArray(value);
}

function isDouble(value: object): value is { readonly double: number } {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'double' && typeof (value as { double?: unknown }).double === 'number';
}

function toIdBytes(id: OtlpIdInput): Uint8Array {
  if (typeof id !== 'string') return id;
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(id)) throw new Error(`id is not hex: ${id}`);
  return Buffer.from(id, 'hex');
}
