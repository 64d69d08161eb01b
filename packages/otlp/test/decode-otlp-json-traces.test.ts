// The OTLP/JSON decoder against the protobuf decoder: the same request in both encodings must give
// the same spans, rejections and reasons. The JSON side is written by protobufjs from the vendored
// protos (proto3 JSON), with ids turned to hex as the OTLP mapping requires.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeOtlpJsonTraces, decodeOtlpTraces } from '../src/index.ts';
import { CHILD_SPAN_ID, requestOf, ROOT_SPAN_ID, span, START_NANOS, TRACE_ID } from './fixtures/build-request.ts';
import { genAiChat, openInferenceChat } from './fixtures/llm-spans.ts';
import { ExportTraceServiceRequest } from './fixtures/vendored-protos.ts';

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** protobufjs' proto3 JSON of a protobuf body, with ids as hex (OTLP's exception to proto3 JSON). */
function otlpJsonOf(body: Uint8Array, opts: { longs: typeof String | typeof Number; enums: typeof String | typeof Number }): string {
  const object = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), { ...opts, bytes: String, json: true });
  const hexIds = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(hexIds);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ID_FIELDS.has(k) && typeof x === 'string' ? Buffer.from(x, 'base64').toString('hex') : hexIds(x)]));
  };
  return JSON.stringify(hexIds(object));
}

const LINKED_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

/** `bigCounter`: an int64 attribute; JSON numbers hold only up to 2^53, so the number form gets a smaller one. */
function everyFieldRequest(bigCounter: bigint): Uint8Array {
  return requestOf([
    span({
      name: 'workflow',
      kind: 2,
      attributes: {
        'http.method': 'POST',
        'retry.count': 3,
        'sampling.ratio': 0.25,
        'feature.enabled': true,
        'tags.list': ['a', 'b', 7],
        'nested.kv': { inner: { deep: 'yes' }, flag: false },
        'payload.bytes': new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
        'big.counter': bigCounter,
        'negative.int': -42,
        'empty.value': null,
      },
      events: [
        { name: 'exception', timeUnixNano: START_NANOS + 1_000n, attributes: { 'exception.type': 'ValueError' } },
        { name: 'checkpoint', timeUnixNano: START_NANOS + 2_000_000n },
      ],
      status: { code: 2, message: 'boom' },
    }),
    span({
      spanId: CHILD_SPAN_ID,
      parentSpanId: ROOT_SPAN_ID,
      name: 'annotation',
      kind: 0,
      links: [{ traceId: LINKED_TRACE_ID, spanId: 'b7ad6b7169203331', attributes: { key: 'invocation' } }],
      status: { code: 1, message: '' },
    }),
    span({ spanId: '1111111111111111', name: 'chat', kind: 3, attributes: genAiChat }),
    span({ spanId: '2222222222222222', name: 'ChatCompletion', attributes: openInferenceChat }),
  ]);
}

describe('decodeOtlpJsonTraces', () => {
  for (const [label, opts, bigCounter] of [
    ['string int64s and enum names', { longs: String, enums: String }, 9_007_199_254_740_993n],
    ['number int64s and enum numbers', { longs: Number, enums: Number }, -9_007_199_254_740_991n],
  ] as const) {
    it(`when a request using every field comes as OTLP/JSON with ${label}, then it decodes exactly as its protobuf`, () => {
      const body = everyFieldRequest(bigCounter);
      const json = otlpJsonOf(body, opts);
      for (const adapt of [false, true]) {
        const fromJson = decodeOtlpJsonTraces(Buffer.from(json), { adapt });
        expect(fromJson.ok).toBe(true);
        expect(fromJson).toEqual(decodeOtlpTraces(body, { adapt }));
      }
    });
  }

  it('when spans have bad ids, unknown kinds or statuses, then each is rejected with the protobuf decoder\'s reason', () => {
    const body = requestOf([
      span({ name: 'ok' }),
      span({ spanId: '0000000000000000', name: 'zero-span' }),
      span({ spanId: 'abcd', name: 'short-span' }),
      span({ parentSpanId: 'abcdef', name: 'short-parent' }),
      span({ kind: 9, name: 'bad-kind' }),
      span({ status: { code: 7, message: '' }, name: 'bad-status' }),
      span({ links: [{ traceId: TRACE_ID, spanId: '00' }], name: 'bad-link' }),
    ]);
    const fromJson = decodeOtlpJsonTraces(Buffer.from(otlpJsonOf(body, { longs: String, enums: Number })));
    expect(fromJson).toEqual(decodeOtlpTraces(body));
    expect(fromJson).toMatchObject({ ok: true, rejected: 6 });
  });

  it('when ids are upper-case hex, enum names are unknown or ids are not hex, then hex is accepted and the others rejected', () => {
    const base = { traceId: TRACE_ID.toUpperCase(), spanId: ROOT_SPAN_ID, name: 'n' };
    const result = decodeOtlpJsonTraces(Buffer.from(JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [
        base,
        { ...base, kind: 'SPAN_KIND_SIDEWAYS' },
        { ...base, status: { code: 'STATUS_CODE_MAYBE' } },
        { ...base, spanId: 'zzzzzzzzzzzzzzzz' },
        { ...base, parentSpanId: '0000000000000000' },
      ] }] }],
    })));
    expect(result).toMatchObject({
      ok: true,
      rejected: 3,
      rejectReasons: ["span 1: invalid kind 'SPAN_KIND_SIDEWAYS'", "span 2: invalid status code 'STATUS_CODE_MAYBE'", 'span 3: invalid span_id (not hex)'],
    });
    if (!result.ok) return;
    expect(result.spans.map((s) => [s.trace_id, s.span_kind, s.parent_id])).toEqual([[TRACE_ID, 'SPAN_KIND_UNSPECIFIED', undefined], [TRACE_ID, 'SPAN_KIND_UNSPECIFIED', undefined]]);
  });

  it('when the proto field names are used instead of lowerCamelCase, then they are read the same', () => {
    const result = decodeOtlpJsonTraces(Buffer.from(JSON.stringify({
      resource_spans: [{ scope_spans: [{ spans: [{
        trace_id: TRACE_ID, span_id: ROOT_SPAN_ID, parent_span_id: CHILD_SPAN_ID, name: 'snake', kind: 'SPAN_KIND_CLIENT',
        start_time_unix_nano: '1714557600123456789', end_time_unix_nano: 1714557601000000000,
        attributes: [{ key: 'n', value: { int_value: '12' } }, { key: 'd', value: { double_value: 'Infinity' } }, { key: 'l', value: { array_value: { values: [{ bool_value: true }] } } }],
      }] }] }],
    })), { adapt: false });
    expect(result).toMatchObject({ ok: true, rejected: 0 });
    if (!result.ok) return;
    expect(result.spans[0]).toMatchObject({
      parent_id: CHILD_SPAN_ID, span_kind: 'SPAN_KIND_CLIENT', start_time: '2024-05-01T10:00:00.123456Z', end_time: '2024-05-01T10:00:01.000000Z',
      attributes: { n: 12, d: 'Infinity', l: [true] },
    });
  });

  it('when the body is gzip, then it is inflated first; when a string holds a lone surrogate, then it becomes U+FFFD', () => {
    const json = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: TRACE_ID, spanId: ROOT_SPAN_ID, name: 'a\ud800b', attributes: [{ key: 'k\udc00', value: { stringValue: '\ud83d' } }] }] }] }] });
    const result = decodeOtlpJsonTraces(gzipSync(json), { adapt: false });
    expect(result).toMatchObject({ ok: true, spans: [{ span_name: 'a\ufffdb', attributes: { 'k\ufffd': '\ufffd' } }] });
  });

  it('when the body is not an ExportTraceServiceRequest, then it is refused whole with a reason', () => {
    const refused = (body: string): string => {
      const r = decodeOtlpJsonTraces(Buffer.from(body));
      expect(r.ok).toBe(false);
      return r.ok ? '' : r.reason;
    };
    expect(refused('{"resourceSpans": [')).toMatch(/not JSON/);
    expect(refused('[]')).toMatch(/request is not an object/);
    expect(refused('{"resourceSpans": {}}')).toMatch(/resourceSpans is not an array/);
    expect(refused(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ name: 5 }] }] }] }))).toMatch(/name is not a string/);
    expect(refused(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ startTimeUnixNano: '-1' }] }] }] }))).toMatch(/startTimeUnixNano/);
    expect(refused(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [{ key: 'x', value: { intValue: 1.5 } }] }] }] }] }))).toMatch(/intValue/);
    let deep: unknown = { stringValue: 'x' };
    for (let i = 0; i < 70; i++) deep = { arrayValue: { values: [deep] } };
    expect(refused(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ attributes: [{ key: 'deep', value: deep }] }] }] }] }))).toMatch(/deeper than 64/);
  });

  it('when the request is empty, then it decodes to no spans', () => {
    expect(decodeOtlpJsonTraces(Buffer.from('{}'))).toEqual({ ok: true, spans: [], rejected: 0, rejectReasons: [] });
    expect(decodeOtlpJsonTraces(Buffer.from('\ufeff{"resourceSpans":[]}'))).toEqual({ ok: true, spans: [], rejected: 0, rejectReasons: [] });
  });
});
