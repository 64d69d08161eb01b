// The OpenTelemetry Python SDK with its OTLP/gRPC exporter (`opentelemetry-exporter-otlp-proto-grpc`
// on PyPI, grpcio included) in a private virtualenv, for the OTLP receivers' end-to-end test
// (test/e2e/otlp-receivers.e2e.test.ts). Installed once with pip into .data/tools/, then reused.
import path from 'node:path';
import { ensurePipVenv, repoRoot } from './pip-venv.mjs';

// Pinned: the SDK line the Agenta SDK's venv runs (opentelemetry-sdk 1.43.0).
export const OTEL_PYTHON_VERSION = '1.43.0';
const venvDir = path.join(repoRoot, '.data', 'tools', `otel-python-grpc-${OTEL_PYTHON_VERSION}`);

/** Creates the venv and installs the exporter once (idempotent); returns the venv's python. */
export function ensureOtelPythonGrpc({ log = console.log } = {}) {
  return ensurePipVenv({
    venvDir, requirement: `opentelemetry-exporter-otlp-proto-grpc==${OTEL_PYTHON_VERSION}`,
    label: `the OpenTelemetry Python gRPC exporter ${OTEL_PYTHON_VERSION}`, purpose: 'the OTLP receivers test', log,
  });
}
