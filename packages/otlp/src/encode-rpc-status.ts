import { ProtoWriter } from './wire/proto-writer.ts';

const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * google.rpc.Status{code, message}: the body of every non-200 OTLP/HTTP answer. With
 * `retryDelaySeconds`, its details hold a google.rpc.RetryInfo (OTLP/gRPC's `grpc-status-details-bin`:
 * what tells an exporter to retry RESOURCE_EXHAUSTED and when to retry UNAVAILABLE).
 */
export function encodeRpcStatus(code: number, message: string, retryDelaySeconds?: number): Uint8Array {
  const w = new ProtoWriter();
  if (code !== 0) w.tag(1, 0).int32(Math.trunc(code));
  if (message !== '') w.tag(2, 2).string(message);
  if (retryDelaySeconds !== undefined) {
    // details (3): Any{type_url (1), value (2): RetryInfo{retry_delay (1): Duration{seconds (1)}}}.
    const seconds = Math.max(0, Math.ceil(retryDelaySeconds));
    const retryInfo = new ProtoWriter().message(1, (d) => { if (seconds > 0) d.tag(1, 0).varint(seconds); }).finish();
    w.message(3, (any) => { any.tag(1, 2).string(RETRY_INFO_TYPE); any.tag(2, 2).bytes(retryInfo); });
  }
  return w.finish();
}
