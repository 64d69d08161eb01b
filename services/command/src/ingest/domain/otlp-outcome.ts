// What an OTLP export comes to, and how each transport says it. OTLP/HTTP answers an HTTP status
// with a google.rpc.Status body (https://opentelemetry.io/docs/specs/otlp/#failures-1); OTLP/gRPC
// answers the gRPC status the OTLP spec lists as retryable or not, with RetryInfo where the client
// should come back (https://opentelemetry.io/docs/specs/otlp/#failures).

/** Why an export was refused. */
export type OtlpRefusal =
  | 'unauthenticated'
  | 'rate_limited'
  | 'over_quota'
  | 'invalid'
  | 'too_large'
  | 'unsupported_media_type'
  | 'unavailable';

export type OtlpOutcome =
  /** Queued; `rejectedSpans` > 0 is a partial success. */
  | { ok: true; rejectedSpans: number; errorMessage: string }
  | {
    ok: false;
    refusal: OtlpRefusal;
    message: string;
    /** When the client should retry (HTTP Retry-After, gRPC RetryInfo); absent = do not retry as is. */
    retryAfterSeconds?: number | undefined;
    /** The body was refused before it was read (HTTP: close the connection so the client stops sending). */
    unread?: boolean | undefined;
  };

/** google.rpc.Code values. */
export const RPC_CODE = {
  OK: 0,
  INVALID_ARGUMENT: 3,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

/**
 * OTLP/HTTP: the HTTP status and the code of the Status body. Quota is the reference's 403 (not
 * retried); a tenant's throttle 429 and overload 503 carry Retry-After (retried).
 */
export const OTLP_HTTP_ANSWER: Record<OtlpRefusal, { status: number; code: number }> = {
  unauthenticated: { status: 401, code: RPC_CODE.UNAUTHENTICATED },
  rate_limited: { status: 429, code: RPC_CODE.RESOURCE_EXHAUSTED },
  over_quota: { status: 403, code: RPC_CODE.PERMISSION_DENIED },
  invalid: { status: 400, code: RPC_CODE.INVALID_ARGUMENT },
  too_large: { status: 413, code: RPC_CODE.INVALID_ARGUMENT },
  unsupported_media_type: { status: 415, code: RPC_CODE.INVALID_ARGUMENT },
  unavailable: { status: 503, code: RPC_CODE.UNAVAILABLE },
};

/**
 * OTLP/gRPC: the status code. RESOURCE_EXHAUSTED is retried only with RetryInfo (the throttle's),
 * so quota and an oversized request, which carry none, are not; UNAVAILABLE is always retried.
 */
export const OTLP_GRPC_CODE: Record<OtlpRefusal, number> = {
  unauthenticated: RPC_CODE.UNAUTHENTICATED,
  rate_limited: RPC_CODE.RESOURCE_EXHAUSTED,
  over_quota: RPC_CODE.RESOURCE_EXHAUSTED,
  invalid: RPC_CODE.INVALID_ARGUMENT,
  too_large: RPC_CODE.RESOURCE_EXHAUSTED,
  unsupported_media_type: RPC_CODE.INVALID_ARGUMENT,
  unavailable: RPC_CODE.UNAVAILABLE,
};
