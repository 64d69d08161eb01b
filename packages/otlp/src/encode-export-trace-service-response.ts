import { ProtoWriter } from './wire/proto-writer.ts';

export interface ExportTracePartialSuccess {
  rejectedSpans: number;
  errorMessage: string;
}

/**
 * ExportTraceServiceResponse. Without `partial` (or with 0 rejected and no message, which OTLP
 * defines as equivalent) it is the empty message: a 0-byte body, as the reference answers.
 */
export function encodeExportTraceServiceResponse(partial?: ExportTracePartialSuccess): Uint8Array {
  if (partial === undefined || (partial.rejectedSpans === 0 && partial.errorMessage === '')) return new Uint8Array(0);
  return new ProtoWriter()
    .message(1, (w) => {
      if (partial.rejectedSpans !== 0) w.tag(1, 0).varintBig(BigInt(Math.trunc(partial.rejectedSpans)));
      if (partial.errorMessage !== '') w.tag(2, 2).string(partial.errorMessage);
    })
    .finish();
}
