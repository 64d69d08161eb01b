// The OTLP receivers on the standard ports, beside the API's /otlp/v1/traces and sharing its whole
// admission (the command side's OtlpIngest and authenticator, the API's throttle): OTLP/HTTP on
// OTLP_HTTP_PORT, OTLP/gRPC on OTLP_GRPC_PORT. Started by the command service and the all-in-one;
// they close with the API's listener (joinListeners), so shutdown drains all three together.
import { listen, type RunningServer } from '@llm/http';
import type { Logger } from '@llm/logging';
import type { Throttle } from '@llm/throttle';
import type { CommandSide } from './app.ts';
import { createOtlpHttpApp } from './ingest/http/otlp-http-app.ts';
import { startOtlpGrpcServer } from './ingest/adapters/otlp-grpc-server.ts';
import type { OtlpReceiversEnv } from './otlp-receivers-config.ts';

export interface OtlpReceivers {
  /** The bound ports; undefined = that receiver is `off`. */
  httpPort: number | undefined;
  grpcPort: number | undefined;
  inFlight(): number;
  close(graceMs?: number): Promise<void>;
}

export interface OtlpReceiversOptions {
  otlp: CommandSide['otlp'];
  throttle: Throttle | undefined;
  log: Logger;
  host: string;
  ports: OtlpReceiversEnv;
}

export async function startOtlpReceivers(opts: OtlpReceiversOptions): Promise<OtlpReceivers> {
  const { OTLP_HTTP_PORT: httpPort, OTLP_GRPC_PORT: grpcPort } = opts.ports;
  const http = httpPort === 'off' ? undefined
    : await listen(createOtlpHttpApp({ ingest: opts.otlp.ingest, auth: opts.otlp.auth, throttle: opts.throttle, log: opts.log }), httpPort, opts.host);
  let grpc;
  try {
    grpc = grpcPort === 'off' ? undefined : await startOtlpGrpcServer({ ingest: opts.otlp.ingest, auth: opts.otlp.auth, throttle: opts.throttle, log: opts.log }, grpcPort, opts.host);
  } catch (err) {
    await http?.close(0);
    throw err;
  }
  if (http || grpc) opts.log.info({ otlp_http_port: http?.port ?? 'off', otlp_grpc_port: grpc?.port ?? 'off' }, 'OTLP receivers listening');
  return {
    httpPort: http?.port,
    grpcPort: grpc?.port,
    inFlight: () => (http?.inFlight() ?? 0) + (grpc?.inFlight() ?? 0),
    close: async (graceMs = 20_000) => { await Promise.all([http?.close(graceMs), grpc?.close(graceMs)]); },
  };
}

/** The API's listener and the receivers as one: they stop accepting together and drain together. */
export function joinListeners(server: RunningServer, receivers: OtlpReceivers): RunningServer {
  return {
    port: server.port,
    inFlight: () => server.inFlight() + receivers.inFlight(),
    close: async (graceMs) => { await Promise.all([server.close(graceMs), receivers.close(graceMs)]); },
  };
}
