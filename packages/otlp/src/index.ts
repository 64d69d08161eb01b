export { decodeOtlpTraces, MAX_REJECT_REASONS } from './decode-otlp-traces.ts';
export type { OtlpDecodeOptions, OtlpDecodeResult } from './decode-otlp-traces.ts';
export { decodeOtlpJsonTraces } from './decode-otlp-json-traces.ts';
export { encodeExportTraceServiceResponse } from './encode-export-trace-service-response.ts';
export type { ExportTracePartialSuccess } from './encode-export-trace-service-response.ts';
export { encodeRpcStatus } from './encode-rpc-status.ts';
export { encodeExportTraceServiceRequest } from './encode-export-trace-service-request.ts';
export type {
  OtlpAnyValueInput,
  OtlpAttributesInput,
  OtlpEventInput,
  OtlpIdInput,
  OtlpLinkInput,
  OtlpNanosInput,
  OtlpRequestInput,
  OtlpResourceSpansInput,
  OtlpScopeSpansInput,
  OtlpSpanInput,
} from './encode-export-trace-service-request.ts';
export { applyAdapters, SEMCONV_ADAPTERS } from './apply-adapters.ts';
export type {
  AdapterContext,
  AdapterOutput,
  SemconvAdapter,
  SemconvAdapterDefinition,
} from './adapters/semconv-adapter.ts';
export type { FlatAttributes } from './flat-attributes.ts';
export { inflateBody, DEFAULT_MAX_INFLATED_BYTES } from './inflate-body.ts';
export type { InflateResult } from './inflate-body.ts';
export { decodeRpcStatus, decodeExportTraceServiceResponse } from './decode-responses.ts';
