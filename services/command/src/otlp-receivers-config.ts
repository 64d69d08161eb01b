// The OTLP receivers' ports (command service and all-in-one): OpenTelemetry exporters' defaults,
// 4318 for OTLP/HTTP and 4317 for OTLP/gRPC. `0` takes any free port (tests); `off` opens none.
import { z } from 'zod';

const receiverPort = (standard: number) => z
  .union([z.literal('off'), z.coerce.number().int().min(0).max(65535)], { error: "a port (0-65535; 0 = any free port) or 'off'" })
  .default(standard);

export const otlpReceiversEnv = z.object({
  /** OTLP/HTTP (`POST /v1/traces`, protobuf or JSON). */
  OTLP_HTTP_PORT: receiverPort(4318),
  /** OTLP/gRPC (`TraceService/Export`). */
  OTLP_GRPC_PORT: receiverPort(4317),
});
export type OtlpReceiversEnv = z.infer<typeof otlpReceiversEnv>;
