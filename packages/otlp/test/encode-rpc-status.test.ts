// google.rpc.Status with RetryInfo (OTLP/gRPC's retry hint) against protobufjs: the vendored Status
// and RetryInfo / Duration as google/rpc/error_details.proto and google/protobuf/duration.proto define them.
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { encodeRpcStatus } from '../src/index.ts';
import { RpcStatus } from './fixtures/vendored-protos.ts';

const errorDetails = protobuf.Root.fromJSON({
  nested: {
    RetryInfo: { fields: { retryDelay: { type: 'Duration', id: 1 } } },
    Duration: { fields: { seconds: { type: 'int64', id: 1 }, nanos: { type: 'int32', id: 2 } } },
  },
});
const RetryInfo = errorDetails.lookupType('RetryInfo');

describe('encodeRpcStatus', () => {
  it('when a retry delay is given, then the details hold one google.rpc.RetryInfo with that many seconds', () => {
    const status = RpcStatus.toObject(RpcStatus.decode(encodeRpcStatus(14, 'busy', 3)), { longs: Number }) as { code: number; message: string; details: Array<{ type_url: string; value: Uint8Array }> };
    expect(status.code).toBe(14);
    expect(status.message).toBe('busy');
    expect(status.details).toHaveLength(1);
    expect(status.details[0]!.type_url).toBe('type.googleapis.com/google.rpc.RetryInfo');
    expect(RetryInfo.toObject(RetryInfo.decode(status.details[0]!.value), { longs: Number })).toEqual({ retryDelay: { seconds: 3 } });
  });

  it('when no retry delay is given, then there are no details', () => {
    expect(RpcStatus.toObject(RpcStatus.decode(encodeRpcStatus(8, 'quota')))).toEqual({ code: 8, message: 'quota' });
  });
});
