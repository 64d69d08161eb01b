// Decoders of the two OTLP answer bodies, for clients and tests of this service
// (google.rpc.Status and ExportTraceServiceResponse).
import { ProtoReader, WIRE_LEN, WIRE_VARINT } from './wire/proto-reader.ts';

export function decodeRpcStatus(body: Uint8Array): { code: number; message: string } {
  const r = new ProtoReader(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  let code = 0;
  let message = '';
  while (r.pos < r.length) {
    const tag = r.tag();
    if (tag === ((1 << 3) | WIRE_VARINT)) code = r.varint32();
    else if (tag === ((2 << 3) | WIRE_LEN)) message = r.string();
    else r.skip(tag & 7);
  }
  return { code, message };
}

export function decodeExportTraceServiceResponse(body: Uint8Array): { partialSuccess?: { rejectedSpans: number; errorMessage: string } } {
  const r = new ProtoReader(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  const out: { partialSuccess?: { rejectedSpans: number; errorMessage: string } } = {};
  while (r.pos < r.length) {
    const tag = r.tag();
    if (tag !== ((1 << 3) | WIRE_LEN)) { r.skip(tag & 7); continue; }
    const end = r.lengthDelimitedEnd();
    const ps = { rejectedSpans: 0, errorMessage: '' };
    while (r.pos < end) {
      const t = r.tag();
      if (t === ((1 << 3) | WIRE_VARINT)) ps.rejectedSpans = r.varint32();
      else if (t === ((2 << 3) | WIRE_LEN)) ps.errorMessage = r.string();
      else r.skip(t & 7);
    }
    out.partialSuccess = ps;
  }
  return out;
}
