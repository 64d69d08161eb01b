import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeOtlpTraces, encodeExportTraceServiceRequest, MAX_REJECT_REASONS } from '../src/index.ts';
import { CHILD_SPAN_ID, requestOf, ROOT_SPAN_ID, span, START_NANOS, TRACE_ID } from './fixtures/build-request.ts';

const LINKED_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const LINKED_SPAN_ID = 'b7ad6b7169203331';

function validRequest(): Uint8Array {
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
        'big.counter': 9_007_199_254_740_993n,
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
      links: [
        { traceId: LINKED_TRACE_ID, spanId: LINKED_SPAN_ID, attributes: { key: 'invocation' } },
        { traceId: LINKED_TRACE_ID, spanId: LINKED_SPAN_ID },
      ],
      status: { code: 1, message: '' },
    }),
  ]);
}

describe('decodeOtlpTraces', () => {
  it('when a valid request is decoded, then every span round-trips into the RawSpan shape', () => {
    const result = decodeOtlpTraces(validRequest(), { adapt: false });

    expect(result).toEqual({
      ok: true,
      rejected: 0,
      rejectReasons: [],
      spans: [
        {
          trace_id: TRACE_ID,
          span_id: ROOT_SPAN_ID,
          span_name: 'workflow',
          span_kind: 'SPAN_KIND_SERVER',
          status_code: 'STATUS_CODE_ERROR',
          status_message: 'boom',
          start_time: '2024-05-01T10:00:00.123456Z',
          end_time: '2024-05-01T10:00:01.623456Z',
          attributes: {
            'http.method': 'POST',
            'retry.count': 3,
            'sampling.ratio': 0.25,
            'feature.enabled': true,
            'tags.list': ['a', 'b', 7],
            'nested.kv': { inner: { deep: 'yes' }, flag: false },
            'payload.bytes': '3q2+7w==',
            'big.counter': '9007199254740993',
            'negative.int': -42,
            'empty.value': null,
          },
          events: [
            {
              name: 'exception',
              timestamp: '2024-05-01T10:00:00.123457Z',
              attributes: { 'exception.type': 'ValueError' },
            },
            { name: 'checkpoint', timestamp: '2024-05-01T10:00:00.125456Z' },
          ],
        },
        {
          trace_id: TRACE_ID,
          span_id: CHILD_SPAN_ID,
          parent_id: ROOT_SPAN_ID,
          span_name: 'annotation',
          span_kind: 'SPAN_KIND_UNSPECIFIED',
          status_code: 'STATUS_CODE_OK',
          start_time: '2024-05-01T10:00:00.123456Z',
          end_time: '2024-05-01T10:00:01.623456Z',
          attributes: {},
          events: [],
          links: [
            { trace_id: LINKED_TRACE_ID, span_id: LINKED_SPAN_ID, attributes: { key: 'invocation' } },
            { trace_id: LINKED_TRACE_ID, span_id: LINKED_SPAN_ID, attributes: {} },
          ],
        },
      ],
    });
  });

  it('when a span has no links, then links is absent rather than empty', () => {
    const result = decodeOtlpTraces(requestOf([span()]));

    expect(result.ok && result.spans[0]).not.toHaveProperty('links');
  });

  it('when the body is gzip-compressed, then it is inflated and decodes like the plain body', () => {
    const plain = decodeOtlpTraces(validRequest());

    expect(decodeOtlpTraces(gzipSync(validRequest()))).toEqual(plain);
  });

  it('when the body is zlib-compressed, then it is inflated and decodes like the plain body', () => {
    expect(decodeOtlpTraces(deflateSync(validRequest()))).toEqual(decodeOtlpTraces(validRequest()));
  });

  it('when a gzip body is corrupt, then the result is not ok', () => {
    const corrupt = gzipSync(validRequest()).subarray(0, 20);

    expect(decodeOtlpTraces(corrupt)).toMatchObject({ ok: false, reason: expect.stringContaining('gzip') });
  });

  it('when a gzip body inflates beyond the limit, then the result is not ok', () => {
    const bomb = gzipSync(new Uint8Array(1024 * 1024));

    expect(decodeOtlpTraces(bomb, { maxInflatedBytes: 1024 })).toMatchObject({ ok: false });
  });

  it('when the body is OTLP/JSON, then the result is not ok', () => {
    const json = Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'x' }] }] }] }));

    expect(decodeOtlpTraces(json)).toMatchObject({ ok: false, reason: expect.stringContaining('JSON') });
  });

  it.each([
    ['random text', Buffer.from('hello world, this is not protobuf')],
    ['a length running past the end', Uint8Array.from([0x0a, 0xff, 0x01, 0x02])],
    ['an invalid wire type', Uint8Array.from([0x0f, 0x01])],
    ['field number zero', Uint8Array.from([0x02, 0x00])],
    ['a truncated request', validRequest().subarray(0, 57)],
  ])('when the body is garbage (%s), then the result is not ok', (_label, body) => {
    expect(decodeOtlpTraces(body)).toMatchObject({ ok: false, reason: expect.any(String) });
  });

  it('when the body is empty, then it is a valid request with no spans', () => {
    expect(decodeOtlpTraces(new Uint8Array(0))).toEqual({ ok: true, spans: [], rejected: 0, rejectReasons: [] });
  });

  it('when spans have a bad kind or bad ids, then they are rejected and counted while valid spans remain', () => {
    const body = requestOf([
      span({ spanId: '0000000000000001', name: 'ok-1' }),
      span({ spanId: '0000000000000002', kind: 999 }),
      span({ spanId: '0102030405' }),
      span({ traceId: '', spanId: '0000000000000004' }),
      span({ traceId: '00000000000000000000000000000000', spanId: '0000000000000005' }),
      span({ spanId: '0000000000000006', parentSpanId: '010203' }),
      span({ spanId: '0000000000000007', status: { code: 7 } }),
      span({ spanId: '0000000000000008', links: [{ traceId: TRACE_ID, spanId: '01' }] }),
      span({ spanId: '0000000000000009', name: 'ok-2' }),
    ]);

    const result = decodeOtlpTraces(body);

    expect(result).toEqual({
      ok: true,
      spans: [expect.objectContaining({ span_name: 'ok-1' }), expect.objectContaining({ span_name: 'ok-2' })],
      rejected: 7,
      rejectReasons: [
        'span 1: invalid kind 999',
        'span 2: invalid span_id length 5',
        'span 3: invalid trace_id length 0',
        'span 4: invalid trace_id (all zero)',
        'span 5: invalid parent_span_id length 3',
        'span 6: invalid status code 7',
        'span 7: link 0: invalid span_id length 1',
      ],
    });
  });

  it('when thousands of spans are rejected, then all are counted but the reasons are capped', () => {
    const bad = Array.from({ length: MAX_REJECT_REASONS + 50 }, () => span({ kind: 42 }));

    const result = decodeOtlpTraces(requestOf(bad));

    expect(result).toMatchObject({ ok: true, rejected: MAX_REJECT_REASONS + 50 });
    expect(result.ok && result.rejectReasons).toHaveLength(MAX_REJECT_REASONS);
  });

  it('when the parent span id is all zero, then the span is a root', () => {
    const result = decodeOtlpTraces(requestOf([span({ parentSpanId: '0000000000000000' })]));

    expect(result.ok && result.spans[0]).not.toHaveProperty('parent_id');
  });

  it('when times exceed 2^53 nanoseconds, then they are exact to the microsecond (nanoseconds truncated)', () => {
    const body = requestOf([
      span({
        startTimeUnixNano: '1714557600999999999',
        endTimeUnixNano: 4_102_444_800_000_001_999n, // 2100-01-01T00:00:00.000001999Z
        events: [{ name: 'e', timeUnixNano: '1714557600000000999' }],
      }),
    ]);

    const result = decodeOtlpTraces(body);

    expect(result.ok && result.spans[0]).toMatchObject({
      start_time: '2024-05-01T10:00:00.999999Z',
      end_time: '2100-01-01T00:00:00.000001Z',
      events: [{ name: 'e', timestamp: '2024-05-01T10:00:00.000000Z' }],
    });
  });

  it('when a time is zero (unset), then the field is left out for normalisation to fill in', () => {
    const result = decodeOtlpTraces(requestOf([span({ startTimeUnixNano: 0n, endTimeUnixNano: 0n })]));

    expect(result.ok && result.spans[0]).not.toHaveProperty('start_time');
    expect(result.ok && result.spans[0]).not.toHaveProperty('end_time');
  });

  it('when int64 attributes are at the edges of the safe range, then they keep their exact value', () => {
    const body = requestOf([
      span({
        attributes: {
          'max.safe': 9_007_199_254_740_991n,
          'min.safe': -9_007_199_254_740_991n,
          'min.int64': -9_223_372_036_854_775_808n,
          'minus.2^32': -4_294_967_296n,
          'minus.one': -1,
        },
      }),
    ]);

    const result = decodeOtlpTraces(body, { adapt: false });

    expect(result.ok && result.spans[0]?.attributes).toEqual({
      'max.safe': 9_007_199_254_740_991,
      'min.safe': -9_007_199_254_740_991,
      'min.int64': '-9223372036854775808',
      'minus.2^32': -4_294_967_296,
      'minus.one': -1,
    });
  });

  it('when an attribute key is __proto__, then it is stored as a plain key without touching the prototype', () => {
    const result = decodeOtlpTraces(requestOf([span({ attributes: { ['__proto__']: { polluted: true } } })]), {
      adapt: false,
    });

    const attributes = result.ok ? result.spans[0]?.attributes : undefined;
    expect(Object.keys(attributes ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('when a legacy TracesData body is sent, then it decodes like an ExportTraceServiceRequest', () => {
    // Same wire layout (resource_spans = 1): the bytes are identical by construction.
    const body = encodeExportTraceServiceRequest({ resourceSpans: [{ scopeSpans: [{ spans: [span()] }] }] });

    expect(decodeOtlpTraces(body)).toMatchObject({ ok: true, spans: [{ span_id: ROOT_SPAN_ID }] });
  });

  it('when AnyValues nest deeper than any real attribute, then the body is refused instead of overflowing the stack', () => {
    type Nested = { readonly [key: string]: Nested | string };
    let value: Nested = { leaf: 'x' };
    for (let i = 0; i < 100; i++) value = { level: value };

    expect(decodeOtlpTraces(requestOf([span({ attributes: { deep: value } })]))).toMatchObject({ ok: false });
  });
});
