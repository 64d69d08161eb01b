// The hand-written codec against protobufjs loaded from the vendored protos (the pinned source of
// truth for field numbers), in both directions.

import { describe, expect, it } from 'vitest';
import {
  decodeOtlpTraces,
  encodeExportTraceServiceRequest,
  encodeExportTraceServiceResponse,
  encodeRpcStatus,
} from '../src/index.ts';
import { span, START_NANOS } from './fixtures/build-request.ts';
import { ExportTraceServiceRequest, ExportTraceServiceResponse, RpcStatus, TracesData } from './fixtures/vendored-protos.ts';

const hex = (value: string): Buffer => Buffer.from(value, 'hex');

/** Every Span field and every AnyValue variant, in protobufjs' JSON-ish object form. */
const protobufjsRequest = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
      scopeSpans: [
        {
          scope: { name: 'scope', version: '1' },
          spans: [
            {
              traceId: hex('5b8efff798038103d269b633813fc60c'),
              spanId: hex('eee19b7ec3c1b174'),
              traceState: 'vendor=1',
              parentSpanId: hex('eee19b7ec3c1b173'),
              flags: 0x301,
              name: 'GET /things',
              kind: 3,
              startTimeUnixNano: '1714557600123456789',
              endTimeUnixNano: '1714557601987654321',
              attributes: [
                { key: 's', value: { stringValue: 'text' } },
                { key: 'b', value: { boolValue: true } },
                { key: 'i', value: { intValue: '-12345678901' } },
                { key: 'd', value: { doubleValue: 1.5 } },
                { key: 'a', value: { arrayValue: { values: [{ stringValue: 'x' }, { intValue: 2 }] } } },
                {
                  key: 'kv',
                  value: { kvlistValue: { values: [{ key: 'inner', value: { boolValue: false } }] } },
                },
                { key: 'bytes', value: { bytesValue: Buffer.from([1, 2, 3]) } },
                { key: 'empty', value: {} },
              ],
              droppedAttributesCount: 4,
              events: [
                {
                  timeUnixNano: '1714557600500000000',
                  name: 'exception',
                  attributes: [{ key: 'exception.message', value: { stringValue: 'boom' } }],
                  droppedAttributesCount: 1,
                },
              ],
              droppedEventsCount: 2,
              links: [
                {
                  traceId: hex('0af7651916cd43dd8448eb211c80319c'),
                  spanId: hex('b7ad6b7169203331'),
                  traceState: 'other=2',
                  attributes: [{ key: 'key', value: { stringValue: 'invocation' } }],
                  droppedAttributesCount: 1,
                  flags: 1,
                },
              ],
              droppedLinksCount: 3,
              status: { message: 'upstream failed', code: 2 },
            },
          ],
          schemaUrl: 'https://opentelemetry.io/schemas/1.26.0',
        },
      ],
      schemaUrl: 'https://opentelemetry.io/schemas/1.26.0',
    },
  ],
};

const expectedSpan = {
  trace_id: '5b8efff798038103d269b633813fc60c',
  span_id: 'eee19b7ec3c1b174',
  parent_id: 'eee19b7ec3c1b173',
  span_name: 'GET /things',
  span_kind: 'SPAN_KIND_CLIENT',
  status_code: 'STATUS_CODE_ERROR',
  status_message: 'upstream failed',
  start_time: '2024-05-01T10:00:00.123456Z',
  end_time: '2024-05-01T10:00:01.987654Z',
  attributes: { s: 'text', b: true, i: -12345678901, d: 1.5, a: ['x', 2], kv: { inner: false }, bytes: 'AQID', empty: null },
  events: [
    { name: 'exception', timestamp: '2024-05-01T10:00:00.500000Z', attributes: { 'exception.message': 'boom' } },
  ],
  links: [
    { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331', attributes: { key: 'invocation' } },
  ],
};

describe('decoder conformance with the vendored protos', () => {
  it('when protobufjs encodes a request using every field, then the hand-written decoder reads all of them', () => {
    const body = ExportTraceServiceRequest.encode(ExportTraceServiceRequest.fromObject(protobufjsRequest)).finish();

    expect(decodeOtlpTraces(body, { adapt: false })).toEqual({
      ok: true,
      spans: [expectedSpan],
      rejected: 0,
      rejectReasons: [],
    });
  });

  it('when protobufjs encodes a legacy TracesData, then it decodes the same', () => {
    const body = TracesData.encode(TracesData.fromObject(protobufjsRequest)).finish();

    expect(decodeOtlpTraces(body, { adapt: false })).toMatchObject({ ok: true, spans: [expectedSpan] });
  });

  it('when the test encoder writes a request, then protobufjs reads back the same fields', () => {
    const body = encodeExportTraceServiceRequest({
      resourceSpans: [
        {
          resource: { attributes: { 'service.name': 'svc' } },
          scopeSpans: [
            {
              scope: { name: 'scope' },
              spans: [
                span({
                  parentSpanId: 'eee19b7ec3c1b173',
                  traceState: 'vendor=1',
                  flags: 0x301,
                  kind: 5,
                  attributes: { n: 7, d: 0.5, forced: { double: 2 }, list: [true, null] },
                  events: [{ name: 'e', timeUnixNano: START_NANOS }],
                  links: [{ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }],
                  status: { code: 1, message: 'fine' },
                }),
              ],
            },
          ],
        },
      ],
    });

    const decoded = ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), {
      longs: String,
      bytes: String,
      enums: String,
    });

    expect(decoded).toMatchObject({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
          scopeSpans: [
            {
              scope: { name: 'scope' },
              spans: [
                {
                  traceId: Buffer.from('5b8efff798038103d269b633813fc60c', 'hex').toString('base64'),
                  parentSpanId: Buffer.from('eee19b7ec3c1b173', 'hex').toString('base64'),
                  traceState: 'vendor=1',
                  flags: 0x301,
                  kind: 'SPAN_KIND_CONSUMER',
                  startTimeUnixNano: START_NANOS.toString(),
                  attributes: [
                    { key: 'n', value: { intValue: '7' } },
                    { key: 'd', value: { doubleValue: 0.5 } },
                    { key: 'forced', value: { doubleValue: 2 } },
                    { key: 'list', value: { arrayValue: { values: [{ boolValue: true }, {}] } } },
                  ],
                  events: [{ name: 'e', timeUnixNano: START_NANOS.toString() }],
                  links: [{ spanId: Buffer.from('b7ad6b7169203331', 'hex').toString('base64') }],
                  status: { code: 'STATUS_CODE_OK', message: 'fine' },
                },
              ],
            },
          ],
        },
      ],
    });
  });
});

describe('response encoders', () => {
  it('when the export fully succeeded, then the response is the empty message (0 bytes)', () => {
    expect(encodeExportTraceServiceResponse()).toHaveLength(0);
    expect(encodeExportTraceServiceResponse({ rejectedSpans: 0, errorMessage: '' })).toHaveLength(0);
  });

  it('when spans were rejected, then partial_success carries the count and message', () => {
    const body = encodeExportTraceServiceResponse({ rejectedSpans: 3, errorMessage: 'span 1: invalid kind 999' });

    expect(ExportTraceServiceResponse.toObject(ExportTraceServiceResponse.decode(body), { longs: Number })).toEqual({
      partialSuccess: { rejectedSpans: 3, errorMessage: 'span 1: invalid kind 999' },
    });
  });

  it('when a status is encoded, then it is a google.rpc.Status with code and message', () => {
    const body = encodeRpcStatus(13, 'Failed to parse OTLP stream.');

    expect(RpcStatus.toObject(RpcStatus.decode(body))).toEqual({ code: 13, message: 'Failed to parse OTLP stream.' });
  });

  it('when a status has code 0 and a message, then only the message is written', () => {
    const body = encodeRpcStatus(0, 'Invalid request body: not a valid OTLP stream.');

    expect(RpcStatus.toObject(RpcStatus.decode(body), { defaults: true })).toEqual({
      code: 0,
      message: 'Invalid request body: not a valid OTLP stream.',
      details: [],
    });
  });
});
