import { ProtoWriter } from './wire/proto-writer.ts';

/** google.rpc.Status{code, message}: the body of every non-200 OTLP answer. */
export function encodeRpcStatus(code: number, message: string): Uint8Array {
  const w = new ProtoWriter();
  if (code !== 0) w.tag(1, 0).int32(Math.trunc(code));
  if (message !== '') w.tag(2, 2).string(message);
  return w.finish();
}
