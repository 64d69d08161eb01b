#!/usr/bin/env node
// `npm test`: installs what is missing, lints (whole-suite runs only), fetches the Kafka jars and
// builds stripe-mock once, then runs vitest. The suite's global setup (test/global-setup.ts) starts
// Kafka, Postgres and stripe-mock once per run.
import { spawnSync } from 'node:child_process';
import { ensureDeps, repoRoot } from './ensure-deps.mjs';
import { ensureSupportedNode } from './node-runtime.mjs';

// On a node older than the supported LTS lines, this fetches one and re-runs the script with it.
await ensureSupportedNode();
ensureDeps();
const args = process.argv.slice(2);
// Lint is part of the whole suite; `npm test -- <file>` and `--project …` runs skip it.
if (!args.some((a) => !a.startsWith('-') || a.startsWith('--project'))) {
  const started = Date.now();
  let lint = spawnSync(process.execPath, ['node_modules/eslint/bin/eslint.js', '.'], { cwd: repoRoot, stdio: 'inherit' });
  // One owner per table (deploy/table-owners.json).
  if (lint.status === 0) lint = spawnSync(process.execPath, ['deploy/bin/check-table-owners.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (lint.status !== 0) {
    console.error(`lint failed (${seconds} s): fix the findings above, or run \`npm run lint\``);
    process.exit(lint.status ?? 1);
  }
  console.log(`lint passed in ${seconds} s`);
}
if (!process.env.KAFKA_BROKERS) {
  const { checkPrerequisites, ensureKafkaJars } = await import('../local/kafka.mjs');
  const missing = checkPrerequisites();
  if (missing.length) {
    console.error(`The test Kafka broker needs:\n  ${missing.join('\n  ')}\nOr set KAFKA_BROKERS to an existing broker.`);
    process.exit(1);
  }
  ensureKafkaJars();
  // The schema-registry tests start a real Apicurio Registry; install it once, outside the tests.
  const { ensureSchemaRegistry } = await import('../local/schema-registry.mjs');
  ensureSchemaRegistry({ log: console.log });
}
if (!process.env.STRIPE_MOCK_URL) {
  // The billing tests run against stripe-mock, built from the Go module proxy once, outside the tests.
  const { ensureStripeMock } = await import('../local/stripe-mock.mjs');
  try {
    ensureStripeMock({ log: console.log });
  } catch (err) {
    console.error(`The billing tests need stripe-mock: ${err.message}`);
    process.exit(1);
  }
}
{
  // The Agenta SDK test runs the real Python SDK: a pinned venv under .data/tools, installed once.
  const { ensureAgentaSdk } = await import('../local/agenta-sdk.mjs');
  try {
    ensureAgentaSdk({ log: console.log });
  } catch (err) {
    console.error(`The Agenta SDK test needs its Python venv: ${err.message}`);
    process.exit(1);
  }
}
{
  // The OTLP receivers' test runs clients nobody here wrote: the OpenTelemetry Python SDK's gRPC
  // exporter (a pinned venv, like the Agenta SDK's), telemetrygen and a core OpenTelemetry Collector
  // (both Go), all installed once into .data/tools. The telemetrygen exports and the Collector's
  // forwarding skip, saying so, only where Go is not installed.
  const { ensureOtelPythonGrpc } = await import('../local/otel-python.mjs');
  const { ensureTelemetrygen } = await import('../local/telemetrygen.mjs');
  const { ensureOtelcol } = await import('../local/otelcol.mjs');
  try {
    ensureOtelPythonGrpc({ log: console.log });
    if (!ensureTelemetrygen({ log: console.log })) console.log('Go is not installed: the telemetrygen exports of test/e2e/otlp-receivers.e2e.test.ts will be skipped.');
    if (!ensureOtelcol({ log: console.log })) console.log('Go is not installed: the Collector forwarding of test/e2e/otlp-receivers.e2e.test.ts will be skipped.');
  } catch (err) {
    console.error(`The OTLP receivers' test needs its clients: ${err.message}`);
    process.exit(1);
  }
}
{
  // The manifest checks (test/deploy) render with kustomize and validate with kubeconform against
  // local Kubernetes schemas: built and fetched once into .data/tools, outside the tests.
  const { ensureManifestTools } = await import('../k8s/tools.mjs');
  try {
    ensureManifestTools({ log: console.log });
  } catch (err) {
    console.error(`The manifest checks need kustomize, kubeconform and the Kubernetes schemas: ${err.message}`);
    process.exit(1);
  }
}
const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...args], { cwd: repoRoot, stdio: 'inherit' });
process.exit(r.status ?? 1);
