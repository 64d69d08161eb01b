#!/usr/bin/env node
// `npm test`: installs what is missing, fetches the Kafka jars once, then runs the whole vitest
// suite. The suite's global setup (test/global-setup.ts) starts Kafka and Postgres once per run.
import { spawnSync } from 'node:child_process';
import { ensureDeps, repoRoot } from './ensure-deps.mjs';

ensureDeps();
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
const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], { cwd: repoRoot, stdio: 'inherit' });
process.exit(r.status ?? 1);
